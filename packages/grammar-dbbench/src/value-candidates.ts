/** A value the grammar may put in SQL, with where it came from. */
export interface ValueCandidate {
  /** The value text. */
  text: string;
  /** Tokens of the question it spans (0 for cells and derived forms without a span). */
  length: number;
  /** Token index where the span starts in the question (-1 for cells). */
  start: number;
  /** How it was formed. */
  source: "span" | "quoted" | "number-form" | "ordinal" | "case-variant" | "cell" | "list";
  /** Every place the text occurs in the question (token start and length), first one first. */
  occurrences?: { start: number; length: number }[];
  /** For `list` candidates (the IN operator): the items. */
  items?: string[];
}

const stopWords = new Set(
  "a an the of in on at to for from by with and or is are was were be been what which who whom whose when where how many much did does do has have had that this these those it its as than then there their his her they he she we you i me my our your if not no yes under over into out about after before between during per all any each".split(
    " ",
  ),
);

/** Whether a word is a stop word (for span edges). */
export function isStopWord(word: string): boolean {
  return stopWords.has(word.toLowerCase());
}

/** Tokens of a question: words (with inner apostrophes, hyphens, dots), numbers with commas, symbols. */
export function tokenize(text: string): { text: string; start: number; end: number }[] {
  const tokens: { text: string; start: number; end: number }[] = [];
  const pattern =
    /\d+(?:[,.:]\d+)*(?:[-–/x×]\d+(?:[,.:]\d+)*)*%?|[\p{L}\p{N}]+(?:['’.\-–/&][\p{L}\p{N}]+)*\.?|[^\s\p{L}\p{N}]/gu;
  for (const match of text.matchAll(pattern)) {
    let token = match[0];
    // a trailing dot belongs to the word only for abbreviations such as "Jr." or "No."
    if (
      token.length > 1 &&
      token.endsWith(".") &&
      !/^(?:[A-Z][a-z]?|jr|sr|st|no|vs|mr|mrs|dr)\.$/i.test(token)
    ) {
      token = token.slice(0, -1);
      tokens.push({ text: token, start: match.index, end: match.index + token.length });
      tokens.push({ text: ".", start: match.index + token.length, end: match.index + token.length + 1 });
      continue;
    }
    tokens.push({ text: token, start: match.index, end: match.index + token.length });
  }
  return tokens;
}

const ordinalWords: Record<string, string> = {
  first: "1",
  second: "2",
  third: "3",
  fourth: "4",
  fifth: "5",
  sixth: "6",
  seventh: "7",
  eighth: "8",
  ninth: "9",
  tenth: "10",
};

/** Number forms of a token: with and without thousands commas, ordinals as numbers. */
export function numberForms(text: string): string[] {
  const forms: string[] = [];
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) forms.push(text.replaceAll(",", ""));
  if (/^\d{4,}(\.\d+)?$/.test(text) && !/^(1[0-9]|20)\d\d$/.test(text)) {
    const [whole = "", fraction] = text.split(".");
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    forms.push(fraction === undefined ? grouped : `${grouped}.${fraction}`);
  }
  const ordinal = /^(\d+)(st|nd|rd|th)$/i.exec(text);
  if (ordinal?.[1] !== undefined) forms.push(ordinal[1]);
  const word = ordinalWords[text.toLowerCase()];
  if (word !== undefined) forms.push(word);
  if (/^\d+(\.\d+)?%$/.test(text)) forms.push(text.slice(0, -1));
  return forms;
}

function titleCase(text: string): string {
  return text.replace(
    /\p{L}[\p{L}'’]*/gu,
    (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
  );
}

/**
 * Values drawn from the question: spans of up to `maxSpan` tokens that neither start nor end with a
 * stop word or a symbol, quoted strings, number forms, ordinals, case variants, and lists of items
 * (for IN) split at commas, `and`, `or`. Deduplicated by text, in a stable order.
 */
export function questionValues(question: string, maxSpan = 12): ValueCandidate[] {
  const tokens = tokenize(question);
  const seen = new Map<string, ValueCandidate>();
  const add = (candidate: ValueCandidate) => {
    if (candidate.text.length === 0) return;
    const known = seen.get(candidate.text);
    if (known !== undefined) {
      if (candidate.start >= 0 && candidate.source !== "list") {
        known.occurrences ??= [];
        if (!known.occurrences.some((entry) => entry.start === candidate.start))
          known.occurrences.push({ start: candidate.start, length: candidate.length });
      }
      return;
    }
    seen.set(
      candidate.text,
      candidate.start >= 0 && candidate.source !== "list"
        ? { ...candidate, occurrences: [{ start: candidate.start, length: candidate.length }] }
        : candidate,
    );
  };
  // double quotes may hold apostrophes (`"don't cry for me argentina"`); single quotes may not
  for (const quoted of question.matchAll(
    /(?<=^|[\s([,:=])(?:["“]([^"”\n]{1,80}?)["”]|['‘]([^'’"”\n]{1,80}?)['’])(?=$|[\s),.;:!?\]])/g,
  )) {
    const inner = quoted[1] ?? quoted[2] ?? "";
    if (inner.trim() === inner && inner.length > 0 && !/^[,;:]|[,;:]$/.test(inner)) {
      const innerStart = (quoted.index ?? 0) + 1;
      const innerEnd = innerStart + inner.length;
      const first = tokens.findIndex((token) => token.start >= innerStart);
      const inside = tokens.filter((token) => token.start >= innerStart && token.end <= innerEnd).length;
      add({ text: inner, length: Math.max(1, inside), start: first, source: "quoted" });
    }
  }
  const isWordToken = (text: string) => /[\p{L}\p{N}]/u.test(text);
  for (let start = 0; start < tokens.length; start++) {
    const first = tokens[start];
    if (first === undefined || !isWordToken(first.text)) continue;
    for (let length = 1; length <= maxSpan && start + length <= tokens.length; length++) {
      const last = tokens[start + length - 1];
      if (last === undefined) break;
      // a phrase does not cross quotes, brackets or sentence punctuation
      if (/^["“”'‘’()[\]{};:.?!_]$/.test(last.text)) break;
      if (!isWordToken(last.text)) continue;
      if (length > 1 && (isStopWord(first.text) || isStopWord(last.text))) continue;
      if (length === 1 && isStopWord(first.text) && !/^\d/.test(first.text)) continue;
      const text = question.slice(first.start, last.end);
      add({ text, length, start, source: "span" });
      if (length === 1) {
        for (const form of numberForms(text)) add({ text: form, length, start, source: "number-form" });
      }
      if (length <= 2) {
        for (const variant of [text.toLowerCase(), titleCase(text), text.toUpperCase()]) {
          if (variant !== text) add({ text: variant, length, start, source: "case-variant" });
        }
      }
    }
  }
  for (const candidate of [...seen.values()]) {
    if (candidate.source !== "span" || candidate.length < 3) continue;
    const items = candidate.text
      .split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+/)
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    if (items.length >= 2 && items.length <= 6 && items.every((item) => !isStopWord(item))) {
      add({
        text: items.join(" | "),
        length: candidate.length,
        start: candidate.start,
        source: "list",
        items,
      });
    }
  }
  return [...seen.values()];
}
