import { type PythonValue, pythonEquals } from "./python-value.js";

class PythonSyntaxError extends Error {}

const simpleEscapes: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

class LiteralParser {
  private position = 0;

  constructor(private readonly text: string) {}

  parseExpression(): PythonValue {
    this.skipSpace();
    const first = this.parseValue();
    this.skipSpace();
    if (this.peek() !== ",") return first;
    const items = [first];
    while (this.peek() === ",") {
      this.position += 1;
      this.skipSpace();
      if (this.position >= this.text.length) break;
      items.push(this.parseValue());
      this.skipSpace();
    }
    return { kind: "tuple", items };
  }

  finish(): void {
    this.skipSpace();
    if (this.position !== this.text.length)
      throw new PythonSyntaxError(`unexpected text at ${this.position}`);
  }

  private peek(): string {
    return this.text[this.position] ?? "";
  }

  private skipSpace(): void {
    while (this.position < this.text.length) {
      const character = this.text[this.position] as string;
      if (
        character === " " ||
        character === "\t" ||
        character === "\n" ||
        character === "\r" ||
        character === "\f"
      ) {
        this.position += 1;
      } else if (character === "\\" && this.text[this.position + 1] === "\n") {
        this.position += 2;
      } else if (character === "#") {
        while (this.position < this.text.length && this.text[this.position] !== "\n") this.position += 1;
      } else break;
    }
  }

  private parseSequence(close: string): PythonValue[] {
    const items: PythonValue[] = [];
    this.skipSpace();
    while (this.peek() !== close) {
      items.push(this.parseValue());
      this.skipSpace();
      if (this.peek() === ",") {
        this.position += 1;
        this.skipSpace();
      } else if (this.peek() !== close) throw new PythonSyntaxError("expected , or closing bracket");
    }
    this.position += 1;
    return items;
  }

