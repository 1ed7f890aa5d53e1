/** One value the instruction states, with where it came from. */
export interface InstructionValue {
  /** The value (text or number). */
  value: string | number;
  /** How it was found: a quoted span, an email, a path, a date, a time, a month, a number, a name or a name part. */
  source: "quoted" | "email" | "path" | "date" | "time" | "month" | "number" | "name" | "name-part";
}

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

const sentenceWords = new Set([
  "How",
  "What",
  "When",
  "Who",
  "Which",
  "Where",
  "Add",
  "Delete",
  "Mark",
  "Send",
]);

function matchesOf(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[0]);
}

function names(text: string): string[] {
  const plain = text
    .replace(/"[^"]*"/g, " ")
    .replace(/\b[A-Z][a-z]+\b/g, (word) => (sentenceWords.has(word) ? "." : word));
  return matchesOf(plain, /\b([A-Z][a-z]+ [A-Z][a-z]+)\b/g);
}

/**
 * The values an instruction states: quoted spans, emails, paths, dates (YYYY-MM-DD), times (HH:MM),
 * months with a year (as `YYYY-MM`), amounts and other numbers, and two-word capitalised names with
 * their parts. Deduplicated, in that order.
 */
export function instructionValues(instruction: string): InstructionValue[] {
  const values: InstructionValue[] = [];
  const seen = new Set<string>();
  const add = (value: string | number, source: InstructionValue["source"]): void => {
    const key = `${typeof value}:${value}`;
    if (seen.has(key) || value === "") return;
    seen.add(key);
    values.push({ value, source });
  };
  for (const span of matchesOf(instruction, /["“]([^"”]+)["”]/g)) {
    add(span, "quoted");
    if (span.endsWith(".")) add(span.slice(0, -1), "quoted");
  }
  for (const email of matchesOf(instruction, /\b([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\b/g)) add(email, "email");
  for (const path of matchesOf(instruction, /(?:^|\s)(\/[\w./-]*\w)/g)) add(path, "path");
  for (const date of matchesOf(instruction, /\b(\d{4}-\d{2}-\d{2})\b/g)) add(date, "date");
  for (const time of matchesOf(instruction, /\b(\d{1,2}:\d{2})\b/g)) add(time, "time");
  for (const match of instruction.matchAll(/\b([A-Z][a-z]+) (\d{4})\b/g)) {
    const month = months.indexOf((match[1] as string).toLowerCase());
    if (month >= 0) add(`${match[2]}-${String(month + 1).padStart(2, "0")}`, "month");
  }
  const unquoted = instruction
    .replace(/["“][^"”]*["”]/g, " ")
    .replace(/\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}/g, " ");
  for (const number of matchesOf(unquoted, /(?:^|[\s$(])(\d+(?:\.\d+)?)\b/g)) add(Number(number), "number");
  for (const name of names(instruction)) {
    add(name, "name");
    for (const part of name.split(" ")) add(part, "name-part");
  }
  return values;
}

/** Lower-cased words of a text (letters only). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z]+/g) ?? [];
}

/** Whether a shown value matches what the instruction says (equal, a name's email, or a word stem). */
export function valueMatchesInstruction(
  value: string,
  instruction: string,
  values: readonly InstructionValue[],
): boolean {
  const lower = value.toLowerCase();
  if (lower.length < 2 || lower.length > 60) return false;
  if (values.some((entry) => String(entry.value).toLowerCase() === lower)) return true;
  const local = /^([a-z]+)\.([a-z]+)@/.exec(lower);
  if (local !== null)
    return values.some(
      (entry) => entry.source === "name" && String(entry.value).toLowerCase() === `${local[1]} ${local[2]}`,
    );
  if (/^[a-z]+$/.test(lower)) return new RegExp(`\\b${lower}`).test(instruction.toLowerCase());
  return false;
}
