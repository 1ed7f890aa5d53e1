import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { columnOptions } from "./column-options.js";
import { ask, categorical, guide } from "./decision-options.js";
import { grammarTuning } from "./features.js";
import { sqlAction } from "./grammar-actions.js";
import { headerKind } from "./question-structure.js";
import { numericLiteral, quoteIdentifier, quoteString } from "./sql-text.js";
import { comparisonBefore } from "./value-alignment.js";
import { valueOptions } from "./value-options.js";
import { cue, type ViewContext } from "./view-context.js";

const aggregates = ["none", "COUNT", "SUM", "AVG", "MIN", "MAX"] as const;
const operators = ["=", "<", ">", "<=", ">=", "LIKE", "IN"] as const;
const orders = ["none", "asc", "desc", "asc-number", "desc-number"] as const;

/** Whether the question names the column right after `how many` (`how many floors`). */
function howManyNames(context: ViewContext, column: string): boolean {
  const { tokens, mentions } = context.structure;
  return (mentions.get(column) ?? []).some(
    (mention) =>
      /^many$/i.test(tokens[mention.start - 1]?.text ?? "") &&
      /^how$/i.test(tokens[mention.start - 2]?.text ?? ""),
  );
}

function aggregateDecision(context: ViewContext, select: string): GrammarStep {
  const instruction = context.read.instruction;
  const allowed = select === "*" ? aggregates.slice(0, 2) : aggregates;
  // `how many floors does X have` asks for the Floors value, not for a count of rows
  const howManyOfValue =
    /\bhow many\b/i.test(instruction) && headerKind(select) === 1 && howManyNames(context, select);
  // `the highest number of titles` asks for a value of the titles column, not for a count
  const extremeOfValue =
    !/\bhow many\b|\bcount\b/i.test(instruction) && /\b(\w+est|average|mean) number of\b/i.test(instruction);
  const counting = howManyOfValue || extremeOfValue ? 0 : cue(context, "cue-count");
  const anyAggregate = Math.max(counting, cue(context, "cue-average"), cue(context, "cue-sum"));
  const nameColumn = headerKind(select) === -1;
  const fits: Record<string, number> = {
    none: 1 - anyAggregate,
    COUNT: counting,
    // a sum or an average of a name column is not what anyone asks for
    AVG: nameColumn ? 0 : cue(context, "cue-average"),
    SUM: nameColumn ? 0 : cue(context, "cue-sum") * (1 - counting),
    MAX: cue(context, "cue-max") * grammarTuning.extremeAggregateFit,
    MIN: cue(context, "cue-min") * grammarTuning.extremeAggregateFit,
  };
  return ask(categorical("aggregate", allowed, context, "aggregate", (item) => fits[item] ?? 0));
}

function moreConditionDecision(
  context: ViewContext,
  index: number,
  usedColumns: readonly string[],
): GrammarStep {
  // a superlative question that names no value (`which player has the most titles?`) needs no filter
  const { byHeader, unaligned } = context.question.alignment;
  const extremeOnly =
    Math.max(cue(context, "cue-max"), cue(context, "cue-min")) === 1 &&
    byHeader.size === 0 &&
    unaligned.length === 0;
  const addFit =
    index === 0 ? (extremeOnly ? grammarTuning.extremeOnlyConditionFit : 1) : grammarTuning.moreConditionFit;
  const remaining = [...byHeader.keys()].some((header) => !usedColumns.includes(header));
  const decision = categorical(
    `condition-${index === 0 ? "first" : "more"}`,
    ["stop", "add"],
    context,
    "condition",
    (item) => (item === "add" ? addFit : 1 - addFit),
  );
  return ask(
    guide(decision, (label) => ({ "conditions-remaining": remaining && label === "condition:add" ? 1 : 0 })),
  );
}

function operatorDecision(context: ViewContext, column: string): GrammarStep {
  const hasLists = context.values.some((value) => value.source === "list");
  const operatorList = hasLists ? operators : operators.slice(0, -1);
  const text = context.read.instruction;
  const aligned = context.question.alignment.byHeader.get(column);
  const stated = aligned === undefined ? undefined : comparisonBefore(context.structure, aligned);
  const wordFit = grammarTuning.comparisonWordFit;
  const fits: Record<string, number> = {
    "=": 1,
    LIKE: grammarTuning.likeOperatorFit,
    IN: grammarTuning.inOperatorFit,
    ">": /more than|greater|over|above|after|larger|higher than|at least/i.test(text) ? wordFit : 0,
    "<": /less than|fewer|under|below|before|smaller|lower than|at most/i.test(text) ? wordFit : 0,
  };
  // the value the question ties to this column says which comparison it wants
  if (stated !== undefined) {
    for (const key of ["<", ">", "<=", ">="]) fits[key] = 0;
    if (stated !== null) fits[stated] = grammarTuning.statedComparisonFit;
  }
  return ask(categorical("condition-operator", operatorList, context, "operator", (item) => fits[item] ?? 0));
}

