import { isBinary, nextSolid, previousSolid, primaryEnd, primaryStart } from "./operand-bounds.js";
import { type LineToken, pythonKeywords, replaceTokens, tokenizeLine, tokensText } from "./python-tokens.js";
import { blockOperators, statementOperators } from "./statement-rewrites.js";
import { wideningOperators } from "./widening-rewrites.js";

/**
 * The kinds of one-line rewrite the grammar offers. They are general kinds of real bugs, and the ones
 * the bundled TRAIN split's bugs have (`data-src/<repo>/bugs.mjs`, entries with `split: "train"`);
 * the held-out bugs were not read to choose them.
 */
export const rewriteKinds = [
  "comparison",
  "boolean",
  "arithmetic",
  "off-by-one",
  "swap-operands",
  "identifier",
  "literal",
  "precedence",
  "normalize",
  "accumulate",
  "condition",
] as const;

/** A kind of rewrite. */
export type RewriteKind = (typeof rewriteKinds)[number];

/** One candidate rewrite of a line. */
export interface LineRewrite {
  /** The rewritten line (indentation kept); a guard's is two lines, the guard and the line under it. */
  text: string;
  /** Which operator made it. */
  kind: RewriteKind;
}

/** What a rewrite may draw on besides the line: names and literals seen near it, numbers in the issue. */
export interface RewriteContext {
  /** Other lines of the same file that the view shows, nearest first. */
  nearbyLines: readonly string[];
  /** Numbers the problem statement writes (`604800`, `1609.344`). */
  statementNumbers: readonly string[];
  /** Characters the statement writes at the start of a value (`"+5"`: `+`), from `statementCharacters`. */
  statementCharacters: readonly string[];
}

/** A rewrite operator: the candidate rewrites of one tokenized line. */
export type Operator = (tokens: LineToken[], context: RewriteContext) => LineRewrite[];

const comparisonFlips: Record<string, string[]> = {
  "<": ["<=", ">"],
  "<=": ["<", ">="],
  ">": [">=", "<"],
  ">=": [">", "<="],
  "==": ["!="],
  "!=": ["=="],
};

function each(tokens: LineToken[], make: (token: LineToken, index: number) => LineRewrite[]): LineRewrite[] {
  return tokens.flatMap((token, index) => make(token, index));
}

const comparison: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind === "op" && comparisonFlips[token.text] !== undefined) {
      return (comparisonFlips[token.text] as string[]).map((text) => ({
        text: replaceTokens(tokens, index, index + 1, text),
        kind: "comparison" as const,
      }));
    }
    if (token.kind !== "name") return [];
    const next = tokens[nextSolid(tokens, index)];
    if (token.text === "is" && next?.text === "not")
      return [{ text: replaceTokens(tokens, index, nextSolid(tokens, index) + 1, "is"), kind: "comparison" }];
    if (token.text === "is")
      return [{ text: replaceTokens(tokens, index, index + 1, "is not"), kind: "comparison" }];
    const before = tokens[previousSolid(tokens, index)];
    const isFor = tokens.some((other, position) => position < index && other.text === "for");
    if (token.text === "in" && before?.text === "not")
      return [
        { text: replaceTokens(tokens, previousSolid(tokens, index), index + 1, "in"), kind: "comparison" },
      ];
    if (token.text === "in" && !isFor)
      return [{ text: replaceTokens(tokens, index, index + 1, "not in"), kind: "comparison" }];
    return [];
  });

const boolean: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind !== "name") return [];
    if (token.text === "and" || token.text === "or") {
      const other = token.text === "and" ? "or" : "and";
      return [{ text: replaceTokens(tokens, index, index + 1, other), kind: "boolean" }];
    }
    const next = tokens[nextSolid(tokens, index)];
    const before = tokens[previousSolid(tokens, index)];
    if (token.text === "not" && next?.text !== "in" && before?.text !== "is")
      return [{ text: replaceTokens(tokens, index, nextSolid(tokens, index), ""), kind: "boolean" }];
    if (token.text === "True" || token.text === "False") {
      const other = token.text === "True" ? "False" : "True";
      return [{ text: replaceTokens(tokens, index, index + 1, other), kind: "boolean" }];
    }
    return [];
  });

const arithmeticSwaps: Record<string, string[]> = {
  "+": ["-"],
  "-": ["+"],
  "*": ["/"],
  "/": ["//", "*"],
  "//": ["/"],
  "+=": ["-="],
  "-=": ["+="],
};

