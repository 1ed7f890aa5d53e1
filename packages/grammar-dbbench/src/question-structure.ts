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
  /** Named-entity runs: capitalised words or numbers joined by connectors, and dates (token spans). */
  entities: Mention[];
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
  const whole = normalizeWord(header);
  // a header written as one token (`Time/Retired`)
  const found: Mention[] = words.flatMap((word, index) =>
    word === whole && /[^\p{L}\p{N}]/u.test(header) ? [{ start: index, end: index }] : [],
  );
  if (headerWords.length === 0 || found.length > 0) return found;
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
  // `stadium capacity` names Stadium capacity, not Stadium: a mention inside a longer one of another header goes
  const found = [...mentions.values()].flat();
  for (const [header, list] of mentions) {
    mentions.set(
      header,
      list.filter(
        (mention) =>
          !found.some(
            (other) =>
              other.start <= mention.start &&
              other.end >= mention.end &&
              other.end - other.start > mention.end - mention.start,
          ),
      ),
    );
  }
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
    entities: entityRuns(tokens),
    mentions,
    tableWords: new Set(contentWords(read.table)),
    whIndex,
    occurrences,
    candidateEnd,
    maximal,
    bounded,
  };
}

/** Words that end the clause a header was named in (`the 2010-11 season have been updated with 7`). */
const clauseWords = new Set(["been", "being", "have", "has", "had", "was", "were"]);

/** What lies strictly between two token indices: words that are not filler, commas, clause words. */
export interface Gap {
  words: number;
  commas: number;
  clauses: number;
}

/** The gap between two token indices; `isFiller` says which words do not count (stop words by default). */
export function gapBetween(
  structure: QuestionStructure,
  from: number,
  to: number,
  isFiller: (index: number) => boolean = (index) => isStopWord(structure.tokens[index]?.text ?? ""),
): Gap {
  let words = 0;
  let commas = 0;
  let clauses = 0;
  for (let index = from + 1; index < to; index++) {
    const text = structure.tokens[index]?.text ?? "";
    if (structure.isWord[index] && !isFiller(index)) words++;
    else if (/^[,;:.]$/.test(text)) commas++;
    else if (clauseWords.has(text.toLowerCase())) clauses++;
  }
  return { words, commas, clauses };
}

