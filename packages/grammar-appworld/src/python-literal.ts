/** A value read from a Python literal as `print` shows it (dicts, lists, tuples, strings, numbers, True/False/None). */
export type PythonValue = null | boolean | number | string | PythonValue[] | { [key: string]: PythonValue };

class LiteralReader {
  private at = 0;
  constructor(private readonly text: string) {}

  read(): PythonValue {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) throw new Error(`unexpected text at ${this.at}`);
    return value;
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at] as string)) this.at += 1;
  }

  private value(): PythonValue {
    this.space();
    const character = this.text[this.at];
    if (character === "{") return this.dict();
    if (character === "[" || character === "(") return this.list(character === "[" ? "]" : ")");
    if (character === "'" || character === '"') return this.string(character);
    return this.atom();
  }

  private dict(): PythonValue {
    const result: { [key: string]: PythonValue } = {};
    this.at += 1;
    for (;;) {
      this.space();
      if (this.text[this.at] === "}") break;
      const key = this.value();
      this.space();
      if (this.text[this.at] !== ":") throw new Error(`expected ":" at ${this.at}`);
      this.at += 1;
      result[String(key)] = this.value();
      this.space();
      if (this.text[this.at] === ",") this.at += 1;
    }
    this.at += 1;
    return result;
  }

  private list(close: string): PythonValue {
    const result: PythonValue[] = [];
    this.at += 1;
    for (;;) {
      this.space();
      if (this.text[this.at] === close) break;
      if (this.at >= this.text.length) throw new Error("unclosed list");
      result.push(this.value());
      this.space();
      if (this.text[this.at] === ",") this.at += 1;
    }
    this.at += 1;
    return result;
  }

  private string(quote: string): string {
    let result = "";
    this.at += 1;
    while (this.at < this.text.length && this.text[this.at] !== quote) {
      const character = this.text[this.at] as string;
      if (character === "\\") {
        const escaped = this.text[this.at + 1] ?? "";
        result += escaped === "n" ? "\n" : escaped === "t" ? "\t" : escaped;
        this.at += 2;
      } else {
        result += character;
        this.at += 1;
      }
    }
    if (this.at >= this.text.length) throw new Error("unclosed string");
    this.at += 1;
    return result;
  }

  private atom(): PythonValue {
    const match = /^(True|False|None|-?\d+(?:\.\d+)?(?:e-?\d+)?)/.exec(this.text.slice(this.at));
    if (match === null) throw new Error(`unexpected text at ${this.at}`);
    this.at += (match[1] as string).length;
    const word = match[1] as string;
    if (word === "True") return true;
    if (word === "False") return false;
    if (word === "None") return null;
    return Number(word);
  }
}

/** Reads a printed Python literal; null when the text is not one. */
export function parsePythonLiteral(text: string): PythonValue | undefined {
  try {
    return new LiteralReader(text.trim()).read();
  } catch {
    return undefined;
  }
}

/** A value written as Python source. */
export function pythonSource(value: PythonValue): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonSource).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}: ${pythonSource(item)}`)
    .join(", ")}}`;
}
