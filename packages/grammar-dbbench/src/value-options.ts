import type { Decision, DecisionOption } from "@hs/spec";
import { featurePairs, isNumber, lazy, optionOver, roleFit, roleSignOf, words } from "./decision-options.js";
import { grammarTuning } from "./features.js";
import {
  contentWords,
  entityFit,
  headerKind,
  nearness,
  valueRole,
  valueShape,
} from "./question-structure.js";
import { quoteIdentifier, quoteString } from "./sql-text.js";
import { requestWords, summaryWords } from "./value-alignment.js";
import type { ValueCandidate } from "./value-candidates.js";
import type { ViewContext } from "./view-context.js";

/** Which values a slot takes: question spans, lists (for IN), or spans and seen cells. */
export type ValueMode = "scalar" | "list" | "with-cells";

/** What every option of one value decision shares: the slot's column, its cells, the values used. */
interface ValueSlot {
  name: string;
  context: ViewContext;
  column: string | null;
  usedUp: (value: ValueCandidate) => boolean;
  numericShare: number;
  shapes: Set<string>;
  otherHeaderWords: () => Set<string>;
  previousEnd: number | undefined;
  phraseStarts: number[];
  columnLower: Set<string>;
  anyLower: Set<string>;
  headerWordSet: () => Set<string>;
  headerPositions: () => number[];
  aligned: string | undefined;
  alignedElsewhere: Set<string>;
}

function usedUpOf(context: ViewContext, used: readonly string[]): (value: ValueCandidate) => boolean {
  const useCount = new Map<string, number>();
  for (const text of used.map((entry) => entry.toLowerCase()))
    useCount.set(text, (useCount.get(text) ?? 0) + 1);
  // a value the question ties to two columns (`'Champion' to '1 ( 2020 )' and 'Semifinalist' to
  // '1 ( 2020 )'`) may be used twice
  const alignedTexts = [...context.question.alignment.byHeader.values()].map((aligned) => aligned.text);
  return (value) =>
    (useCount.get(value.text.toLowerCase()) ?? 0) >=
    Math.max(1, alignedTexts.filter((text) => text === value.text).length);
}

function valueSlot(
  name: string,
  context: ViewContext,
  column: string | null,
  used: readonly string[],
  previous: string | null | undefined,
): ValueSlot {
  const { read, values, questionTokens, structure } = context;
  const columnCells = column === null ? undefined : read.cellsByColumn.get(column);
  const cellList = [...(columnCells ?? [])];
  const alignment = context.question.alignment.byHeader;
  return {
    name,
    context,
    column,
    usedUp: usedUpOf(context, used),
    numericShare: cellList.length < 3 ? -1 : cellList.filter(isNumber).length / cellList.length,
    shapes: new Set(cellList.map(valueShape)),
    otherHeaderWords: lazy(
      () =>
        new Set(read.headers.filter((header) => header !== column).flatMap((header) => contentWords(header))),
    ),
    previousEnd:
      previous === undefined
        ? undefined
        : previous === null
          ? -1
          : (structure.candidateEnd.get(previous) ?? -1),
    phraseStarts: values
      .filter((value) => value.start >= 0 && (structure.maximal.get(value.text) ?? 0) === 1)
      .map((value) => value.start),
    columnLower: new Set([...(columnCells ?? [])].map((cell) => cell.toLowerCase())),
    anyLower: new Set([...read.allCells].map((cell) => cell.toLowerCase())),
    headerWordSet: lazy(() => new Set(read.headers.flatMap(words))),
    headerPositions: lazy(() => {
      const columnWords = column === null ? [] : words(column);
      const positions: number[] = [];
      questionTokens.forEach((token, index) => {
        if (columnWords.includes(token)) positions.push(index);
      });
      return positions;
    }),
    aligned: column === null ? undefined : alignment.get(column)?.text,
    alignedElsewhere: new Set(
      [...alignment].filter(([header]) => header !== column).map(([, entry]) => entry.text),
    ),
  };
}

