// Rewrites that widen what a line accepts or computes: a character test that misses one character, a
// product that misses a factor, a ratio off by two, a list that keeps its empty items. General kinds of
// real bugs, chosen from the bundled TRAIN split's bugs (csvlite, durations, exprcalc, iniconf,
// linediff); the held-out splits were not read to choose them.
import type { Operator } from "./line-rewrites.js";
import { isBinary, nextSolid, previousSolid, primaryStart } from "./operand-bounds.js";
import { pythonKeywords, replaceTokens, tokenizeLine, tokensText } from "./python-tokens.js";

const characterTests = new Set(["isalpha", "isdigit", "isalnum", "isspace", "isupper", "islower"]);
const perLine = 3;

/** `c == "-"` to `c in "+-"`, with the characters the issue writes. */
const characterSet: Operator = (tokens, context) =>
  tokens.flatMap((token, index) => {
    if (token.kind !== "op" || token.text !== "==") return [];
    const literal = tokens[nextSolid(tokens, index)];
    const quoted = /^(["'])(.)\1$/.exec(literal?.text ?? "");
    if (quoted === null) return [];
    const [, quote, character] = quoted as unknown as [string, string, string];
    return context.statementCharacters
      .filter((other) => other !== character && other !== quote)
      .slice(0, perLine)
      .map((other) => ({
        text: replaceTokens(
          tokens,
          index,
          nextSolid(tokens, index) + 1,
          `in ${quote}${other}${character}${quote}`,
        ),
        kind: "comparison" as const,
      }));
  });

/** `c.isalpha()` to `c.isalpha() or c == "_"`, with the characters the issue writes. */
const characterAlternative: Operator = (tokens, context) =>
  tokens.flatMap((token, index) => {
    if (token.kind !== "name" || !characterTests.has(token.text) || tokens[index - 1]?.text !== ".")
      return [];
    const open = nextSolid(tokens, index);
    if (tokens[open]?.text !== "(" || tokens[nextSolid(tokens, open)]?.text !== ")") return [];
    const start = primaryStart(tokens, index - 2);
    if (start < 0) return [];
    const receiver = tokensText(tokens, start, index - 1);
    const end = nextSolid(tokens, open) + 1;
    return context.statementCharacters
      .filter((character) => character !== '"' && character !== "\\")
      .slice(0, perLine)
      .map((character) => ({
        text: replaceTokens(tokens, end, end, ` or ${receiver} == "${character}"`),
        kind: "condition" as const,
      }));
  });

function productFactors(lines: readonly string[]): string[] {
  const found: string[] = [];
  for (const line of lines) {
    const tokens = tokenizeLine(line);
    tokens.forEach((token, index) => {
      if (token.kind !== "number") return;
      const beside = [tokens[previousSolid(tokens, index)]?.text, tokens[nextSolid(tokens, index)]?.text];
      if (beside.includes("*") && !found.includes(token.text)) found.push(token.text);
    });
  }
  return found;
}

/** `7 * 3600` to `7 * 24 * 3600`: a factor the nearby products have; `a / b` to `2 * a / b`. */
const missingFactor: Operator = (tokens, context) => {
  const present = new Set(tokens.filter((token) => token.kind === "number").map((token) => token.text));
  const factors = productFactors(context.nearbyLines).filter((factor) => !present.has(factor));
  return tokens.flatMap((token, index) => {
    if (token.kind !== "op" || !isBinary(tokens, index)) return [];
    const left = previousSolid(tokens, index);
    if (token.text === "*" && tokens[left]?.kind === "number") {
      const right = nextSolid(tokens, index);
      return factors.slice(0, perLine).map((factor) => ({
        text: replaceTokens(tokens, right, right, `${factor} * `),
        kind: "arithmetic" as const,
      }));
    }
    const start = primaryStart(tokens, left);
    if (token.text !== "/" || start < 0) return [];
    return [{ text: replaceTokens(tokens, start, start, "2 * "), kind: "arithmetic" as const }];
  });
};

/** `return items` to `return [item for item in items if item]`: empty items dropped. */
const dropEmpty: Operator = (tokens) => {
  const head = tokens.findIndex((token) => token.kind !== "space");
  const name = nextSolid(tokens, head);
  const rest = tokens.slice(name + 1).filter((token) => token.kind !== "space" && token.kind !== "comment");
  const value = tokens[name];
  if (tokens[head]?.text !== "return" || value?.kind !== "name" || rest.length > 0) return [];
  if (pythonKeywords.has(value.text)) return [];
  const element = value.text === "item" ? "entry" : "item";
  const filtered = `[${element} for ${element} in ${value.text} if ${element}]`;
  return [{ text: replaceTokens(tokens, name, name + 1, filtered), kind: "condition" }];
};

/** The widening operators, in the order their rewrites are offered (after the line's other rewrites). */
export const wideningOperators: readonly Operator[] = [
  characterSet,
  characterAlternative,
  missingFactor,
  dropEmpty,
];

/**
 * Single characters the issue writes at the start of a quoted or code value (`"+5"`, `_base`, `'_'`,
 * `.5`; a quote opens a value after a space, a bracket, `=`, `,`, `:` or a backtick): the characters a widened test may have to accept. At most four, in order.
 */
export function statementCharacters(statement: string): string[] {
  const found: string[] = [];
  for (const match of statement.matchAll(/(?<=^|[\s([{=,:`])["'`]([^A-Za-z0-9\s"'`()[\]{}\\,])/g)) {
    const character = match[1] as string;
    if (!found.includes(character)) found.push(character);
  }
  return found.slice(0, 4);
}
