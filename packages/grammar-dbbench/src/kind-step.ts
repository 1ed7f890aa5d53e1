import { labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { ask, categorical, guide, withoutOptions } from "./decision-options.js";
import { shownExplores, unexploredFailedColumns, unseenFilterColumns } from "./explore-step.js";
import { grammarTuning } from "./features.js";
import { cue, type ViewContext } from "./view-context.js";

/** The action kinds, in option order. */
export const kinds = ["explore", "query", "insert", "update", "answer"] as const;

/** The `option-fit` of each kind from the instruction's cues and what the earlier actions did. */
function kindFits(context: ViewContext, question: boolean): Record<string, number> {
  const at = (name: Parameters<typeof cue>[1]) => cue(context, name);
  // an UPDATE whose rows are named by a value no column is given for (`the nationality of Ian Thorpe`)
  // looks at the rows first, to see which column holds it
  const updateLooksFirst =
    at("cue-update") === 1 &&
    at("cue-insert") === 0 &&
    at("did-explore") === 0 &&
    at("did-modify") === 0 &&
    context.question.alignment.filter === null &&
    context.question.alignment.unaligned.length > 0;
  return {
    explore:
      (question && at("did-explore") === 0 && at("has-result") === 0) || updateLooksFirst
        ? grammarTuning.exploreFirstFit
        : 0,
    query:
      question && at("has-result") === 0
        ? 1
        : question && at("last-error") === 1
          ? grammarTuning.queryAfterErrorFit
          : 0,
    // a statement that asks nothing and changes nothing (`The Rangers' home stadium is Ibrox`) records a row
    insert:
      (at("cue-insert") === 1 || (!question && at("cue-update") === 0)) && at("did-modify") === 0 ? 1 : 0,
    update: at("cue-update") === 1 && at("cue-insert") === 0 && at("did-modify") === 0 ? 1 : 0,
    answer: (question && at("has-result") === 1) || at("did-modify") === 1 ? 1 : 0,
  };
}

/** What the view's advice says about the kind: look first, query first, confirm or revise an answer. */
function kindAdvice(context: ViewContext, question: boolean) {
  const { read } = context;
  const advice = context.guidance;
  const at = (name: Parameters<typeof cue>[1]) => cue(context, name);
  const explore =
    (advice.previewBeforeFilter &&
      question &&
      at("did-explore") === 0 &&
      at("has-result") === 0 &&
      at("did-modify") === 0) ||
    (advice.lookAfterEmpty && at("last-empty") === 1 && unexploredFailedColumns(read).length > 0) ||
    advice.previewAfterEmpty;
  const queried = read.actions.some((action) => action.kind === "select" && !action.isError);
  const check = advice.check;
  // a check that asks to read back the rows a change reached, after an UPDATE nothing has read back yet
  const readBack = context.readBackSql !== null;
  const confirm =
    check === null || readBack
      ? null
      : check.againstLastResult
        ? check.matchesLastResult
        : !(check.answer.length === 0 && question && at("did-modify") === 0);
  return {
    explore,
    readBack,
    confirm,
    queryFirst: advice.queryBeforeAnswer && !queried,
    modifyAnswer: advice.modifyThenEmpty && at("did-modify") === 1,
    fixError: advice.fixError,
  };
}

/**
 * 1 when nothing has filtered yet and a column the question ties a filter value to has values no
 * result has shown (cells a harness listed count as shown), else 0.
 */
function exploreBeforeFilter(context: ViewContext): number {
  return context.pendingReadBack === null && unseenFilterColumns(context).length > 0 ? 1 : 0;
}

/** The first decision of every action: which kind of action it is. */
export function kindStep(context: ViewContext): GrammarStep {
  const { read } = context;
  const question =
    cue(context, "is-question") === 1 && cue(context, "cue-insert") === 0 && cue(context, "cue-update") === 0;
  const fits = kindFits(context, question);
  const advice = kindAdvice(context, question);
  const shown = shownExplores(read);
  const afterEmpty = cue(context, "last-empty") === 1 && unexploredFailedColumns(read).length > 0 ? 1 : 0;
  const readBack = context.pendingReadBack !== null ? 1 : 0;
  const beforeFilter = exploreBeforeFilter(context);
  const canExplore = readBack === 1 || ["*", ...read.headers].some((target) => !shown.has(target));
  const decision = withoutOptions(
    categorical("kind", kinds, context, "kind", (item) => fits[item] ?? 0),
    (label) => canExplore || label !== "kind:explore",
  );
  return ask(
    guide(decision, (label) => {
      const item = labelValue(label);
      const answer = item === "answer";
      const query = item === "query";
      return {
        "guide-explore": (advice.explore || advice.readBack) && item === "explore" ? 1 : 0,
        "explore-after-empty": item === "explore" ? afterEmpty : 0,
        "read-back-unchecked": item === "explore" ? readBack : 0,
        "explore-before-filter": item === "explore" ? beforeFilter : 0,
        "answer-pressure": answer
          ? Math.min(1, Math.max(0, read.actions.length - 2) / grammarTuning.answerPressureActions)
          : 0,
        "guide-query-first": advice.queryFirst ? (answer ? -1 : query ? 1 : 0) : 0,
        "guide-modify-answer": advice.modifyAnswer && answer ? 1 : 0,
        "guide-fix-error": advice.fixError ? (answer ? -1 : query ? 1 : 0) : 0,
        "guide-check-confirm": advice.confirm === true && answer ? 1 : 0,
        "guide-check-revise":
          advice.confirm === false ? (answer ? -1 : query ? 1 : 0) : advice.readBack && answer ? -1 : 0,
      };
    }),
  );
}
