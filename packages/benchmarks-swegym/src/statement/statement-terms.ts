import { pythonKeywords } from "./python-keywords.js";

/** What the grammar takes from the problem statement: names to search, expressions to run, numbers. */
export interface StatementTerms {
  /** Identifiers the statement writes as code (`parse`, `UNIT_SECONDS`, `split_evenly`), in order. */
  identifiers: string[];
  /** Identifiers the statement calls (`parse(...)`): a subset of `identifiers`. */
  called: Set<string>;
  /** Call expressions it writes (`parse("+5m")`, or a `>>> ` line), to evaluate. */
  expressions: string[];
  /** Numbers it writes, as written. */
  numbers: string[];
  /** Lower-cased words of the statement, for overlap features. */
  words: Set<string>;
  /**
   * Values the statement writes (code spans that are not calls, quoted strings, signed numbers), each
   * normalized by `normalizedValue`: what a reproduction's output may equal (the wrong value the
   * statement reports, or the one it expects).
   */
  values: Set<string>;
}

const maxIdentifiers = 12;
const maxExpressions = 6;
const maxNumbers = 8;
const proseStopWords = new Set([
  "the",
  "and",
  "for",
  "with",
  "that",
  "this",
  "from",
  "returns",
  "return",
  "print",
  "true",
  "false",
  "none",
]);

/** Code spans of a markdown text: inline `...` spans and the lines of ``` blocks. */
function codeSpans(text: string): string[] {
  const spans: string[] = [];
  for (const block of text.matchAll(/```[\w-]*\n([\s\S]*?)```/g))
    spans.push(...(block[1] as string).split("\n"));
  const withoutBlocks = text.replace(/```[\s\S]*?```/g, " ");
  for (const inline of withoutBlocks.matchAll(/`([^`\n]+)`/g)) spans.push(inline[1] as string);
  return spans.map((span) => span.trim()).filter((span) => span.length > 0);
}

function isBalanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === "(" || char === "[" || char === "{") depth++;
    if (char === ")" || char === "]" || char === "}") depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

function expressionOf(span: string): string | null {
  const text = span.startsWith(">>> ") ? span.slice(4).trim() : span;
  if (text.length > 160 || !/^[A-Za-z_][\w.]*\(.*\)$/.test(text) || !isBalanced(text)) return null;
  if (/^(print|import|from)\b/.test(text)) return null;
  return text;
}

/**
 * A value as text for comparison: quotes of a lone string dropped, whitespace squeezed, numbers in a
 * canonical form (`100` and `100.0` are one value).
 */
export function normalizedValue(text: string): string {
  let value = text.trim().replace(/\s+/g, " ");
  const quoted = /^(["'])(.*)\1$/.exec(value);
  if (quoted !== null && !(quoted[2] as string).includes(quoted[1] as string)) value = quoted[2] as string;
  if (/^[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(value)) return String(Number(value));
  return value;
}

/** Values of the statement a reproduction's output may be compared with. */
function statementValues(statement: string, spans: readonly string[]): Set<string> {
  const values = new Set<string>();
  for (const span of spans) if (expressionOf(span) === null) values.add(normalizedValue(span));
  const prose = statement.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]+`/g, " ");
  for (const match of prose.matchAll(/"([^"\n]{1,40})"|(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g))
    values.add(normalizedValue(match[1] ?? match[0]));
  values.delete("");
  return values;
}

/** Calls written in the prose (`human_bytes(1024) says ...`), with at least one argument. */
function proseExpressions(statement: string): string[] {
  const prose = statement.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]+`/g, " ");
  const found: string[] = [];
  for (const match of prose.matchAll(/(?<![\w.])[a-z_][\w.]*\([^()\n]+\)/g)) {
    const expression = expressionOf(match[0]);
    if (expression !== null) found.push(expression);
  }
  return found;
}

function isSearchable(name: string): boolean {
  return name.length >= 3 && !pythonKeywords.has(name) && !proseStopWords.has(name.toLowerCase());
}

function addIdentifiers(terms: StatementTerms, code: string): void {
  for (const match of code.matchAll(/[A-Za-z_][A-Za-z0-9_]*(\s*\()?/g)) {
    const name = match[0].replace(/\s*\($/, "");
    const before = code[match.index - 1];
    if (before !== undefined && /["'\d]/.test(before)) continue;
    if (!isSearchable(name)) continue;
    if (match[1] !== undefined) terms.called.add(name);
    if (!terms.identifiers.includes(name)) terms.identifiers.push(name);
  }
}

/** Reads the statement's code names, call expressions and numbers (nothing but the statement's text). */
export function statementTerms(statement: string): StatementTerms {
  const terms: StatementTerms = {
    identifiers: [],
    called: new Set(),
    expressions: [],
    numbers: [],
    words: new Set(),
    values: new Set(),
  };
  const spans = codeSpans(statement);
  for (const span of spans) {
    const expression = expressionOf(span);
    if (expression !== null && !terms.expressions.includes(expression)) terms.expressions.push(expression);
    addIdentifiers(terms, span.replace(/(["'])(?:\\.|(?!\1).)*\1/g, " "));
  }
  for (const expression of proseExpressions(statement))
    if (!terms.expressions.includes(expression)) terms.expressions.push(expression);
  terms.values = statementValues(statement, spans);
  const prose = statement.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]+`/g, " ");
  for (const match of prose.matchAll(/\b([a-z]+_[a-z0-9_]+|[A-Za-z_]\w*(?=\(\)))/g))
    addIdentifiers(terms, match[0]);
  for (const match of statement.matchAll(/(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g)) {
    if (!terms.numbers.includes(match[0])) terms.numbers.push(match[0]);
  }
  for (const word of statement.toLowerCase().match(/[a-z_][a-z0-9_]+/g) ?? []) terms.words.add(word);
  terms.identifiers = terms.identifiers.slice(0, maxIdentifiers);
  terms.expressions = terms.expressions.slice(0, maxExpressions);
  terms.numbers = terms.numbers.slice(0, maxNumbers);
  return terms;
}
