import { type DecisionWalk, type GrammarStep, labelValue } from "@hs/harness";
import { columnOptions, staticColumnFeatures } from "./column-options.js";
import { ask, guide, optionOver, withoutOptions } from "./decision-options.js";
import { sqlAction } from "./grammar-actions.js";
import type { ReadView } from "./read-view.js";
import { exploreSql, quoteIdentifier } from "./sql-text.js";
import type { ViewContext } from "./view-context.js";

/**
 * The explore targets (`*` or a header) whose reply is still in the view: a repeat would show the same
 * rows again, so the grammar does not offer it.
 */
export function shownExplores(read: ReadView): Set<string> {
  const sent = new Set(read.actions.filter((action) => action.result !== null).map((action) => action.sql));
  return new Set(["*", ...read.headers].filter((target) => sent.has(exploreSql(read.table, target))));
}

/** Headers in the WHERE of the last query when it returned nothing, whose values no result has shown. */
export function unexploredFailedColumns(read: ReadView): string[] {
  const last = read.actions.at(-1);
  if (last?.sql === null || last?.sql === undefined || last.rows?.length !== 0) return [];
  const sql = last.sql.toLowerCase();
  const where = sql.indexOf(" where ");
  if (where < 0) return [];
  const clause = sql.slice(where);
  return read.headers.filter(
    (header) => clause.includes(quoteIdentifier(header).toLowerCase()) && !read.cellsByColumn.has(header),
  );
}

/** The explore-target decision: `*` or a header not yet shown, guided by the view's advice. */
function exploreTarget(context: ViewContext): GrammarStep {
  const { read } = context;
  const shown = shownExplores(read);
  const decision = withoutOptions(
    columnOptions("explore-target", context, [], ["*"]),
    (label) => !shown.has(labelValue(label)),
  );
  const advice = context.guidance;
  const unexplored = unexploredFailedColumns(read);
  const failed = advice.lookAfterEmpty ? unexplored : [];
  return ask(
    guide(decision, (label) => {
      const column = labelValue(label);
      const index = read.headers.indexOf(column);
      const condition =
        advice.previewBeforeFilter && index >= 0 && !read.cellsByColumn.has(column)
          ? staticColumnFeatures(context, column, index).nearValue
          : 0;
      // a note that asks for the whole table asks for it instead of any one column
      const wholeTable = label === "column:*" ? 1 : -1;
      return {
        "guide-explore": advice.previewAfterEmpty
          ? wholeTable
          : Math.max(condition, failed.includes(column) ? 1 : 0),
        "explore-unaligned": label === "column:*" && context.question.alignment.unaligned.length > 0 ? 1 : 0,
        "explore-failed-column": unexplored.includes(column) ? 1 : 0,
      };
    }),
  );
}

/** An explore: a preview of the table, the distinct values of a column, or the read-back of the last change. */
export function exploreStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const target = walk.take();
  const readBackSql = context.readBackSql;
  if (target === null) {
    // the check asked for reads back the last change
    if (readBackSql !== null)
      return ask({
        name: "explore-target",
        options: [optionOver("change:last", context.contextVector.slice(), { "guide-explore": 1 })],
      });
    return exploreTarget(context);
  }
  if (target === "change:last" && readBackSql !== null) return sqlAction(read, readBackSql);
  return sqlAction(read, exploreSql(read.table, labelValue(target)));
}
