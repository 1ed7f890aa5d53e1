/**
 * Python values as AgentBench's graders see them after `eval`: enough of Python's data model to
 * reproduce `str`, `repr`, `float`, `list(...)`, `set(...)` and `==` on the answers.
 */
export type PythonValue =
  | { kind: "none" }
  | { kind: "bool"; value: boolean }
  | { kind: "int"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "decimal"; text: string }
  | { kind: "str"; value: string }
  | { kind: "bytes"; value: string }
  | { kind: "list"; items: PythonValue[] }
  | { kind: "tuple"; items: PythonValue[] }
  | { kind: "set"; items: PythonValue[] }
  | { kind: "dict"; entries: [PythonValue, PythonValue][] };

/** Python `None`. */
export const pyNone: PythonValue = { kind: "none" };

/** A Python `str`. */
export function pyStr(value: string): PythonValue {
  return { kind: "str", value };
}

/** Python's `repr` of a float (shortest round-trip digits, exponent below 1e-4 and from 1e16). */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa = "", exponentText = "0"] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const exponentSign = exponent < 0 ? "-" : "+";
    return `${sign}${body}e${exponentSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  if (digits.length <= exponent + 1) return `${sign}${digits}${"0".repeat(exponent + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
}

function isPrintable(codePoint: number): boolean {
  if (codePoint < 0x20 || codePoint === 0x7f) return false;
  if (codePoint >= 0x80 && codePoint < 0xa0) return false;
  if (codePoint === 0xad) return false;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return false;
  if (codePoint === 0x2028 || codePoint === 0x2029) return false;
  if (codePoint >= 0x200b && codePoint <= 0x200f) return false;
  if (codePoint >= 0x202a && codePoint <= 0x202e) return false;
  if (codePoint >= 0x2060 && codePoint <= 0x2064) return false;
  if (codePoint === 0xfeff) return false;
  return !/\p{Zs}/u.test(String.fromCodePoint(codePoint)) || codePoint === 0x20;
}

/** Python's `repr` of a `str`. */
export function pythonStrRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const character of value) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (character === quote || character === "\\") out += `\\${character}`;
    else if (character === "\n") out += "\\n";
    else if (character === "\r") out += "\\r";
    else if (character === "\t") out += "\\t";
    else if (isPrintable(codePoint)) out += character;
    else if (codePoint < 0x100) out += `\\x${codePoint.toString(16).padStart(2, "0")}`;
    else if (codePoint < 0x10000) out += `\\u${codePoint.toString(16).padStart(4, "0")}`;
    else out += `\\U${codePoint.toString(16).padStart(8, "0")}`;
  }
  return out + quote;
}