/** The candidate values of a slot: question spans or lists, and (with cells) seen cells of the column. */
function valuePool(context: ViewContext, column: string | null, mode: ValueMode): ValueCandidate[] {
  const { read, values } = context;
  let pool: ValueCandidate[];
  if (mode === "list") {
    pool = values.filter((value) => value.source === "list");
  } else {
    pool = values.filter((value) => value.source !== "list");
    if (mode === "with-cells") {
      const cells = (column === null ? undefined : read.cellsByColumn.get(column)) ?? read.allCells;
      let count = 0;
      const present = new Set(pool.map((value) => value.text));
      for (const cell of cells) {
        if (count >= grammarTuning.maxCells) break;
        if (present.has(cell) || cell.length === 0 || cell.length > grammarTuning.maxCellLength) continue;
        pool.push({ text: cell, length: 0, start: -1, source: "cell" });
        present.add(cell);
        count++;
      }
    }
  }
  return pool.length === 0 ? [{ text: "", length: 0, start: -1, source: "quoted" }] : pool;
}

/** Share of a value's words that are in `set` (0 for a value without words). */
function shareIn(valueWords: readonly string[], set: { has(word: string): boolean }): number {
  return valueWords.length === 0 ? 0 : valueWords.filter((word) => set.has(word)).length / valueWords.length;
}

/** Value features that ignore results (cached per question, column and value). */
function staticValueFeatures(slot: ValueSlot, value: ValueCandidate): number[] {
  const { context, column } = slot;
  const { structure } = context;
  const staticKey = `${column ?? "\u0001"}\u0000${value.source}\u0000${value.start}\u0000${value.length}\u0000${value.text}`;
  const cached = context.question.valueFeatures.get(staticKey);
  if (cached !== undefined) return cached;
  const valueWords = words(value.text);
  const positions = slot.headerPositions();
  const afterHeader =
    value.start >= 0 &&
    positions.some((position) => value.start - position >= 1 && value.start - position <= 4)
      ? 1
      : 0;
  const near = column === null ? { after: 0, before: 0 } : nearness(structure, column, value.text);
  const valueContent = contentWords(value.text);
  const entity = value.start < 0 ? { entity: 0, part: 0 } : entityFit(structure, value.text);
  const maxLength = grammarTuning.maxSpanTokens;
  const fixed = featurePairs({
    "value-length": Math.min(value.length, maxLength) / maxLength,
    "value-quoted": value.source === "quoted" ? 1 : 0,
    "value-number": isNumber(value.text) ? 1 : 0,
    "value-from-cell": value.source === "cell" ? 1 : 0,
    "value-after-header": afterHeader,
    "value-overlaps-header": shareIn(valueWords, slot.headerWordSet()),
    "value-case-variant": value.source === "case-variant" ? 1 : value.source === "number-form" ? 0.5 : 0,
    "value-position": value.start < 0 ? 0 : value.start / Math.max(1, context.questionTokens.length),
    "value-proper": value.text.split(/\s+/).every((word) => /^[\p{Lu}\p{N}]/u.test(word)) ? 1 : 0,
    "is-value": 1,
    "value-list": value.source === "list" ? 1 : 0,
    "value-maximal": structure.maximal.get(value.text) ?? 0,
    "value-bounded": structure.bounded.get(value.text) ?? 0,
    "value-near-column": near.after,
    "value-before-column": near.before,
    "value-overlaps-table": shareIn(valueContent, structure.tableWords),
    "value-request-words": shareIn(valueWords, {
      has: (word) => requestWords.has(word) || summaryWords.has(word),
    }),
    "value-entity": entity.entity,
    "value-entity-part": entity.part,
    "value-mentions-other-column": shareIn(valueContent, slot.otherHeaderWords()),
  });
  context.question.valueFeatures.set(staticKey, fixed);
  return fixed;
}

/** Whether a number or a text fits the column (its cells, else its header): 1, -1 or a half step. */
function valueTypeFit(slot: ValueSlot, numeric: boolean): number {
  const { numericShare } = slot;
  const columnKind = slot.column === null ? 0 : headerKind(slot.column);
  if (numericShare >= 0) {
    if (numericShare > grammarTuning.numericColumnShare) return numeric ? 1 : -1;
    if (numericShare < grammarTuning.textColumnShare) return numeric ? -1 : 1;
    return 0;
  }
  if (columnKind === 1) return numeric ? 1 : -grammarTuning.headerTypeMismatch;
  if (columnKind === -1) return numeric ? -1 : grammarTuning.headerTypeMismatch;
  return 0;
}