  private parseValue(): PythonValue {
    this.skipSpace();
    const character = this.peek();
    if (character === "[") {
      this.position += 1;
      return { kind: "list", items: this.parseSequence("]") };
    }
    if (character === "(") {
      this.position += 1;
      this.skipSpace();
      if (this.peek() === ")") {
        this.position += 1;
        return { kind: "tuple", items: [] };
      }
      const first = this.parseValue();
      this.skipSpace();
      if (this.peek() === ")") {
        this.position += 1;
        return first;
      }
      if (this.peek() !== ",") throw new PythonSyntaxError("expected , or )");
      this.position += 1;
      return { kind: "tuple", items: [first, ...this.parseSequence(")")] };
    }
    if (character === "{") return this.parseBrace();
    if (character === "-" || character === "+") {
      this.position += 1;
      const operand = this.parseValue();
      const negate = character === "-";
      if (operand.kind === "int") return { kind: "int", value: negate ? -operand.value : operand.value };
      if (operand.kind === "float") return { kind: "float", value: negate ? -operand.value : operand.value };
      if (operand.kind === "bool") {
        const value = BigInt(operand.value ? 1 : 0);
        return { kind: "int", value: negate ? -value : value };
      }
      throw new PythonSyntaxError("bad operand type for unary operator");
    }
    if (/[0-9.]/.test(character)) return this.parseNumber();
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.position))?.[0];
    if (word !== undefined) {
      const next = this.text[this.position + word.length];
      if (/^(r|u|b|br|rb)$/i.test(word) && (next === "'" || next === '"')) {
        this.position += word.length;
        return this.parseStrings(word.toLowerCase());
      }
      this.position += word.length;
      if (word === "None") return { kind: "none" };
      if (word === "True") return { kind: "bool", value: true };
      if (word === "False") return { kind: "bool", value: false };
      throw new PythonSyntaxError(`name '${word}' is not defined`);
    }
    if (character === "'" || character === '"') return this.parseStrings("");
    throw new PythonSyntaxError(`unexpected ${JSON.stringify(character)}`);
  }

  private parseBrace(): PythonValue {
    this.position += 1;
    this.skipSpace();
    if (this.peek() === "}") {
      this.position += 1;
      return { kind: "dict", entries: [] };
    }
    const first = this.parseValue();
    this.skipSpace();
    if (this.peek() === ":") {
      this.position += 1;
      const entries: [PythonValue, PythonValue][] = [[first, this.parseValue()]];
      this.skipSpace();
      while (this.peek() === ",") {
        this.position += 1;
        this.skipSpace();
        if (this.peek() === "}") break;
        const key = this.parseValue();
        this.skipSpace();
        if (this.peek() !== ":") throw new PythonSyntaxError("expected :");
        this.position += 1;
        entries.push([key, this.parseValue()]);
        this.skipSpace();
      }
      if (this.peek() !== "}") throw new PythonSyntaxError("expected }");
      this.position += 1;
      // a repeated key keeps its first position and takes the last value, as a Python dict display does
      const unique: [PythonValue, PythonValue][] = [];
      for (const [key, value] of entries) {
        const seen = unique.find(([existing]) => pythonEquals(existing, key));
        if (seen === undefined) unique.push([key, value]);
        else seen[1] = value;
      }
      return { kind: "dict", entries: unique };
    }
    const items = [first];
    if (this.peek() === ",") {
      this.position += 1;
      items.push(...this.parseSequence("}"));
    } else if (this.peek() === "}") this.position += 1;
    else throw new PythonSyntaxError("expected , or }");
    // a set display keeps one of equal items, the first (`{'7', '7'}` is {'7'}, `{1, 1.0}` is {1})
    const distinct: PythonValue[] = [];
    for (const item of items)
      if (!distinct.some((existing) => pythonEquals(existing, item))) distinct.push(item);
    return { kind: "set", items: distinct };
  }

  private parseNumber(): PythonValue {
    const rest = this.text.slice(this.position);
    const radix = /^0([xX][0-9a-fA-F_]+|[oO][0-7_]+|[bB][01_]+)/.exec(rest);
    if (radix) {
      this.position += radix[0].length;
      return { kind: "int", value: BigInt(radix[0].replaceAll("_", "").toLowerCase()) };
    }
    const match = /^(\d(_?\d)*)?(\.(\d(_?\d)*)?)?([eE][+-]?\d(_?\d)*)?[jJ]?/.exec(rest)?.[0] ?? "";
    if (match === "" || match === ".") throw new PythonSyntaxError("bad number");
    this.position += match.length;
    if (/[jJ]$/.test(match)) throw new PythonSyntaxError("complex numbers are not supported");
    const clean = match.replaceAll("_", "");
    if (/[.eE]/.test(clean)) return { kind: "float", value: Number(clean) };
    if (/^0\d/.test(clean) && /[1-9]/.test(clean))
      throw new PythonSyntaxError("leading zeros in a decimal literal");
    return { kind: "int", value: BigInt(clean) };
  }

  private parseStrings(firstPrefix: string): PythonValue {
    let prefix = firstPrefix;
    let value = "";
    let isBytes = prefix.includes("b");
    for (;;) {
      const part = this.parseOneString(prefix.includes("r"), prefix.includes("b"));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a bytes literal holds ASCII only
      if (prefix.includes("b") && /[^\x00-\x7f]/.test(part))
        throw new PythonSyntaxError("bytes can only contain ASCII literal characters");
      value += part;
      const save = this.position;
      this.skipSpace();
      const word = /^(r|u|b|br|rb)?['"]/i.exec(this.text.slice(this.position));
      if (!word) {
        this.position = save;
        break;
      }
      prefix = (word[1] ?? "").toLowerCase();
      if (prefix.includes("b") !== isBytes)
        throw new PythonSyntaxError("cannot mix bytes and nonbytes literals");
      isBytes = prefix.includes("b");
      this.position += prefix.length;
    }
    return isBytes ? { kind: "bytes", value } : { kind: "str", value };
  }

  private parseOneString(raw: boolean, isBytes: boolean): string {
    const quote = this.peek();
    const triple = this.text.startsWith(quote.repeat(3), this.position);
    const terminator = triple ? quote.repeat(3) : quote;
    this.position += terminator.length;
    let out = "";
    for (;;) {
      if (this.position >= this.text.length) throw new PythonSyntaxError("unterminated string literal");
      if (this.text.startsWith(terminator, this.position)) {
        this.position += terminator.length;
        return out;
      }
      const character = this.text[this.position] as string;
      if ((character === "\n" || character === "\r") && !triple)
        throw new PythonSyntaxError("unterminated string literal");
      if (character === "\r") {
        // the tokenizer reads \r\n and a lone \r as \n
        out += "\n";
        this.position += this.text[this.position + 1] === "\n" ? 2 : 1;
        continue;
      }
      if (character !== "\\") {
        out += character;
        this.position += 1;
        continue;
      }
      const next = this.text[this.position + 1] ?? "";
      if (raw) {
        out += character + next;
        this.position += 2;
        continue;
      }
      this.position += 2;
      const simple = simpleEscapes[next];
      if (simple !== undefined) {
        out += simple;
      } else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(this.text.slice(this.position - 1))?.[0] ?? next;
        out += String.fromCodePoint(Number.parseInt(octal, 8));
        this.position += octal.length - 1;
      } else if (next === "x" || (!isBytes && (next === "u" || next === "U"))) {
        const length = next === "x" ? 2 : next === "u" ? 4 : 8;
        const hex = this.text.slice(this.position, this.position + length);
        if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex))
          throw new PythonSyntaxError("truncated escape");
        out += String.fromCodePoint(Number.parseInt(hex, 16));
        this.position += length;
      } else if (next === "N" && !isBytes) {
        throw new PythonSyntaxError("named unicode escapes are not supported");
      } else {
        out += `\\${next}`;
      }
    }
  }
}

/**
 * Python's `eval` restricted to literals (what AgentBench's graders meet in answers): strings with
 * prefixes and escapes, numbers, None/True/False, lists, tuples, sets, dicts, unary signs. Returns
 * undefined where Python's eval would raise, or where the text is an expression beyond literals (the
 * caller then takes the fallback path AgentBench takes on an exception).
 */
export function pythonEval(text: string): PythonValue | undefined {
  // "source code string cannot contain null bytes" (a ValueError or SyntaxError, by Python version)
  if (text.includes("\0")) return undefined;
  const stripped = text.replace(/^[ \t]+|[ \t]+$/g, "");
  try {
    const parser = new LiteralParser(stripped);
    const value = parser.parseExpression();
    parser.finish();
    return value;
  } catch (error) {
    if (error instanceof PythonSyntaxError || error instanceof RangeError || error instanceof SyntaxError) {
      return undefined;
    }
    throw error;
  }
}