/** Python's `repr`. */
export function pythonRepr(value: PythonValue): string {
  switch (value.kind) {
    case "none":
      return "None";
    case "bool":
      return value.value ? "True" : "False";
    case "int":
      return value.value.toString();
    case "float":
      return pythonFloatRepr(value.value);
    case "decimal":
      return `Decimal('${value.text}')`;
    case "str":
      return pythonStrRepr(value.value);
    case "bytes":
      return `b${pythonStrRepr(value.value)}`;
    case "list":
      return `[${value.items.map(pythonRepr).join(", ")}]`;
    case "tuple":
      return value.items.length === 1
        ? `(${pythonRepr(value.items[0] as PythonValue)},)`
        : `(${value.items.map(pythonRepr).join(", ")})`;
    case "set":
      return value.items.length === 0 ? "set()" : `{${value.items.map(pythonRepr).join(", ")}}`;
    case "dict":
      return `{${value.entries.map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
  }
}

/** Python's `str`. */
export function pythonStr(value: PythonValue): string {
  if (value.kind === "str") return value.value;
  if (value.kind === "decimal") return value.text;
  return pythonRepr(value);
}

// Python's str.isspace() characters: JavaScript's \s without U+FEFF, plus U+001C-U+001F and U+0085
const pythonSpace =
  "\\t\\n\\v\\f\\r \\u001c-\\u001f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const pythonSpaceEdges = new RegExp(`^[${pythonSpace}]+|[${pythonSpace}]+$`, "g");

/**
 * Python's `str.strip()` without arguments: removes the characters `str.isspace()` accepts, which are
 * not JavaScript's `trim()` set (a byte order mark U+FEFF stays; U+001C-U+001F and U+0085 go).
 */
export function pythonStrip(text: string): string {
  return text.replace(pythonSpaceEdges, "");
}

/**
 * Unicode decimal digits (category Nd: `١٢`, `１２`) as ASCII digits, as Python's `float()` and `int()`
 * read them. Decimal digits come in contiguous runs whose length is a multiple of ten, each ten from
 * zero, so a digit's value is its distance from the start of its run, modulo 10.
 */
export function asciiDigits(text: string): string {
  return [...text]
    .map((character) => {
      if (/[0-9]/.test(character) || !/\p{Nd}/u.test(character)) return character;
      const codePoint = character.codePointAt(0) as number;
      let start = codePoint;
      while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
      return String((codePoint - start) % 10);
    })
    .join("");
}

// What float() strips: CPython turns every non-ASCII str.isspace() character into a space and then
// strips the six ASCII whitespace characters (Py_ISSPACE), so U+001C-U+001F, which str.isspace()
// accepts, stay and make float() fail (CPython Objects/unicodeobject.c
// _PyUnicode_TransformDecimalAndSpaceToASCII, Objects/floatobject.c float_from_string_inner).
const floatSpace = pythonSpace.replace("\\u001c-\\u001f", "");
const floatSpaceEdges = new RegExp(`^[${floatSpace}]+|[${floatSpace}]+$`, "g");
const asciiSpaceEdges = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;

function parseFloatLiteral(trimmed: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(trimmed)) return trimmed.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(trimmed)) return Number.NaN;
  if (!/^[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?$/.test(trimmed)) return undefined;
  return Number(trimmed.replaceAll("_", ""));
}

/**
 * Python's `float(x)` on a `str`: surrounding whitespace (float's set: `str.isspace()` without
 * U+001C-U+001F), `_` between digits, any Unicode decimal digits, inf/nan words.
 */
export function parsePythonFloat(text: string): number | undefined {
  return parseFloatLiteral(asciiDigits(text.replace(floatSpaceEdges, "")));
}

/** Python's `float(x)` on `bytes`: ASCII only, the six ASCII whitespace characters stripped (`float(b'12')` is 12.0). */
export function parseBytesFloat(bytes: string): number | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: bytes above 0x7f are what float() refuses
  if (/[^\x00-\x7f]/.test(bytes)) return undefined;
  return parseFloatLiteral(bytes.replace(asciiSpaceEdges, ""));
}

/** Python's `float(x)` for any value; undefined where Python raises. */
export function pythonFloat(value: PythonValue): number | undefined {
  switch (value.kind) {
    case "bool":
      return value.value ? 1 : 0;
    case "int":
      return Number(value.value);
    case "float":
      return value.value;
    case "decimal":
      return Number(value.text);
    case "str":
      return parsePythonFloat(value.value);
    case "bytes":
      return parseBytesFloat(value.value);
    default:
      return undefined;
  }
}

function numericValue(value: PythonValue): number | bigint | undefined {
  if (value.kind === "bool") return value.value ? 1n : 0n;
  if (value.kind === "int") return value.value;
  if (value.kind === "float") return value.value;
  if (value.kind === "decimal") return Number(value.text);
  return undefined;
}

/** Python's `==`. */
export function pythonEquals(left: PythonValue, right: PythonValue): boolean {
  const leftNumber = numericValue(left);
  const rightNumber = numericValue(right);
  if (leftNumber !== undefined && rightNumber !== undefined) {
    if (typeof leftNumber === "bigint" && typeof rightNumber === "bigint") return leftNumber === rightNumber;
    return Number(leftNumber) === Number(rightNumber);
  }
  if (left.kind !== right.kind) return false;
  switch (left.kind) {
    case "none":
      return true;
    case "str":
    case "bytes":
      return left.value === (right as { value: string }).value;
    case "list":
    case "tuple": {
      const other = (right as { items: PythonValue[] }).items;
      return (
        left.items.length === other.length &&
        left.items.every((item, index) => pythonEquals(item, other[index] as PythonValue))
      );
    }
    case "set":
      return pythonSetEquals(left.items, (right as { items: PythonValue[] }).items) ?? false;
    case "dict": {
      const other = (right as { entries: [PythonValue, PythonValue][] }).entries;
      return (
        left.entries.length === other.length &&
        left.entries.every(([key, item]) =>
          other.some(([otherKey, otherItem]) => pythonEquals(key, otherKey) && pythonEquals(item, otherItem)),
        )
      );
    }
    default:
      return false;
  }
}

/** Whether Python can hash the value (lists, sets and dicts cannot be set members). */
export function isHashable(value: PythonValue): boolean {
  if (value.kind === "list" || value.kind === "set" || value.kind === "dict") return false;
  if (value.kind === "tuple") return value.items.every(isHashable);
  return true;
}

/** `set(a) == set(b)`; undefined where Python raises (an unhashable member). */
export function pythonSetEquals(
  left: readonly PythonValue[],
  right: readonly PythonValue[],
): boolean | undefined {
  if (!left.every(isHashable) || !right.every(isHashable)) return undefined;
  const covers = (from: readonly PythonValue[], to: readonly PythonValue[]) =>
    from.every((item) => to.some((other) => pythonEquals(item, other)));
  return covers(left, right) && covers(right, left);
}

/** Python's `list(x)`; undefined where Python raises (ints, floats, None...). */
export function pythonList(value: PythonValue): PythonValue[] | undefined {
  switch (value.kind) {
    case "list":
    case "tuple":
    case "set":
      return [...value.items];
    case "dict":
      return value.entries.map(([key]) => key);
    case "str":
      return [...value.value].map(pyStr);
    case "bytes":
      return [...value.value].map((character) => ({ kind: "int", value: BigInt(character.charCodeAt(0)) }));
    default:
      return undefined;
  }
}
