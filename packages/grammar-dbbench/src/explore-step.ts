import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
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
  // the `[]` after an INSERT or UPDATE is AgentBench's reply to any change, not an empty result
  if (last?.kind !== "select" || last.sql === null || last.rows?.length !== 0) return [];
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

/**
 * Before any statement has filtered (a WHERE), the headers the question ties a filter value to (every
 * tied header of a question, the filter of an UPDATE, none of an INSERT) whose values no result has shown.
 */
export function unseenFilterColumns(context: ViewContext): string[] {
  const { read } = context;
  if (read.actions.some((action) => action.sql !== null && /\bwhere\b/i.test(action.sql))) return [];
  const { alignment } = context.question;
  const tied =
    context.context["cue-insert"] === 1
      ? []
      : context.context["cue-update"] === 1
        ? [alignment.filter].filter((header) => header !== null)
        : [...alignment.byHeader.keys()];
  return tied.filter((header) => !read.cellsByColumn.has(header));
}

/**
 * An explore: a preview of the table, the distinct values of a column, or the read-back of the last
 * change. While an UPDATE has not been read back, looking means reading it back, under every harness,
 * so the decision to read back is the kind decision alone and a check that asks for it only guides it.
 */
export function exploreStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const target = walk.take();
  const readBack = context.pendingReadBack;
  if (target === null) {
    if (readBack !== null)
      return ask({
        name: "explore-target",
        options: [
          optionOver("change:last", context.contextVector.slice(), {
            "guide-explore": context.readBackSql === null ? 0 : 1,
          }),
        ],
      });
    return exploreTarget(context);
  }
  if (target === "change:last" && readBack !== null) return sqlAction(read, readBack);
  return sqlAction(read, exploreSql(read.table, labelValue(target)));
}