/** 1 for an empty gap, less with each word; cut to 0.3 by a comma (or, with `clauseBreaks`, two clause words). */
export function gapScore(gap: Gap, clauseBreaks = false): number {
  const base = [1, 0.6, 0.3][gap.words] ?? 0;
  return gap.commas > 0 || (clauseBreaks && gap.clauses > 1) ? base * 0.3 : base;
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

/** How a span of the question is used: as a new value (`set X to V`) or as a filter (`where X is V`). */
export interface SpanRole {
  /** 1 when the nearest cue before the span says "new value" (to, be, now, =) or, for a column, a change verb. */
  set: number;
  /** 1 when the nearest cue says "filter" (where, for, whose, with, of, when, equals, named, has). */
  filter: number;
}

const setCues = new Set(["to", "be", "now", "="]);
const changeVerbs =
  /^(set|change|changed|update|updated|modify|modified|alter|altered|replace|replaced|correct|corrected|make)$/i;
const filterCues = new Set([
  "where",
  "for",
  "whose",
  "with",
  "of",
  "when",
  "equals",
  "equal",
  "named",
  "has",
  "had",
]);
const clauseBreak = /^[,;.!?()]$/;

/** The nearest role cue in the few tokens before `start` (not across a comma or sentence break). */
function roleBefore(structure: QuestionStructure, start: number, column: boolean): SpanRole {
  for (let index = start - 1; index >= Math.max(0, start - 5); index--) {
    const text = (structure.tokens[index]?.text ?? "").toLowerCase();
    if (clauseBreak.test(text)) break;
    const previous = (structure.tokens[index - 1]?.text ?? "").toLowerCase();
    if (text === "to" && (previous === "equal" || previous === "equals")) return { set: 0, filter: 1 };
    if (setCues.has(text)) return column ? { set: 0, filter: 0 } : { set: 1, filter: 0 };
    if (column && changeVerbs.test(text)) return { set: 1, filter: 0 };
    // `the number of episodes`: before a column, `of` belongs to the column's own phrase
    if (column && text === "of") continue;
    // `for which city`: a column after a question word is the one asked for, not a filter
    if (column && (text === "which" || text === "what")) return { set: 0, filter: 0 };
    if (filterCues.has(text)) return { set: 0, filter: 1 };
  }
  return { set: 0, filter: 0 };
}

/** How many new values the question states (`to V`, `be V`, `now V`; `to be V` counts once). */
export function setCueCount(structure: QuestionStructure): number {
  let count = 0;
  structure.tokens.forEach((token, index) => {
    const text = token.text.toLowerCase();
    if (!setCues.has(text)) return;
    const next = (structure.tokens[index + 1]?.text ?? "").toLowerCase();
    if (setCues.has(next) || clauseBreak.test(next) || next === "") return;
    count++;
  });
  return count;
}

/** Whether a column mention is followed, within three tokens, by `to`/`be` (a new value follows). */
function setCueAfter(structure: QuestionStructure, end: number): number {
  for (let index = end + 1; index <= Math.min(structure.tokens.length - 1, end + 3); index++) {
    const text = (structure.tokens[index]?.text ?? "").toLowerCase();
    if (clauseBreak.test(text)) return 0;
    if (text === "to" || text === "be") return 1;
  }
  return 0;
}

/** The strongest roles over a column's mentions. */
export function columnRole(structure: QuestionStructure, column: string): SpanRole {
  let set = 0;
  let filter = 0;
  for (const mention of structure.mentions.get(column) ?? []) {
    const before = roleBefore(structure, mention.start, true);
    // `for position 10 to Barcelona`: the `to` after a filtered column gives the new value to another one
    set = Math.max(set, before.set, before.filter === 1 ? 0 : setCueAfter(structure, mention.end));
    filter = Math.max(filter, before.filter);
  }
  return { set, filter };
}

/** The strongest roles over a value's occurrences. */
export function valueRole(structure: QuestionStructure, text: string): SpanRole {
  let set = 0;
  let filter = 0;
  for (const occurrence of structure.occurrences.get(text) ?? []) {
    const before = roleBefore(structure, occurrence.start, false);
    set = Math.max(set, before.set);
    filter = Math.max(filter, before.filter);
  }
  return { set, filter };
}

const connectors = new Set([
  "of",
  "the",
  "de",
  "del",
  "da",
  "van",
  "der",
  "von",
  "du",
  "la",
  "le",
  "and",
  "&",
  "for",
  "y",
]);
const leadWords =
  /^(set|change|update|modify|insert|add|record|what|which|who|how|list|name|give|tell|find|show|on|in|at|the|a|an|for|if|when|where|after|before|during|from|with|by)$/i;
const months = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$/i;

/**
 * Runs of capitalised words or numbers (`Grand Prix of Atlanta`, `University of Santo Tomas`) that
 * lowercase connectors may join, and dates (`August 3, 2004`, `2 January 1944`): the phrases a reader
 * takes as one name. A run does not start with a question or command word.
 */
export function entityRuns(tokens: readonly { text: string }[]): Mention[] {
  const capital = (index: number) => /^[\p{Lu}\p{N}]/u.test(tokens[index]?.text ?? "");
  const runs: Mention[] = [];
  let index = 0;
  while (index < tokens.length) {
    if (!capital(index) || leadWords.test(tokens[index]?.text ?? "")) {
      index++;
      continue;
    }
    const start = index;
    let end = index;
    let probe = index + 1;
    while (probe < tokens.length) {
      const text = tokens[probe]?.text ?? "";
      if (capital(probe)) {
        end = probe;
        probe++;
      } else if (connectors.has(text.toLowerCase())) {
        // `van der Zaan`: connectors may follow each other; `28-10 and 16-2` are two values, not one name
        let after = probe + 1;
        while (connectors.has((tokens[after]?.text ?? "").toLowerCase()) && after < probe + 3) after++;
        // `28-10 and 16-2` are two values and `45,000 for Suwon` a number and a name, not one name
        const numberSide = /^\d/.test(tokens[after]?.text ?? "") || /^\d/.test(tokens[end]?.text ?? "");
        if (!capital(after) || numberSide) break;
        probe = after;
      } else if (
        text === "," &&
        months.test(tokens[end - 1]?.text ?? "") &&
        /^\d{4}$/.test(tokens[probe + 1]?.text ?? "")
      ) {
        probe++;
      } else break;
    }
    runs.push({ start, end });
    index = end + 1;
  }
  return runs;
}

/** Whether a value's span is a whole entity run (`entity`) or a strict part of one (`part`). */
export function entityFit(structure: QuestionStructure, text: string): { entity: number; part: number } {
  let entity = 0;
  let part = 0;
  for (const occurrence of structure.occurrences.get(text) ?? []) {
    for (const run of structure.entities) {
      if (occurrence.start === run.start && occurrence.end === run.end) entity = 1;
      else if (occurrence.start >= run.start && occurrence.end <= run.end) part = 1;
    }
  }
  return { entity, part: entity === 1 ? 0 : part };
}
