// Rewrites of a whole statement: a call whose result is thrown away (`canonical(unit)` where
// `unit = canonical(unit)` was meant), and a change of text made only when the text holds what it
// changes (`text = text.rstrip("0")` under `if "." in text:`), the one rewrite that writes two lines.
// General kinds of real bugs, chosen from the bundled TRAIN split's bugs (unitconv); the held-out
// splits were not read to choose them.
import type { LineRewrite, Operator } from "./line-rewrites.js";
import { nextSolid, primaryEnd, primaryStart } from "./operand-bounds.js";
import { type LineToken, pythonKeywords, tokensText } from "./python-tokens.js";

/** Methods that return a changed copy and leave their receiver as it was (`str`, `set`, `dict`). */
const copyingMethods = new Set([
  "strip",
  "lstrip",
  "rstrip",
  "lower",
  "upper",
  "casefold",
  "title",
  "capitalize",
  "replace",
  "removeprefix",
  "removesuffix",
  "zfill",
  "expandtabs",
  "union",
  "intersection",
  "difference",
  "copy",
]);

/** Functions called for what they do, never for a value to keep. */
const effectFunctions = new Set(["print", "setattr", "delattr", "exec", "breakpoint"]);

/** Methods whose string argument the receiver should hold for the call to mean anything. */
const presenceMethods = new Set(["strip", "lstrip", "rstrip", "split", "rsplit", "index", "replace"]);

/** A keyword of the language (`self` and `cls`, which the keyword set also holds, are names here). */
function isKeyword(text: string): boolean {
  return pythonKeywords.has(text) && text !== "self" && text !== "cls";
}

function solidIndexes(tokens: readonly LineToken[]): number[] {
  return tokens.flatMap((token, index) =>
    token.kind === "space" || token.kind === "comment" ? [] : [index],
  );
}

/** End of the attribute path (`name` or `name.attr...`, no call) that starts at `start`; -1 if none. */
function pathEnd(tokens: readonly LineToken[], start: number): number {
  if (tokens[start]?.kind !== "name" || isKeyword(tokens[start]?.text as string)) return -1;
  let end = start;
  while (tokens[end + 1]?.text === "." && tokens[end + 2]?.kind === "name" && tokens[end + 3]?.text !== "(")
    end += 2;
  return end;
}

/** `unit = canonical(unit)` for `canonical(unit)`; `text = text.strip()` for `text.strip()`. */
const keepResult: Operator = (tokens) => {
  const solid = solidIndexes(tokens);
  const first = solid[0];
  const last = solid.at(-1);
  if (first === undefined || last === undefined || tokens[last]?.text !== ")") return [];
  if (primaryEnd(tokens, first) !== last) return [];
  const head = pathEnd(tokens, first);
  if (head < 0) return [];
  const indentation = tokensText(tokens, 0, first);
  const call = tokensText(tokens, first, last + 1);
  const open = head + 1;
  if (tokens[open]?.text === "(" && !effectFunctions.has(tokens[first]?.text as string)) {
    const argument = nextSolid(tokens, open);
    const argumentEnd = pathEnd(tokens, argument);
    if (argumentEnd < 0) return [];
    const after = tokens[nextSolid(tokens, argumentEnd)]?.text;
    if (after !== "," && after !== ")") return [];
    const target = tokensText(tokens, argument, argumentEnd + 1);
    return [{ text: `${indentation}${target} = ${call}`, kind: "accumulate" }];
  }
  const method = tokens[head + 2];
  if (tokens[head + 1]?.text !== "." || !copyingMethods.has(method?.text as string)) return [];
  return [{ text: `${indentation}${tokensText(tokens, first, head + 1)} = ${call}`, kind: "accumulate" }];
};

/** Whether the line is one whole simple statement (not a block header, not continued on the next line). */
function isSimpleStatement(tokens: readonly LineToken[]): boolean {
  const solid = solidIndexes(tokens);
  const firstText = tokens[solid[0] as number]?.text ?? "";
  const lastText = tokens[solid.at(-1) as number]?.text ?? "";
  if (solid.length === 0 || isKeyword(firstText) || [":", ",", "\\"].includes(lastText)) return false;
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === "op" && "([{".includes(token.text)) depth++;
    else if (token.kind === "op" && ")]}".includes(token.text)) depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** `if "." in text:` above `text = text.rstrip("0").rstrip(".")`, the line indented under it. */
const presenceGuard: Operator = (tokens) => {
  if (!isSimpleStatement(tokens)) return [];
  const line = tokensText(tokens, 0, tokens.length);
  const indentation = /^\s*/.exec(line)?.[0] ?? "";
  const step = indentation.includes("\t") ? "\t" : "    ";
  const rewrites: LineRewrite[] = [];
  tokens.forEach((token, index) => {
    if (token.kind !== "name" || !presenceMethods.has(token.text) || tokens[index - 1]?.text !== ".") return;
    const argument = nextSolid(tokens, index + 1);
    const after = tokens[nextSolid(tokens, argument)]?.text;
    if (
      tokens[index + 1]?.text !== "(" ||
      tokens[argument]?.kind !== "string" ||
      (after !== ")" && after !== ",")
    )
      return;
    const chainStart = primaryStart(tokens, index - 2);
    const receiverEnd = chainStart < 0 ? -1 : pathEnd(tokens, chainStart);
    if (receiverEnd < 0) return;
    const condition = `${tokens[argument]?.text} in ${tokensText(tokens, chainStart, receiverEnd + 1)}`;
    rewrites.push({
      text: `${indentation}if ${condition}:\n${indentation}${step}${line.trimStart()}`,
      kind: "condition",
    });
  });
  return rewrites;
};

/** The statement rewrites that write one line. */
export const statementOperators: Operator[] = [keepResult];
/** The statement rewrites that replace a line by two. */
export const blockOperators: Operator[] = [presenceGuard];
