import type { ObservedAction, ReadView } from "./read-view.js";

/** Advice the rendered view gives (hints, tool-error suffixes, a verification check), as a reader would take it. */
export interface ViewGuidance {
  /** Look at the distinct values of a condition column before filtering on it. */
  previewBeforeFilter: boolean;
  /** After a query returns [], look at the rows (the value may be written differently). */
  lookAfterEmpty: boolean;
  /**
   * After a query returns [], preview the whole table (the value may be in another column); false once a
   * result has shown every column.
   */
  previewAfterEmpty: boolean;
  /** Run a query before giving the final answer. */
  queryBeforeAnswer: boolean;
  /** Count with COUNT(*). */
  countStar: boolean;
  /** After an INSERT or UPDATE, answer with an empty list. */
  modifyThenEmpty: boolean;
  /** Answer exactly as the query returned it. */
  answerAsReturned: boolean;
  /** New values follow `to`; the rows to change or read are the ones named after `for`, `of` or `where`. */
  roles: boolean;
  /** Use a name or date whole, as the question writes it, not a part of it. */
  wholeNames: boolean;
  /** The last reply (an error, or an empty result with a note) says to correct the query rather than answer. */
  fixError: boolean;
  /** The last answer was held for a check (null when it was not). */
  check: HeldAnswer | null;
}

/** An answer the harness held back with a check text. */
export interface HeldAnswer {
  /** The submitted answer list. */
  answer: string[];
  /** Whether the answer equals a reading (all cells, first cell, first column) of the last query's rows. */
  matchesLastResult: boolean;
  /** Whether the check asks to compare with the last query result (otherwise with the question). */
  againstLastResult: boolean;
  /** Whether the check asks to read back the rows a change reached before committing. */
  asksChangeCheck: boolean;
}

const sameList = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((item, index) => item === right[index]);

function heldAnswer(read: ReadView): HeldAnswer | null {
  const last = read.actions.at(-1);
  if (last?.answer === null || last?.answer === undefined || last.result === null) return null;
  const text = last.result.toLowerCase();
  if (!/confirm|check|are you sure|verify|match/.test(text)) return null;
  const lastQuery = [...read.actions]
    .reverse()
    .find((action: ObservedAction) => action.kind === "select" && action.rows !== null);
  const rows = lastQuery?.rows ?? [];
  const readings = [
    rows.flat(),
    rows.length === 0 ? [] : [rows[0]?.[0] ?? ""],
    rows.map((row) => row[0] ?? ""),
  ];
  return {
    answer: last.answer,
    matchesLastResult:
      lastQuery !== undefined && readings.some((reading) => sameList(reading, last.answer ?? [])),
    againstLastResult: /last (query )?result|query result|returned/.test(text),
    asksChangeCheck: /\b(your|the) (change|update)\b[^.\n]{0,80}\brows?\b|\bselect the rows\b/.test(text),
  };
}

/**
 * Reads the advice in the view: the system text and hints (`read.guidance`), the text of the last
 * reply (a tool-error suffix, a note after an empty result) and a check shown instead of a submit. Every field is false or null
 * when the view carries no such advice (the base presets carry none).
 */
export function viewGuidance(read: ReadView): ViewGuidance {
  const text = read.guidance;
  const last = read.actions.at(-1);
  const lastReply = last?.result?.toLowerCase() ?? "";
  return {
    previewBeforeFilter:
      /(preview|look at|inspect|list|check)[^.\n]{0,40}distinct values[^.\n]{0,60}before/.test(text) ||
      /distinct values[^.\n]{0,60}before (filtering|querying|using|a where)/.test(text),
    lookAfterEmpty:
      /(returns?|returned|gives?) (\[\]|nothing|no rows|an empty (list|result))/.test(text) ||
      (last?.rows?.length === 0 &&
        /written differently|how the value is written|look at the (distinct )?values/.test(lastReply)),
    previewAfterEmpty:
      last?.rows?.length === 0 &&
      /(whole|entire) table|all (the |its )?columns|(another|other|a different) column/.test(lastReply) &&
      !read.headers.every((header) => read.cellsByColumn.has(header)),
    queryBeforeAnswer:
      /\b(run|execute) (a |an )?(select|query)\b[^.\n]{0,40}\bbefore\b[^.\n]{0,30}\banswer/.test(text),
    countStar: /count\(\*\)/.test(text),
    modifyThenEmpty: /(insert|update)[^.\n]{0,60}answer with an empty list/.test(text),
    answerAsReturned: /answer[^.\n]{0,30}exactly as the query returned/.test(text),
    roles: /after ['"‘]?to['"’]?[^.\n]{0,40}new value/.test(text),
    wholeNames: /(name|date|phrase)[^.\n]{0,20} whole\b|not a part of it/.test(text),
    fixError:
      (last?.isError === true || last?.rows?.length === 0) &&
      /do not answer|run (a )?corrected query|run (it|the query) again|correct it/.test(lastReply),
    check: heldAnswer(read),
  };
}
