/** One token of a Python source line, as the edit operators see it. */
export interface LineToken {
  /** `name` (identifier or keyword), `number`, `string` (a whole literal), `op`, `space`, `comment`, `other`. */
  kind: "name" | "number" | "string" | "op" | "space" | "comment" | "other";
  /** The token's text, exactly as in the line. */
  text: string;
}

const operators = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "->",
  "**",
  "//",
  "<<",
  ">>",
  "<=",
  ">=",
  "==",
  "!=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  ":=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "=",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  "&",
  "|",
  "^",
  "~",
  "@",
  ";",
];

/** End of the string literal that opens at `start` (the quote, after any prefix), or the line's end. */
function stringEnd(line: string, start: number): number {
  const quote = line[start] as string;
  const triple = line.startsWith(quote.repeat(3), start);
  const closing = triple ? quote.repeat(3) : quote;
  let index = start + closing.length;
  while (index < line.length) {
    if (line[index] === "\\") {
      index += 2;
      continue;
    }
    if (line.startsWith(closing, index)) return index + closing.length;
    index++;
  }
  return line.length;
}

function matchAt(line: string, index: number): LineToken {
  const rest = line.slice(index);
  const space = /^\s+/.exec(rest);
  if (space !== null) return { kind: "space", text: space[0] };
  if (rest.startsWith("#")) return { kind: "comment", text: rest };
  const prefixed = /^([rRbBuUfF]{0,2})(["'])/.exec(rest);
  if (prefixed !== null) {
    const end = stringEnd(line, index + (prefixed[1] as string).length);
    return { kind: "string", text: line.slice(index, end) };
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
  if (name !== null) return { kind: "name", text: name[0] };
  const number = /^(\d[\d_]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+)/.exec(rest);
  if (number !== null) return { kind: "number", text: number[0] };
  const operator = operators.find((candidate) => rest.startsWith(candidate));
  if (operator !== undefined) return { kind: "op", text: operator };
  return { kind: "other", text: rest[0] as string };
}

/** Splits one line of Python into tokens whose texts concatenate back to the line. */
export function tokenizeLine(line: string): LineToken[] {
  const tokens: LineToken[] = [];
  let index = 0;
  while (index < line.length) {
    const token = matchAt(line, index);
    tokens.push(token);
    index += token.text.length;
  }
  return tokens;
}

/** The text of tokens `from`..`to` (exclusive). */
export function tokensText(tokens: readonly LineToken[], from: number, to: number): string {
  return tokens
    .slice(from, to)
    .map((token) => token.text)
    .join("");
}

/** The line with tokens `from`..`to` (exclusive) replaced by `text`. */
export function replaceTokens(tokens: readonly LineToken[], from: number, to: number, text: string): string {
  return (
    tokens
      .slice(0, from)
      .map((token) => token.text)
      .join("") +
    text +
    tokens
      .slice(to)
      .map((token) => token.text)
      .join("")
  );
}

/** Python keywords and the soft keywords the operators must never rename (the statement reader's set). */
export { pythonKeywords } from "@hs/benchmarks-swegym";