/** Whether the value follows the previous one in the question, and how directly. */
function valueOrder(slot: ValueSlot, value: ValueCandidate): { inOrder: number; nextInOrder: number } {
  const { previousEnd } = slot;
  if (previousEnd === undefined || value.start < 0) return { inOrder: 0, nextInOrder: 0 };
  if (value.start <= previousEnd) return { inOrder: 0, nextInOrder: 0 };
  const between = slot.phraseStarts.filter((start) => start > previousEnd && start < value.start).length;
  return { inOrder: 1, nextInOrder: 1 / (1 + between) };
}

/** Whether an earlier failed statement used the value (anywhere, and as a condition on this column). */
function valueFailures(slot: ValueSlot, value: ValueCandidate): { failed: number; conditionFailed: number } {
  const { failedSql } = slot.context;
  const quoted = quoteString(value.text).toLowerCase();
  const quotedLike = quoteString(`%${value.text}%`).toLowerCase();
  const failed =
    value.text.length > 0 &&
    failedSql.length > 0 &&
    failedSql.some((sql) => sql.includes(quoted) || sql.includes(quotedLike))
      ? 1
      : 0;
  const target = slot.column === null ? "" : quoteIdentifier(slot.column).toLowerCase();
  const conditionFailed =
    failed === 1 &&
    slot.column !== null &&
    failedSql.some(
      (sql) => sql.includes(`${target} = ${quoted}`) || sql.includes(`${target} like ${quotedLike}`),
    )
      ? 1
      : 0;
  return { failed, conditionFailed };
}

function cellInQuestion(context: ViewContext, cell: string): number {
  const cellWords = contentWords(cell);
  if (cellWords.length === 0) return 0;
  return cellWords.filter((word) => context.question.contentWords.has(word)).length / cellWords.length;
}

function valueOption(slot: ValueSlot, value: ValueCandidate): DecisionOption {
  const { context } = slot;
  const { structure } = context;
  const lower = value.text.toLowerCase();
  const fixed = staticValueFeatures(slot, value);
  const order = valueOrder(slot, value);
  const { failed, conditionFailed } = valueFailures(slot, value);
  const role = roleFit(roleSignOf(slot.name), () => valueRole(structure, value.text));
  let wholeName = 0;
  if (context.guidance.wholeNames && value.start >= 0) {
    const fit = entityFit(structure, value.text);
    wholeName = fit.entity - fit.part;
  }
  const features = context.contextVector.slice();
  for (let index = 0; index < fixed.length; index += 2)
    features[fixed[index] as number] = fixed[index + 1] as number;
  return optionOver(`value:${value.text}`, features, {
    "value-in-column-cells": slot.columnLower.has(lower) ? 1 : 0,
    "value-in-any-cells": slot.anyLower.has(lower) ? 1 : 0,
    "value-used": slot.usedUp(value) ? 1 : 0,
    "value-in-order": order.inOrder,
    "value-next-in-order": order.nextInOrder,
    "value-type-fit": valueTypeFit(slot, isNumber(value.text)),
    "value-shape-seen": slot.shapes.size > 0 && slot.shapes.has(valueShape(value.text)) ? 1 : 0,
    // a value that failed on another column but is seen in this one's cells has found its column
    "value-failed": failed === 1 && conditionFailed === 0 && slot.columnLower.has(lower) ? 0 : failed,
    "condition-failed": conditionFailed,
    "value-role-fit": role,
    "value-aligned": slot.aligned === value.text ? 1 : 0,
    "cell-in-question": value.source === "cell" ? cellInQuestion(context, value.text) : 0,
    "value-aligned-other": slot.aligned !== value.text && slot.alignedElsewhere.has(value.text) ? 1 : 0,
    "guide-roles": context.guidance.roles ? role : 0,
    "guide-whole-names": wholeName,
  });
}

/**
 * A decision over the values a slot may take (`previous`: the value before it, for INSERT's order of
 * values; undefined where order does not apply).
 */
export function valueOptions(
  name: string,
  context: ViewContext,
  column: string | null,
  used: readonly string[],
  mode: ValueMode,
  previous?: string | null,
): Decision {
  const slot = valueSlot(name, context, column, used, previous);
  return { name, options: valuePool(context, column, mode).map((value) => valueOption(slot, value)) };
}
