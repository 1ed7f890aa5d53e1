import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { ask, categorical, guide, option } from "./decision-options.js";
import { grammarTuning } from "./features.js";
import { answerAction } from "./grammar-actions.js";
import { isExplore } from "./sql-text.js";
import { cue, type ViewContext } from "./view-context.js";

const answerFormats = ["all", "first", "column"] as const;

/** Earlier results with rows, latest first, with their action index. */
function resultsWithRows(context: ViewContext) {
  return context.read.actions
    .map((action, index) => ({ action, index }))
    .filter(({ action }) => action.kind === "select" && action.rows !== null && action.rows.length > 0)
    .reverse();
}

/** Which earlier result the answer reads (or none, after a change). */
function sourceDecision(context: ViewContext): GrammarStep {
  const results = resultsWithRows(context);
  // a preview or a column's distinct values answers only when nothing else has rows
  const queried = results.some(({ action }) => !isExplore(action.sql));
  const sourceOptions = results.map(({ action, index }, rank) => {
    const rows = action.rows ?? [];
    return option(
      `result:${index}`,
      {
        "result-recency": 1 / (rank + 1),
        "result-rows": Math.min(rows.length, grammarTuning.resultRowsCap) / grammarTuning.resultRowsCap,
        "result-single-cell": rows.length === 1 && rows[0]?.length === 1 ? 1 : 0,
        "result-aggregate": /^\s*select\s+(count|sum|avg|min|max)\s*\(/i.test(action.sql ?? "") ? 1 : 0,
        "column-seen": action.columns === null ? 0 : 1,
        "result-is-preview": queried && isExplore(action.sql) ? 1 : 0,
      },
      context,
    );
  });
  sourceOptions.push(
    option("result:none", { "category-0": 1, "option-fit": cue(context, "did-modify") }, context),
  );
  const advice = context.guidance;
  const latest = results[0] === undefined ? null : `result:${results[0].index}`;
  const revise = advice.check?.againstLastResult === true && !advice.check.matchesLastResult;
  return ask(
    guide({ name: "answer-source", options: sourceOptions }, (label) => ({
      "guide-modify-answer":
        advice.modifyThenEmpty && cue(context, "did-modify") === 1 && label === "result:none" ? 1 : 0,
      "guide-check-revise": revise && label === latest ? 1 : 0,
    })),
  );
}

/** An answer: which result (or none), then its format (all cells, first cell, first column). */
export function answerStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const sourceLabel = walk.take();
  if (sourceLabel === null) return sourceDecision(context);
  const source = labelValue(sourceLabel);
  if (source === "none") return answerAction(read, []);
  const rows = read.actions[Number(source)]?.rows ?? [];
  const formatLabel = walk.take();
  if (formatLabel === null) {
    const decision = categorical("answer-format", answerFormats, context, "format", (item) =>
      item === "all" ? 1 : grammarTuning.partialAnswerFit,
    );
    return ask(
      guide(decision, (label) => ({
        "guide-as-returned": context.guidance.answerAsReturned && label === "format:all" ? 1 : 0,
      })),
    );
  }
  const format = labelValue(formatLabel);
  const answers =
    format === "first"
      ? [rows[0]?.[0] ?? ""]
      : format === "column"
        ? rows.map((row) => row[0] ?? "")
        : rows.flat();
  return answerAction(read, answers);
}
