import type { ReadView } from "./read-view.js";
import { isStopWord, tokenize, type ValueCandidate } from "./value-candidates.js";

/** A run of question tokens that names a header (token indices, inclusive). */
export interface Mention {
  /** First token. */
  start: number;
  /** Last token. */
  end: number;
}

/** Positions and shapes read from the question, shared by the decisions of one view. */
export interface QuestionStructure {
  /** Question tokens. */
  tokens: { text: string; start: number; end: number }[];
  /** Whether each token is a word (has a letter or digit). */
  isWord: boolean[];
  /** Where the question names each header. */
  mentions: Map<string, Mention[]>;
  /** Words of the table name. */
  tableWords: Set<string>;
  /** Token index of the first wh-word (what, which, who...) or -1. */
  whIndex: number;
  /** Token spans where each value candidate occurs (by text). */
  occurrences: Map<string, Mention[]>;
  /** Last token index of each value candidate with a position (by text). */
  candidateEnd: Map<string, number>;
  /** Value candidates that are whole phrases (bounded by punctuation, quotes, stop words or the question's edges). */
  maximal: Map<string, number>;
  /** Value candidates bounded by punctuation, quotes or the question's edges on both sides. */
  bounded: Map<string, number>;
}

/** A word in comparable form (lower case, a plural `s` dropped). */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase();
  return lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss") ? lower.slice(0, -1) : lower;
}

const contentWordsCache = new Map<string, string[]>();

/** Content words of a text in comparable form (memoised; callers must not mutate the result). */
export function contentWords(text: string): string[] {
  const cached = contentWordsCache.get(text);
  if (cached !== undefined) return cached;
  const result = (text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !isStopWord(word)).map(normalizeWord);
  if (contentWordsCache.size >= 20000) contentWordsCache.clear();
  contentWordsCache.set(text, result);
  return result;
}

/** Shape of a value: letters become `a`, digits `9`, runs collapsed (`12-3` and `4-10` share `9-9`). */
export function valueShape(text: string): string {
  return text
    .replace(/\p{L}+/gu, "a")
    .replace(/\d+/g, "9")
    .replace(/\s+/g, " ")
    .trim();
}

