import type { PythonValue } from "./python-value.js";

class JsonSyntaxError extends Error {}

const jsonSpace = new Set([" ", "\t", "\n", "\r"]);
const escapes: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const numberPattern = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/;

class JsonReader {
  private position = 0;

  constructor(private readonly text: string) {}

  document(): PythonValue {
    const value = this.value();
    this.skipSpace();
    if (this.position !== this.text.length) throw new JsonSyntaxError(`extra data at ${this.position}`);
    return value;
  }

  private skipSpace(): void {
    while (jsonSpace.has(this.text[this.position] ?? "")) this.position += 1;
  }

  private value(): PythonValue {
    this.skipSpace();
    const rest = this.text.slice(this.position);
    const character = rest[0] ?? "";
    if (character === "{") return this.object();
    if (character === "[") return this.array();
    if (character === '"') return { kind: "str", value: this.string() };
    // json.loads also reads NaN, Infinity and -Infinity (parse_constant)
    for (const [word, value] of [
      ["null", { kind: "none" }],
      ["true", { kind: "bool", value: true }],
      ["false", { kind: "bool", value: false }],
      ["NaN", { kind: "float", value: Number.NaN }],
      ["Infinity", { kind: "float", value: Number.POSITIVE_INFINITY }],
      ["-Infinity", { kind: "float", value: Number.NEGATIVE_INFINITY }],
    ] as const) {
      if (rest.startsWith(word)) {
        this.position += word.length;
        return value;
      }
    }
    const number = numberPattern.exec(rest);
    if (number === null) throw new JsonSyntaxError(`expecting value at ${this.position}`);
    this.position += number[0].length;
    // an integer literal is a Python int with every digit; a fraction or exponent makes a float
    if (number[2] === undefined && number[3] === undefined) return { kind: "int", value: BigInt(number[0]) };
    return { kind: "float", value: Number(number[0]) };
  }

  private array(): PythonValue {
    this.position += 1;
    const items: PythonValue[] = [];
    this.skipSpace();
    if (this.text[this.position] === "]") {
      this.position += 1;
      return { kind: "list", items };
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      const next = this.text[this.position];
      this.position += 1;
      if (next === "]") return { kind: "list", items };
      if (next !== ",") throw new JsonSyntaxError(`expecting , or ] at ${this.position - 1}`);
    }
  }

  private object(): PythonValue {
    this.position += 1;
    const entries: [PythonValue, PythonValue][] = [];
    this.skipSpace();
    if (this.text[this.position] === "}") {
      this.position += 1;
      return { kind: "dict", entries };
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.position] !== '"')
        throw new JsonSyntaxError(`expecting a property name at ${this.position}`);
      const key = this.string();
      this.skipSpace();
      if (this.text[this.position] !== ":") throw new JsonSyntaxError(`expecting : at ${this.position}`);
      this.position += 1;
      const value = this.value();
      // a repeated key keeps its first place and takes the last value, as a dict built in order does
      const seen = entries.find(([existing]) => existing.kind === "str" && existing.value === key);
      if (seen === undefined) entries.push([{ kind: "str", value: key }, value]);
      else seen[1] = value;
      this.skipSpace();
      const next = this.text[this.position];
      this.position += 1;
      if (next === "}") return { kind: "dict", entries };
      if (next !== ",") throw new JsonSyntaxError(`expecting , or } at ${this.position - 1}`);
    }
  }

  private string(): string {
    this.position += 1;
    let out = "";
    for (;;) {
      const character = this.text[this.position];
      if (character === undefined) throw new JsonSyntaxError("unterminated string");
      this.position += 1;
      if (character === '"') return out;
      // strict mode (the default) refuses raw control characters inside strings
      if (character < " ") throw new JsonSyntaxError("invalid control character");
      if (character !== "\\") {
        out += character;
        continue;
      }
      const next = this.text[this.position] ?? "";
      this.position += 1;
      if (next === "u") {
        const hex = this.text.slice(this.position, this.position + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError("invalid \\uXXXX escape");
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.position += 4;
      } else if (escapes[next] !== undefined) out += escapes[next];
      else throw new JsonSyntaxError("invalid escape");
    }
  }
}

/**
 * Python's `json.loads` as Python values: integer literals stay exact ints (`12345678901234567890`),
 * a fraction or an exponent makes a float (`1.0` is 1.0, whose `str` is "1.0"), object keys keep
 * their order, NaN and Infinity are read. Undefined where json.loads raises. AgentBench FC reads every
 * tool call's arguments this way (THUDM/AgentBench (main) src/server/tasks/dbbench/task.py line 138).
 */
export function parsePythonJson(text: string): PythonValue | undefined {
  try {
    return new JsonReader(text).document();
  } catch (error) {
    if (error instanceof JsonSyntaxError) return undefined;
    throw error;
  }
}