const arithmetic: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind !== "op" || arithmeticSwaps[token.text] === undefined) return [];
    if (!token.text.endsWith("=") && !isBinary(tokens, index)) return [];
    return (arithmeticSwaps[token.text] as string[]).map((text) => ({
      text: replaceTokens(tokens, index, index + 1, text),
      kind: "arithmetic" as const,
    }));
  });

/** Removes `+ 1` / `- 1`, steps integer literals by one, and adds `+ 1` / `- 1` to range ends and slice bounds. */
const offByOne: Operator = (tokens) => {
  const rewrites: LineRewrite[] = [];
  tokens.forEach((token, index) => {
    const next = nextSolid(tokens, index);
    if (token.kind === "op" && (token.text === "+" || token.text === "-") && isBinary(tokens, index)) {
      const operand = tokens[next];
      const after = tokens[nextSolid(tokens, next)];
      if (operand?.text === "1" && after?.text !== "." && after?.text !== "(") {
        const from = previousSolid(tokens, index) + 1;
        rewrites.push({ text: replaceTokens(tokens, from, next + 1, ""), kind: "off-by-one" });
      }
    }
    if (token.kind === "number" && /^\d+$/.test(token.text)) {
      const value = Number(token.text);
      for (const stepped of [value + 1, value - 1]) {
        if (stepped >= 0)
          rewrites.push({
            text: replaceTokens(tokens, index, index + 1, String(stepped)),
            kind: "off-by-one",
          });
      }
    }
    const closer = tokens[next];
    const closesBound =
      closer?.text === "]" || closer?.text === ":" || (closer?.text === ")" && inRangeCall(tokens, index));
    if (
      closesBound &&
      primaryStart(tokens, index) >= 0 &&
      token.kind !== "space" &&
      token.text !== "(" &&
      token.text !== "[" &&
      insideBrackets(tokens, index)
    ) {
      for (const step of [" + 1", " - 1"]) {
        rewrites.push({ text: replaceTokens(tokens, index + 1, index + 1, step), kind: "off-by-one" });
      }
    }
  });
  return rewrites;
};

function insideBrackets(tokens: LineToken[], index: number): boolean {
  let depth = 0;
  for (let position = index; position >= 0; position--) {
    const text = tokens[position]?.text;
    if (text === "]" || text === ")") depth++;
    if (text === "[" || text === "(") {
      if (depth === 0) return true;
      depth--;
    }
  }
  return false;
}

function inRangeCall(tokens: LineToken[], index: number): boolean {
  let depth = 0;
  for (let position = index; position >= 0; position--) {
    const text = tokens[position]?.text;
    if (text === ")") depth++;
    if (text === "(") {
      if (depth === 0) return tokens[position - 1]?.text === "range";
      depth--;
    }
  }
  return false;
}

const swapOperands: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind !== "op" || !["-", "/", "//", "%"].includes(token.text) || !isBinary(tokens, index))
      return [];
    const leftEnd = previousSolid(tokens, index);
    const rightStart = nextSolid(tokens, index);
    const leftStart = primaryStart(tokens, leftEnd);
    const rightEnd = primaryEnd(tokens, rightStart);
    if (leftStart < 0 || rightEnd < 0) return [];
    const text = (from: number, to: number) => tokensText(tokens, from, to + 1);
    const middle = text(leftEnd + 1, rightStart - 1);
    const swapped = text(rightStart, rightEnd) + middle + text(leftStart, leftEnd);
    return [{ text: replaceTokens(tokens, leftStart, rightEnd + 1, swapped), kind: "swap-operands" }];
  });

/** How a name is used: after a dot (attribute), before a parenthesis (called), or plain. */
function nameShape(tokens: readonly LineToken[], index: number): string {
  const before = tokens[index - 1]?.text === ".";
  const called = tokens[nextSolid(tokens, index)]?.text === "(";
  return `${before ? "attr" : "plain"}-${called ? "call" : "value"}`;
}

function namesByShape(lines: readonly string[]): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const line of lines) {
    const tokens = tokenizeLine(line);
    tokens.forEach((token, index) => {
      if (token.kind !== "name" || pythonKeywords.has(token.text)) return;
      const shape = nameShape(tokens, index);
      const list = shapes.get(shape) ?? [];
      if (!list.includes(token.text)) list.push(token.text);
      shapes.set(shape, list);
    });
  }
  return shapes;
}

const perTokenNames = 4;