const numericHeader =
  /\b(year|years|rank|no|number|#|total|points?|pts|games?|played|wins?|won|lost|loss(es)?|draws?|drawn|goals?|attendance|score|age|pick|round|week|height|population|area|pos|position|season|laps|grid|gold|silver|bronze|apps?|caps|tries|against|for|capacity|overall|episode|floors|crowd|time|km|mw|mph|votes|seats|percentage|%|pop)\b/i;
const textHeader =
  /\b(name|player|team|country|nation|city|town|venue|title|opponents?|club|location|driver|artist|party|school|stadium|director|winner|notes?|position|role|event|result|manufacturer|owner|trainer|fate|surname|type|class|state|region|circuit|place)\b/i;

/** Whether a header name suggests numbers (1), text (-1), or neither (0). */
export function headerKind(header: string): number {
  if (numericHeader.test(header)) return 1;
  if (textHeader.test(header)) return -1;
  return 0;
}

function findMentions(header: string, words: string[], isWord: boolean[]): Mention[] {
  const headerWords = [...new Set(contentWords(header))];
  if (headerWords.length === 0) return [];
  const found: Mention[] = [];
  let index = 0;
  while (index < words.length) {
    if (!isWord[index] || !headerWords.includes(words[index] ?? "")) {
      index++;
      continue;
    }
    const matched = new Set<string>([words[index] ?? ""]);
    let end = index;
    let probe = index + 1;
    while (probe < words.length) {
      const word = words[probe] ?? "";
      if (headerWords.includes(word)) {
        matched.add(word);
        end = probe;
        probe++;
      } else if (!isWord[probe] || isStopWord(word)) {
        probe++;
        if (probe - end > 2) break;
      } else break;
    }
    const coverage = matched.size / headerWords.length;
    if (coverage >= 0.5 || matched.size >= 2) found.push({ start: index, end });
    index = end + 1;
  }
  return found;
}

/** Reads the question's tokens, the headers it names, and the phrase boundaries of value candidates. */
export function questionStructure(read: ReadView, values: readonly ValueCandidate[]): QuestionStructure {
  const tokens = tokenize(read.instruction);
  const isWord = tokens.map((token) => /[\p{L}\p{N}]/u.test(token.text));
  const words = tokens.map((token) => normalizeWord(token.text));
  const mentions = new Map<string, Mention[]>();
  for (const header of read.headers) mentions.set(header, findMentions(header, words, isWord));
  const whIndex = tokens.findIndex((token) =>
    /^(what|which|who|whom|whose|when|where|how|name|list|tell)$/i.test(token.text),
  );
  const candidateEnd = new Map<string, number>();
  const occurrences = new Map<string, Mention[]>();
  const maximal = new Map<string, number>();
  const bounded = new Map<string, number>();
  const softEdge = (index: number) =>
    index < 0 || index >= tokens.length || !isWord[index] || isStopWord(tokens[index]?.text ?? "");
  const hardEdge = (index: number) => index < 0 || index >= tokens.length || !isWord[index];
  for (const value of values) {
    if (value.start < 0) continue;
    const end = value.start + Math.max(1, value.length) - 1;
    if (!candidateEnd.has(value.text)) candidateEnd.set(value.text, end);
    occurrences.set(
      value.text,
      (value.occurrences ?? [{ start: value.start, length: value.length }]).map((entry) => ({
        start: entry.start,
        end: entry.start + Math.max(1, entry.length) - 1,
      })),
    );
    if (value.source === "quoted") {
      maximal.set(value.text, 1);
      bounded.set(value.text, 1);
      continue;
    }
    maximal.set(value.text, softEdge(value.start - 1) && softEdge(end + 1) ? 1 : 0);
    bounded.set(value.text, hardEdge(value.start - 1) && hardEdge(end + 1) ? 1 : 0);
  }
  return {
    tokens,
    isWord,
    mentions,
    tableWords: new Set(contentWords(read.table)),
    whIndex,
    occurrences,
    candidateEnd,
    maximal,
    bounded,
  };
}

/** Word tokens strictly between two token indices. */
export function wordsBetween(structure: QuestionStructure, from: number, to: number): number {
  let count = 0;
  for (let index = from + 1; index < to; index++) if (structure.isWord[index]) count++;
  return count;
}

/** Content words (not stop words) and commas strictly between two token indices. */
function gapBetween(
  structure: QuestionStructure,
  from: number,
  to: number,
): { words: number; commas: number } {
  let words = 0;
  let commas = 0;
  for (let index = from + 1; index < to; index++) {
    const text = structure.tokens[index]?.text ?? "";
    if (structure.isWord[index] && !isStopWord(text)) words++;
    else if (/^[,;:.]$/.test(text)) commas++;
  }
  return { words, commas };
}

function gapScore(gap: { words: number; commas: number }): number {
  const base = [1, 0.6, 0.3][gap.words] ?? 0;
  return gap.commas > 0 ? base * 0.3 : base;
}

/** How closely a value (any of its occurrences) follows (`after`) or precedes (`before`) a mention of the column (0..1). */
export function nearness(
  structure: QuestionStructure,
  column: string,
  text: string,
): { after: number; before: number } {
  const key = `${column}\u0000${text}`;
  const cached = nearnessCache.get(structure)?.get(key);
  if (cached !== undefined) return cached;
  const result = computeNearness(structure, column, text);
  let perStructure = nearnessCache.get(structure);
  if (perStructure === undefined) {
    perStructure = new Map();
    nearnessCache.set(structure, perStructure);
  }
  perStructure.set(key, result);
  return result;
}

const nearnessCache = new WeakMap<QuestionStructure, Map<string, { after: number; before: number }>>();

function computeNearness(
  structure: QuestionStructure,
  column: string,
  text: string,
): { after: number; before: number } {
  let after = 0;
  let before = 0;
  for (const { start, end } of structure.occurrences.get(text) ?? [])
    for (const mention of structure.mentions.get(column) ?? []) {
      if (start > mention.end) after = Math.max(after, gapScore(gapBetween(structure, mention.end, start)));
      if (mention.start > end) before = Math.max(before, gapScore(gapBetween(structure, end, mention.start)));
    }
  return { after, before };
}
