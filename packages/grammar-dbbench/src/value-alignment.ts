import {
  columnRole,
  contentWords,
  gapBetween,
  gapScore,
  headerKind,
  type Mention,
  normalizeWord,
  type QuestionStructure,
  valueRole,
} from "./question-structure.js";
import { isStopWord, type ValueCandidate } from "./value-candidates.js";

/** A question value assigned to one header. */
export interface AlignedValue {
  /** The value text as the question writes it. */
  text: string;
  /** First token of the occurrence. */
  start: number;
  /** Last token of the occurrence. */
  end: number;
  /** How strongly the question ties the value to the header (0..1; 0 for values placed by order). */
  score: number;
}

interface Occurrence {
  text: string;
  start: number;
  end: number;
}

const minimumScore = 0.35;

/** Words that say how a sentence goes on, not what the data is. */
const vagueWords = new Set(
  "so either neither both also just only name names value values score new same other another following including include includes respective being".split(
    " ",
  ),
);
/** Words of the request rather than of the data (a value made of them is not a value). */
export const requestWords = new Set(
  "update updated updating set change changed modify modified insert inserted record recorded add added column columns table row rows field fields value values equals equal named called database entry data new reflect indicate".split(
    " ",
  ),
);

/**
 * Words that name what a query computes (`the average total`, `the highest rank`) rather than a value of
 * the data: a condition value made of them is the question's wording, not a cell.
 */
export const summaryWords = new Set(
  "average mean total sum count number amount highest lowest maximum minimum most least largest smallest biggest greatest fewest".split(
    " ",
  ),
);

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** Whether a token says nothing about the data: a stop word, a word of the request or of the table's name. */
function isFiller(structure: QuestionStructure, index: number): boolean {
  const text = structure.tokens[index]?.text ?? "";
  const word = normalizeWord(text);
  const lower = text.toLowerCase();
  return (
    isStopWord(text) || requestWords.has(lower) || vagueWords.has(lower) || structure.tableWords.has(word)
  );
}

/** How closely two token positions are tied: 1 with nothing but filler between them. */
function tie(structure: QuestionStructure, from: number, to: number): number {
  const gap = gapBetween(structure, from, to, (index) => isFiller(structure, index));
  // `Year: 1998` and `Year='2021'` tie a value to its header; a comma or a new clause breaks the tie
  const colons = structure.tokens.slice(from + 1, to).filter((token) => token.text === ":").length;
  return gapScore({ ...gap, commas: gap.commas - colons }, true);
}

/** Share of the header's content words that the mention's tokens name. */
function coverage(structure: QuestionStructure, header: string, mention: Mention): number {
  if (
    mention.start === mention.end &&
    normalizeWord(structure.tokens[mention.start]?.text ?? "") === normalizeWord(header)
  )
    return 1;
  const headerWords = new Set(contentWords(header));
  if (headerWords.size === 0) return 0;
  const named = new Set<string>();
  for (let index = mention.start; index <= mention.end; index++) {
    const word = normalizeWord(structure.tokens[index]?.text ?? "");
    if (headerWords.has(word)) named.add(word);
  }
  return named.size / headerWords.size;
}

function tokenRange(span: { start: number; end: number }): number[] {
  return Array.from({ length: span.end - span.start + 1 }, (_, offset) => span.start + offset);
}