const identifier: Operator = (tokens, context) => {
  const shapes = namesByShape(context.nearbyLines);
  return each(tokens, (token, index) => {
    if (token.kind !== "name" || pythonKeywords.has(token.text)) return [];
    const before = tokens[previousSolid(tokens, index)]?.text;
    if (before === "def" || before === "class" || before === "import" || before === "as") return [];
    const candidates = (shapes.get(nameShape(tokens, index)) ?? []).filter((name) => name !== token.text);
    const renames = candidates.slice(0, perTokenNames).map((name) => ({
      text: replaceTokens(tokens, index, index + 1, name),
      kind: "identifier" as const,
    }));
    // an argument that should fall back: `get(section)` to `get(ref_section or section)`
    const isArgument = before === "(" || before === ",";
    const fallbacks = isArgument
      ? candidates
          .filter((name) => name.endsWith(`_${token.text}`) || name.startsWith(`${token.text}_`))
          .map((name) => ({
            text: replaceTokens(tokens, index, index + 1, `${name} or ${token.text}`),
            kind: "identifier" as const,
          }))
      : [];
    return [...renames, ...fallbacks];
  });
};

function literalsOf(lines: readonly string[], kind: "number" | "string"): string[] {
  const found: string[] = [];
  for (const line of lines) {
    for (const token of tokenizeLine(line)) {
      if (token.kind === kind && !found.includes(token.text) && token.text.length <= 40)
        found.push(token.text);
    }
  }
  return found;
}