/** One WHERE condition in SQL. */
function conditionSql(column: string, operator: string, value: string): string {
  const target = quoteIdentifier(column);
  if (operator === "IN") return `${target} IN (${value.split(" | ").map(quoteString).join(", ")})`;
  if (operator === "LIKE") return `${target} LIKE ${quoteString(`%${value}%`)}`;
  if (operator === "=") return `${target} = ${quoteString(value)}`;
  return `${target} ${operator} ${numericLiteral(value) ?? quoteString(value)}`;
}

/** The chosen WHERE conditions and the columns the query uses (select and condition columns). */
interface Conditions {
  conditions: string[];
  usedColumns: string[];
}

/** Up to `maxConditions` conditions (stop, or column, operator and value each), or the decision to ask. */
function conditionClauses(
  walk: DecisionWalk,
  context: ViewContext,
  select: string,
): Conditions | GrammarStep {
  const conditions: string[] = [];
  const usedColumns = select === "*" ? [] : [select];
  const usedValues: string[] = [];
  for (let index = 0; index < grammarTuning.maxConditions; index++) {
    const more = walk.take();
    if (more === null) return moreConditionDecision(context, index, usedColumns);
    if (labelValue(more) === "stop") break;
    const columnLabel = walk.take();
    if (columnLabel === null) {
      // a second condition on the same column mostly repeats or contradicts the first
      const conditioned = usedColumns.slice(select === "*" ? 0 : 1);
      return ask(
        guide(columnOptions("condition-column", context, usedColumns), (label) => ({
          "column-conditioned": conditioned.includes(labelValue(label)) ? 1 : 0,
        })),
      );
    }
    const column = labelValue(columnLabel);
    const operatorLabel = walk.take();
    if (operatorLabel === null) return operatorDecision(context, column);
    const operator = labelValue(operatorLabel);
    const valueLabel = walk.take();
    if (valueLabel === null)
      return ask(
        valueOptions(
          "condition-value",
          context,
          column,
          usedValues,
          operator === "IN" ? "list" : "with-cells",
        ),
      );
    const value = labelValue(valueLabel);
    usedColumns.push(column);
    usedValues.push(value);
    conditions.push(conditionSql(column, operator, value));
  }
  return { conditions, usedColumns };
}

/** The ORDER BY ... LIMIT 1 clause ("" for none), or the decision to ask. */
function orderClause(
  walk: DecisionWalk,
  context: ViewContext,
  usedColumns: readonly string[],
): string | GrammarStep {
  const orderLabel = walk.take();
  if (orderLabel === null) {
    const extreme = Math.max(cue(context, "cue-max"), cue(context, "cue-min"));
    const fits: Record<string, number> = {
      none: 1 - extreme,
      desc: cue(context, "cue-max") * grammarTuning.textOrderFit,
      asc: cue(context, "cue-min") * grammarTuning.textOrderFit,
      "desc-number": cue(context, "cue-max") * grammarTuning.numberOrderFit,
      "asc-number": cue(context, "cue-min") * grammarTuning.numberOrderFit,
    };
    return ask(categorical("order", orders, context, "order", (item) => fits[item] ?? 0));
  }
  const order = labelValue(orderLabel);
  if (order === "none") return "";
  const orderColumnLabel = walk.take();
  if (orderColumnLabel === null) return ask(columnOptions("order-column", context, usedColumns));
  const orderColumn = quoteIdentifier(labelValue(orderColumnLabel));
  const key = order.endsWith("number") ? `${orderColumn} + 0` : orderColumn;
  return ` ORDER BY ${key} ${order.startsWith("asc") ? "ASC" : "DESC"} LIMIT 1`;
}

/** A SELECT: select column (or `*`), aggregate, conditions, order. */
export function queryStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const selectLabel = walk.take();
  if (selectLabel === null) {
    const countStar = context.guidance.countStar ? cue(context, "cue-count") : 0;
    return ask(
      guide(columnOptions("select-column", context, [], ["*"]), (label) => ({
        "guide-count-star": label === "column:*" ? countStar : 0,
      })),
    );
  }
  const select = labelValue(selectLabel);
  const aggregateLabel = walk.take();
  if (aggregateLabel === null) return aggregateDecision(context, select);
  const aggregate = labelValue(aggregateLabel);
  const chosen = conditionClauses(walk, context, select);
  if ("done" in chosen) return chosen;
  const { conditions, usedColumns } = chosen;
  const order = orderClause(walk, context, usedColumns);
  if (typeof order !== "string") return order;
  const target = select === "*" ? "*" : quoteIdentifier(select);
  const projection = aggregate === "none" ? target : `${aggregate}(${target})`;
  const where = conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
  return sqlAction(
    context.read,
    `SELECT ${projection} FROM ${quoteIdentifier(context.read.table)}${where}${order};`,
  );
}
