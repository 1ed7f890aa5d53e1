import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { columnOptions } from "./column-options.js";
import { ask, option } from "./decision-options.js";
import { grammarTuning } from "./features.js";
import { sqlAction } from "./grammar-actions.js";
import { setCueCount } from "./question-structure.js";
import { quoteIdentifier, quoteString } from "./sql-text.js";
import { valueOptions } from "./value-options.js";
import type { ViewContext } from "./view-context.js";

/** The next SET column (or `(where)` once at least one is set). */
function setColumnDecision(context: ViewContext, setColumns: readonly string[]): GrammarStep {
  const remaining = context.read.headers.filter((header) => !setColumns.includes(header));
  const decision = columnOptions("set-column", context, setColumns);
  const options = decision.options.filter((entry) => remaining.includes(labelValue(entry.label)));
  if (setColumns.length > 0) {
    const expected = Math.max(
      1,
      setCueCount(context.structure),
      context.question.alignment.byHeader.size - 1,
    );
    const complete = setColumns.length >= expected ? 1 : 0;
    options.push(
      option("column:(where)", { "category-0": 1, "option-fit": 1, "set-complete": complete }, context),
    );
  }
  return ask({ name: setColumns.length === 0 ? "set-column-first" : "set-column", options });
}

/** The chosen SET part of an UPDATE. */
interface SetClause {
  assignments: string[];
  setColumns: string[];
  /** The SET values, in order (a WHERE value equal to one is marked used). */
  usedValues: string[];
}

/** The SET part: the assignments, or the decision to ask next. */
function setClause(walk: DecisionWalk, context: ViewContext): SetClause | GrammarStep {
  const assignments: string[] = [];
  const setColumns: string[] = [];
  const usedValues: string[] = [];
  for (;;) {
    const columnLabel = walk.take();
    if (columnLabel === null) return setColumnDecision(context, setColumns);
    const column = labelValue(columnLabel);
    if (column === "(where)") break;
    const valueLabel = walk.take();
    if (valueLabel === null) return ask(valueOptions("set-value", context, column, usedValues, "scalar"));
    const value = labelValue(valueLabel);
    setColumns.push(column);
    usedValues.push(value);
    assignments.push(`${quoteIdentifier(column)} = ${quoteString(value)}`);
    if (setColumns.length >= grammarTuning.maxSetColumns || setColumns.length >= context.read.headers.length)
      break;
  }
  return { assignments, setColumns, usedValues };
}

/** An UPDATE: SET columns and values, then the WHERE column and value. */
export function updateStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const set = setClause(walk, context);
  if ("done" in set) return set;
  const { assignments, setColumns, usedValues } = set;
  const whereLabel = walk.take();
  if (whereLabel === null) {
    // a filter on a column the statement sets is rare; the WHERE column is one it does not set
    const decision = columnOptions("where-column", context, setColumns);
    const unset = decision.options.filter((entry) => !setColumns.includes(labelValue(entry.label)));
    return ask(unset.length === 0 ? decision : { name: decision.name, options: unset });
  }
  const whereColumn = labelValue(whereLabel);
  const whereValueLabel = walk.take();
  if (whereValueLabel === null)
    return ask(valueOptions("where-value", context, whereColumn, usedValues, "with-cells"));
  const whereValue = labelValue(whereValueLabel);
  return sqlAction(
    read,
    `UPDATE ${quoteIdentifier(read.table)} SET ${assignments.join(", ")} WHERE ${quoteIdentifier(whereColumn)} = ${quoteString(whereValue)};`,
  );
}