const literal: Operator = (tokens, context) => {
  const numbers = [...context.statementNumbers, ...literalsOf(context.nearbyLines, "number")];
  const strings = literalsOf(context.nearbyLines, "string").filter(
    (text) => !/^[rRbBuUfF]*("""|''')/.test(text),
  );
  return each(tokens, (token, index) => {
    if (token.kind !== "number" && token.kind !== "string") return [];
    const pool = token.kind === "number" ? numbers : strings;
    return pool
      .filter((text) => text !== token.text)
      .slice(0, perTokenNames)
      .map((text) => ({ text: replaceTokens(tokens, index, index + 1, text), kind: "literal" as const }));
  });
};

/** `a - b * c` to `(a - b) * c`: an additive left operand the multiplication should have grouped. */
const precedence: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind !== "op" || !["*", "/", "//", "%"].includes(token.text) || !isBinary(tokens, index))
      return [];
    const leftEnd = previousSolid(tokens, index);
    const innerStart = primaryStart(tokens, leftEnd);
    const additive = tokens[previousSolid(tokens, innerStart)];
    if (innerStart < 0 || additive === undefined || !["+", "-"].includes(additive.text)) return [];
    const additiveIndex = previousSolid(tokens, innerStart);
    if (!isBinary(tokens, additiveIndex)) return [];
    const outerStart = primaryStart(tokens, previousSolid(tokens, additiveIndex));
    if (outerStart < 0) return [];
    const group = tokensText(tokens, outerStart, leftEnd + 1);
    return [{ text: replaceTokens(tokens, outerStart, leftEnd + 1, `(${group})`), kind: "precedence" }];
  });

/** Normalising calls a value lacks: `.strip()` to `.strip().lower()`, `int(x)` to `int(round(x))`. */
const normalize: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind !== "name") return [];
    const open = nextSolid(tokens, index);
    if (tokens[open]?.text !== "(") return [];
    const close = primaryEnd(tokens, open);
    if (close < 0) return [];
    if (token.text === "strip" && tokens[index - 1]?.text === "." && tokens[close + 1]?.text !== ".")
      return [{ text: replaceTokens(tokens, close + 1, close + 1, ".lower()"), kind: "normalize" }];
    if (token.text === "int" && close > open + 1 && tokens[open + 1]?.text !== "round") {
      const inner = tokensText(tokens, open + 1, close);
      return [{ text: replaceTokens(tokens, open + 1, close, `round(${inner})`), kind: "normalize" }];
    }
    return [];
  });

/** `if value:` to `if value.strip():`: a whitespace-only text that should count as empty. */
const blankCondition: Operator = (tokens) => {
  const head = tokens.findIndex((token) => token.kind !== "space");
  if (!["if", "elif", "while"].includes(tokens[head]?.text ?? "")) return [];
  const start = nextSolid(tokens, head);
  const end = primaryEnd(tokens, start);
  const colon = nextSolid(tokens, end);
  if (end < 0 || tokens[colon]?.text !== ":" || (tokens[end]?.text === ")" && tokens[end - 1]?.text === "("))
    return [];
  return [{ text: replaceTokens(tokens, end + 1, end + 1, ".strip()"), kind: "normalize" }];
};

/** Off-by-one inside an f-string's braces: `{start + 1}` to `{start}` and `{start}` to `{start + 1}` / `{start - 1}`. */
const formattedOffByOne: Operator = (tokens) =>
  each(tokens, (token, index) => {
    if (token.kind !== "string" || !/^[rR]?[fF]/.test(token.text)) return [];
    const rewrites: LineRewrite[] = [];
    for (const match of token.text.matchAll(/\{([A-Za-z_][\w.]*)( [+-] 1)?\}/g)) {
      const at = match.index;
      const name = match[1] as string;
      const replacements = match[2] === undefined ? [`{${name} + 1}`, `{${name} - 1}`] : [`{${name}}`];
      for (const replacement of replacements) {
        const text = token.text.slice(0, at) + replacement + token.text.slice(at + match[0].length);
        rewrites.push({ text: replaceTokens(tokens, index, index + 1, text), kind: "off-by-one" });
      }
    }
    return rewrites;
  });

/** An assignment that should accumulate (`=` to `+=`), or the other way round. */
const accumulate: Operator = (tokens) => {
  const first = tokens.findIndex(
    (token) => token.kind === "op" && (token.text === "=" || token.text === "+="),
  );
  const token = tokens[first];
  if (token === undefined || tokens.some((entry, index) => index < first && entry.text === "(")) return [];
  return [
    { text: replaceTokens(tokens, first, first + 1, token.text === "=" ? "+=" : "="), kind: "accumulate" },
  ];
};

/** `if a:` to `if a or b:`, with a plain name the nearby lines use. */
const condition: Operator = (tokens, context) => {
  const head = tokens.findIndex((token) => token.kind !== "space");
  const keyword = tokens[head]?.text;
  if (keyword !== "if" && keyword !== "elif" && keyword !== "while") return [];
  const colon = tokens.length - 1 - [...tokens].reverse().findIndex((token) => token.text === ":");
  if (colon >= tokens.length || colon <= head) return [];
  const used = new Set(tokens.filter((token) => token.kind === "name").map((token) => token.text));
  const names = (namesByShape(context.nearbyLines).get("plain-value") ?? []).filter(
    (name) => !used.has(name),
  );
  return names.slice(0, 3).map((name) => ({
    text: replaceTokens(tokens, colon, colon, ` or ${name}`),
    kind: "condition" as const,
  }));
};

const operators: Operator[] = [
  comparison,
  offByOne,
  formattedOffByOne,
  boolean,
  arithmetic,
  swapOperands,
  precedence,
  normalize,
  blankCondition,
  identifier,
  literal,
  accumulate,
  condition,
  ...wideningOperators,
  ...statementOperators,
];

/** Every operator in the order its rewrites are offered, with the lines each of its rewrites has. */
const operatorLines: readonly (readonly [Operator, number])[] = [
  ...operators.map((operator) => [operator, 1] as const),
  ...blockOperators.map((operator) => [operator, 2] as const),
];

/** Most rewrites offered for one line. */
export const maxRewritesPerLine = 40;

/** Rewrites made before, by line and context: every view of an episode shows its earlier lines again. */
const made = new Map<string, readonly LineRewrite[]>();
/** Entries `made` holds before it is emptied. */
const madeLimit = 4_000;

/**
 * Candidate rewrites of one source line, each a mutation of a kind real bugs have, deduplicated and
 * never the line itself; one line each but for `blockOperators`' two. Comments, docstrings and
 * `def`/`class`/`import` lines get none.
 */
export function lineRewrites(line: string, context: RewriteContext): readonly LineRewrite[] {
  const key = JSON.stringify([
    line,
    context.nearbyLines,
    context.statementNumbers,
    context.statementCharacters,
  ]);
  const known = made.get(key);
  if (known !== undefined) return known;
  const rewrites = Object.freeze(makeRewrites(line, context));
  if (made.size >= madeLimit) made.clear();
  made.set(key, rewrites);
  return rewrites;
}

function makeRewrites(line: string, context: RewriteContext): LineRewrite[] {
  const trimmed = line.trim();
  if (trimmed === "" || /^(#|"""|'''|def |class |import |from |@)/.test(trimmed) || line.includes("```"))
    return [];
  const tokens = tokenizeLine(line);
  const seen = new Set<string>([line]);
  const rewrites: LineRewrite[] = [];
  for (const [operator, lines] of operatorLines) {
    for (const rewrite of operator(tokens, context)) {
      if (seen.has(rewrite.text) || rewrite.text.split("\n").length !== lines) continue;
      seen.add(rewrite.text);
      rewrites.push(rewrite);
      if (rewrites.length >= maxRewritesPerLine) return rewrites;
    }
  }
  return rewrites;
}
