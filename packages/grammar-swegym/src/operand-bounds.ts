import type { LineToken } from "./python-tokens.js";

const closers: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const openers: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

function isAtom(token: LineToken | undefined): boolean {
  return token !== undefined && (token.kind === "name" || token.kind === "number" || token.kind === "string");
}

/** Index of the bracket that matches the closer at `index` going left (-1 when unbalanced). */
function matchLeft(tokens: readonly LineToken[], index: number): number {
  const close = tokens[index]?.text as string;
  const open = closers[close] as string;
  let depth = 0;
  for (let position = index; position >= 0; position--) {
    const text = tokens[position]?.text;
    if (text === close) depth++;
    else if (text === open && --depth === 0) return position;
  }
  return -1;
}

/** Index of the bracket that matches the opener at `index` going right (-1 when unbalanced). */
function matchRight(tokens: readonly LineToken[], index: number): number {
  const open = tokens[index]?.text as string;
  const close = openers[open] as string;
  let depth = 0;
  for (let position = index; position < tokens.length; position++) {
    const text = tokens[position]?.text;
    if (text === open) depth++;
    else if (text === close && --depth === 0) return position;
  }
  return -1;
}

/**
 * First token of the primary expression (a name, literal, attribute chain, call or subscript) that
 * ends at token `end`, or -1 when none does.
 */
export function primaryStart(tokens: readonly LineToken[], end: number): number {
  let position = end;
  for (;;) {
    const token = tokens[position];
    if (token === undefined) return -1;
    if (token.kind === "op" && closers[token.text] !== undefined) {
      const open = matchLeft(tokens, position);
      if (open < 0) return -1;
      const before = tokens[open - 1];
      if (isAtom(before) || (before !== undefined && closers[before.text] !== undefined)) {
        position = open - 1;
        continue;
      }
      return open;
    }
    if (!isAtom(token)) return -1;
    if (tokens[position - 1]?.text === "." && tokens[position - 2] !== undefined) {
      position -= 2;
      continue;
    }
    return position;
  }
}

/** Last token of the primary expression that starts at token `start`, or -1 when none does. */
export function primaryEnd(tokens: readonly LineToken[], start: number): number {
  const first = tokens[start];
  if (first === undefined) return -1;
  let position: number;
  if (first.kind === "op" && openers[first.text] !== undefined) position = matchRight(tokens, start);
  else if (isAtom(first)) position = start;
  else return -1;
  if (position < 0) return -1;
  for (;;) {
    const next = tokens[position + 1];
    if (next?.text === "(" || next?.text === "[") {
      const close = matchRight(tokens, position + 1);
      if (close < 0) return -1;
      position = close;
      continue;
    }
    if (next?.text === "." && isAtom(tokens[position + 2])) {
      position += 2;
      continue;
    }
    return position;
  }
}

/** Index of the nearest non-space token before `index` (-1 when none). */
export function previousSolid(tokens: readonly LineToken[], index: number): number {
  for (let position = index - 1; position >= 0; position--) {
    if (tokens[position]?.kind !== "space") return position;
  }
  return -1;
}

/** Index of the nearest non-space token after `index` (-1 when none). */
export function nextSolid(tokens: readonly LineToken[], index: number): number {
  for (let position = index + 1; position < tokens.length; position++) {
    if (tokens[position]?.kind !== "space") return position;
  }
  return -1;
}

/** Whether the operator token at `index` is binary (a value ends right before it). */
export function isBinary(tokens: readonly LineToken[], index: number): boolean {
  const before = tokens[previousSolid(tokens, index)];
  if (before === undefined) return false;
  if (before.kind === "number" || before.kind === "string") return true;
  if (before.kind === "name")
    return ![
      "return",
      "if",
      "elif",
      "while",
      "and",
      "or",
      "not",
      "in",
      "else",
      "lambda",
      "yield",
      "is",
    ].includes(before.text);
  return before.text === ")" || before.text === "]" || before.text === "}";
}