function isQuote(structure: QuestionStructure, index: number): boolean {
  return /^['"‘’“”]$/.test(structure.tokens[index]?.text ?? "");
}

/** Whether `outer` holds `inner` and more. */
function contains(outer: { start: number; end: number }, inner: { start: number; end: number }): boolean {
  return (
    outer.start <= inner.start && outer.end >= inner.end && outer.end - outer.start > inner.end - inner.start
  );
}

/** Whether a name run has a capitalised word outside the mention (`Democratic Party`, not `Draw 10`). */
function namesMore(structure: QuestionStructure, run: Mention, mention: Mention): boolean {
  for (let index = run.start; index <= run.end; index++) {
    if (index >= mention.start && index <= mention.end) continue;
    if (/^\p{Lu}/u.test(structure.tokens[index]?.text ?? "")) return true;
  }
  return false;
}

function isNameOrNumber(structure: QuestionStructure, span: Occurrence): boolean {
  if (span.start === span.end && /^-?\d/.test(structure.tokens[span.start]?.text ?? "")) return true;
  return structure.entities.some((run) => run.start === span.start && run.end === span.end);
}

/**
 * Whether an unquoted span reads as one value: a name or date as a whole, a number, or up to four words
 * with no stop word, punctuation, header mention, or word of the request or the table's name in it.
 */
function isPlainValue(structure: QuestionStructure, span: Occurrence, mentions: readonly Mention[]): boolean {
  if (isNameOrNumber(structure, span)) return true;
  if (mentions.some((mention) => overlaps(mention, span))) return false;
  if (/^-?\d/.test(structure.tokens[span.start]?.text ?? "")) return false;
  if (span.end - span.start >= 4) return false;
  for (let index = span.start; index <= span.end; index++)
    if (!structure.isWord[index] || isFiller(structure, index)) return false;
  return true;
}

/** The question's values assigned to headers, and which assigned header is the statement's filter. */
export interface Alignment {
  /** Header -> the value the question ties to it. */
  byHeader: Map<string, AlignedValue>;
  /** Names, numbers and quoted values of the question that no header is tied to (`the capitol square`). */
  unaligned: string[];
  /**
   * The assigned header that selects rows rather than receives a new value (`where the 'Year' column
   * equals 2000`, `for the 2010-11 season`, `In the year 2002, update ...`), or null when no assigned
   * header reads as a filter.
   */
  filter: string | null;
}

const changeVerb = /^(set|change|update|updated|modify|alter|replace|correct|insert|add)$/i;

/** The assigned header with the strongest filter reading (roles and a place before the change verb). */
function filterOf(structure: QuestionStructure, byHeader: Map<string, AlignedValue>): string | null {
  const verb = structure.tokens.findIndex((token) => changeVerb.test(token.text));
  let best: string | null = null;
  let bestEvidence = 0;
  for (const [header, value] of byHeader) {
    const valueReading = valueRole(structure, value.text);
    const headerReading = columnRole(structure, header);
    const evidence =
      valueReading.filter +
      headerReading.filter +
      (verb > value.end ? 1 : 0) -
      2 * (valueReading.set + headerReading.set);
    if (evidence > bestEvidence) {
      best = header;
      bestEvidence = evidence;
    }
  }
  return best;
}

/** What every step of an alignment reads besides the question: the headers, mentions and values. */
interface AlignmentInputs {
  structure: QuestionStructure;
  headers: readonly string[];
  /** Every header mention of the question. */
  allMentions: Mention[];
  /** The quoted values' occurrences that stand between quote marks. */
  quotedSpans: Occurrence[];
}

/** A value tied to a header, with the strength of the tie and the tokens between them. */
interface HeaderValuePair {
  header: string;
  occurrence: Occurrence;
  score: number;
  distance: number;
}

function occurrencesOf(value: ValueCandidate): Occurrence[] {
  return (value.occurrences ?? [{ start: value.start, length: value.length }]).map((entry) => ({
    text: value.text,
    start: entry.start,
    end: entry.start + Math.max(1, entry.length) - 1,
  }));
}

/** The occurrences of quoted values that the question writes between quote marks. */
function quotedSpansOf(structure: QuestionStructure, values: readonly ValueCandidate[]): Occurrence[] {
  const quotedSpans: Occurrence[] = [];
  for (const value of values) {
    if (value.source !== "quoted" || value.start < 0) continue;
    for (const span of occurrencesOf(value))
      if (isQuote(structure, span.start - 1) && isQuote(structure, span.end + 1)) quotedSpans.push(span);
  }
  return quotedSpans;
}

/**
 * The occurrences that may be a header's value: quoted spans, and plain values outside quotes; never a
 * header's or the table's name.
 */
function valueOccurrences(inputs: AlignmentInputs, values: readonly ValueCandidate[]): Occurrence[] {
  const { structure, quotedSpans } = inputs;
  const headerNames = new Set(inputs.headers.map((header) => header.toLowerCase()));
  const occurrences: Occurrence[] = [];
  for (const value of values) {
    if (value.start < 0 || (value.source !== "span" && value.source !== "quoted")) continue;
    const words = contentWords(value.text);
    const named = headerNames.has(value.text.toLowerCase());
    const tableName = words.every((word) => structure.tableWords.has(word));
    for (const occurrence of occurrencesOf(value)) {
      const quotedSpan = quotedSpans.find(
        (span) => span.start === occurrence.start && span.end === occurrence.end,
      );
      if (named || tableName || words.length === 0) continue;
      if (quotedSpan !== undefined) {
        occurrences.push(quotedSpan);
        continue;
      }
      // a part of a quoted value (`2021` in 'Newly renovated in 2021') is not a value of its own
      if (quotedSpans.some((span) => overlaps(span, occurrence))) continue;
      if (isPlainValue(structure, occurrence, inputs.allMentions)) occurrences.push(occurrence);
    }
  }
  return occurrences;
}

/**
 * How surely a mention names its header (0..1): the share of the header it covers, less inside a longer
 * quoted value or name, inside another header's mention, made of the table's words only, or shared.
 */
function mentionQuality(inputs: AlignmentInputs, header: string, mention: Mention): number {
  const { structure, headers, quotedSpans, allMentions } = inputs;
  // a header word inside a longer quoted value or name (`'Madison High School'`, `Democratic Party`)
  const insideQuote =
    quotedSpans.some((span) => contains(span, mention)) ||
    structure.entities.some((run) => contains(run, mention) && namesMore(structure, run, mention));
  const insideOther = allMentions.some((other) => other !== mention && contains(other, mention));
  // `season` names Season wholly and Season Premiere only in part; `score` may name A, E and T Score
  const covered = coverage(structure, header, mention);
  const sharedBy = headers.filter((other) =>
    (structure.mentions.get(other) ?? []).some(
      (entry) =>
        entry.start === mention.start &&
        entry.end === mention.end &&
        coverage(structure, other, entry) >= covered,
    ),
  ).length;
  const tableWordsOnly = tokenRange(mention).every(
    (index) =>
      !structure.isWord[index] ||
      structure.tableWords.has(normalizeWord(structure.tokens[index]?.text ?? "")),
  );
  return (
    (covered * (insideQuote ? 0.3 : 1) * (insideOther ? 0.5 : 1) * (tableWordsOnly ? 0.5 : 1)) /
    Math.max(1, sharedBy)
  );
}

/** The tie of one value occurrence to one header mention, or null when it is too weak. */
function pairOf(
  structure: QuestionStructure,
  tied: {
    header: string;
    mention: Mention;
    quality: number;
    headerRole: ReturnType<typeof columnRole>;
    standsAlone: boolean;
  },
  occurrence: Occurrence,
): HeaderValuePair | null {
  const { header, quality, headerRole } = tied;
  const { start, end } = tied.mention;
  const after = occurrence.start > end;
  const gap = after ? tie(structure, end, occurrence.start) : tie(structure, occurrence.end, start);
  const weak = !tied.standsAlone;
  // `Draw 10` and `145 points` are the tightest ties; a value after a stop word (`place with 145`) is looser
  const adjacent = after ? occurrence.start === end + 1 : occurrence.end === start - 1;
  const number = /^-?\d/.test(occurrence.text);
  const direction = adjacent ? (after || number ? 1 : 0.9) : after ? 0.95 : 0.9;
  let score = gap * quality * direction * (weak ? 0.5 : 1);
  // `change the title of the film ... to 'Wonder Woman: 1984'`: a changed column takes the new value
  const role = valueRole(structure, occurrence.text);
  if (headerRole.set === 1 && role.set === 1 && after) score = Math.max(score, 1.05 * quality);
  else if ((headerRole.set === 1 && role.filter === 1) || (headerRole.filter === 1 && role.set === 1))
    score *= 0.5;
  if (score < minimumScore) return null;
  const distance = after ? occurrence.start - end : start - occurrence.end;
  return { header, occurrence, score, distance };
}

/** Every tie of a value to a header mention strong enough to count, in header and mention order. */
function mentionPairs(
  inputs: AlignmentInputs,
  occurrences: readonly Occurrence[],
  standsAlone: (occurrence: Occurrence) => boolean,
): HeaderValuePair[] {
  const pairs: HeaderValuePair[] = [];
  for (const header of inputs.headers) {
    for (const mention of inputs.structure.mentions.get(header) ?? []) {
      const quality = mentionQuality(inputs, header, mention);
      if (quality === 0) continue;
      const headerRole = columnRole(inputs.structure, header);
      for (const occurrence of occurrences) {
        if (overlaps(occurrence, mention)) continue;
        const tied = { header, mention, quality, headerRole, standsAlone: standsAlone(occurrence) };
        const pair = pairOf(inputs.structure, tied, occurrence);
        if (pair !== null) pairs.push(pair);
      }
    }
  }
  return pairs;
}

/** Strongest ties first (then the nearest, then the longest value), each header and stretch used once. */
function assignPairs(pairs: HeaderValuePair[]) {
  pairs.sort(
    (a, b) =>
      b.score - a.score ||
      a.distance - b.distance ||
      b.occurrence.end - b.occurrence.start - (a.occurrence.end - a.occurrence.start),
  );
  const aligned = new Map<string, AlignedValue>();
  const taken: Occurrence[] = [];
  for (const pair of pairs) {
    if (aligned.has(pair.header) || taken.some((span) => overlaps(span, pair.occurrence))) continue;
    aligned.set(pair.header, { ...pair.occurrence, score: pair.score });
    taken.push(pair.occurrence);
  }
  return { aligned, taken };
}

/** An INSERT's open columns take the values left over, in question order, each one a value of its kind. */
function fillOpenHeaders(
  headers: readonly string[],
  aligned: Map<string, AlignedValue>,
  leftovers: readonly Occurrence[],
): void {
  const leftover: Occurrence[] = [];
  const inOrder = [...leftovers].sort((a, b) => a.start - b.start || b.end - a.end);
  for (const occurrence of inOrder)
    if (!leftover.some((kept) => overlaps(kept, occurrence))) leftover.push(occurrence);
  let next = 0;
  for (const header of headers.filter((entry) => !aligned.has(entry))) {
    const kind = headerKind(header);
    const fits = (occurrence: Occurrence) => {
      const number = /^-?\d[\d,.]*%?$/.test(occurrence.text);
      return kind === 0 || (kind === 1) === number;
    };
    let index = next;
    while (index < leftover.length && !fits(leftover[index] as Occurrence)) index++;
    const occurrence = leftover[index];
    if (occurrence === undefined) continue;
    aligned.set(header, { ...occurrence, score: 0 });
    next = index + 1;
  }
}

/** `inserting the values '8', 'MF', 'Andrés Iniesta', ...`: one quoted value per column, in column order. */
function inColumnOrder(headers: readonly string[], quotedValues: readonly Occurrence[]): Alignment {
  const byHeader = new Map<string, AlignedValue>();
  headers.forEach((header, index) => {
    const occurrence = quotedValues[index] as Occurrence;
    byHeader.set(header, { ...occurrence, score: 1 });
  });
  return { byHeader, filter: null, unaligned: [] };
}

/**
 * Assigns the question's values to the headers it ties them to: a value right after or before a mention
 * of a header (`club 'FK Trakai'`, `'San Diego' for 'Location'`, `7 matches played`), strongest ties
 * first, each header and each stretch of the question used once. A mention inside a longer quoted value
 * or inside another header's mention counts less. With `fillInOrder` (an INSERT, which gives a value for
 * every column), the headers left over take the remaining names, dates, numbers and quoted values in
 * question order. Reads only the question, the table name and the headers.
 */
export function alignValues(
  structure: QuestionStructure,
  headers: readonly string[],
  values: readonly ValueCandidate[],
  fillInOrder: boolean,
): Alignment {
  const allMentions = [...structure.mentions.values()].flat();
  const quotedSpans = quotedSpansOf(structure, values);
  const inputs: AlignmentInputs = { structure, headers, allMentions, quotedSpans };
  const occurrences = valueOccurrences(inputs, values);
  const quotedValues = occurrences.filter((occurrence) => quotedSpans.includes(occurrence));
  if (fillInOrder && quotedValues.length === headers.length) return inColumnOrder(headers, quotedValues);
  // a quoted value, a whole name or date, or a number: the values that stand on their own
  const standsAlone = (occurrence: Occurrence) =>
    quotedSpans.includes(occurrence) || isNameOrNumber(structure, occurrence);
  const pairs = mentionPairs(inputs, occurrences, standsAlone);
  pairs.push(...respectivePairs(structure, headers, occurrences.filter(standsAlone)));
  const { aligned, taken } = assignPairs(pairs);
  const unalignedOf = () => {
    const used = [...aligned.values()];
    return occurrences
      .filter((occurrence) => !used.some((value) => overlaps(value, occurrence)) && standsAlone(occurrence))
      .map((occurrence) => occurrence.text);
  };
  if (!fillInOrder)
    return { byHeader: aligned, filter: filterOf(structure, aligned), unaligned: unalignedOf() };
  const leftovers = occurrences.filter(
    (occurrence) => !taken.some((span) => overlaps(span, occurrence)) && standsAlone(occurrence),
  );
  fillOpenHeaders(headers, aligned, leftovers);
  return { byHeader: aligned, filter: null, unaligned: unalignedOf() };
}

/**
 * `Change the year and notes ... to 2010 and 'romantic comedy' respectively`: the columns that receive
 * new values and the values after the `to` that follows them pair in order, ahead of every nearer tie.
 */
function respectivePairs(
  structure: QuestionStructure,
  headers: readonly string[],
  standing: readonly Occurrence[],
): { header: string; occurrence: Occurrence; score: number; distance: number }[] {
  const respectively = structure.tokens.findIndex((token) => token.text.toLowerCase() === "respectively");
  if (respectively < 0) return [];
  const changed = headers
    .filter((header) => columnRole(structure, header).set === 1)
    .map((header) => ({
      header,
      start: Math.min(...(structure.mentions.get(header) ?? []).map((mention) => mention.start)),
    }))
    .filter((entry) => Number.isFinite(entry.start) && entry.start < respectively)
    .sort((a, b) => a.start - b.start);
  const lastColumn = changed.at(-1);
  if (lastColumn === undefined || changed.length < 2) return [];
  const to = structure.tokens.findIndex(
    (token, index) => index > lastColumn.start && /^(to|as)$/i.test(token.text),
  );
  if (to < 0 || to > respectively) return [];
  const values: Occurrence[] = [];
  const inRange = standing
    .filter((occurrence) => occurrence.start > to && occurrence.end < respectively)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  for (const occurrence of inRange)
    if (!values.some((kept) => overlaps(kept, occurrence))) values.push(occurrence);
  if (values.length !== changed.length) return [];
  return changed.map((entry, index) => ({
    header: entry.header,
    occurrence: values[index] as Occurrence,
    score: 2,
    distance: 0,
  }));
}

const comparisonWords: [RegExp, "<" | ">" | "<=" | ">="][] = [
  [/^(less|fewer|smaller|lower|under|below|before|earlier)$/i, "<"],
  [/^(more|greater|larger|bigger|higher|over|above|after|later)$/i, ">"],
];

/**
 * The comparison the question puts right before a value (`a Goal smaller than 17` gives `<`, `at least
 * 3` gives `>=`), or null when the few words before it name none.
 */
export function comparisonBefore(
  structure: QuestionStructure,
  value: AlignedValue,
): "<" | ">" | "<=" | ">=" | null {
  for (let index = value.start - 1; index >= Math.max(0, value.start - 3); index--) {
    const text = structure.tokens[index]?.text ?? "";
    if (/^least$/i.test(text) && /^at$/i.test(structure.tokens[index - 1]?.text ?? "")) return ">=";
    if (/^most$/i.test(text) && /^at$/i.test(structure.tokens[index - 1]?.text ?? "")) return "<=";
    for (const [pattern, operator] of comparisonWords) if (pattern.test(text)) return operator;
    if (/^[,;.]$/.test(text)) break;
  }
  return null;
}
