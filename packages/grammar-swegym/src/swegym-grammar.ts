import { byKind, type KindStep, stagedGrammar } from "@hs/grammar-kit";
import type { ActionGrammarV1 } from "@hs/spec";
import {
  editStep,
  exploreStep,
  lineValues,
  reproduceStep,
  revertStep,
  searchStep,
  submitStep,
  testStep,
} from "./action-steps.js";
import { sweGymCallLabels } from "./call-labels.js";
import { type ActionKind, featureNames, priorVector } from "./features.js";
import { kindStep } from "./kind-step.js";
import { probeStep } from "./probe-step.js";
import { showStep } from "./show-step.js";
import { traceStep } from "./trace-step.js";
import { type ViewContext, viewContext } from "./view-context.js";

const steps: Record<ActionKind, KindStep<ViewContext>> = {
  explore: exploreStep,
  search: searchStep,
  show: showStep,
  reproduce: reproduceStep,
  trace: traceStep,
  probe: (walk, context) => probeStep(walk, context, lineValues),
  test: testStep,
  edit: editStep,
  revert: revertStep,
  submit: submitStep,
};

/**
 * The SWE-Gym action grammar: builds each action as staged decisions derived from the rendered view
 * only (the problem statement, earlier commands and their outputs, format errors). Actions: explore
 * (list the Python files), search (grep a name the statement writes), show (`nl -ba` a region around a
 * traceback frame, search hit or pytest location, a file's top or its next page), reproduce (evaluate
 * a call the statement writes), test (all, one test file, a failing test), edit (one shown line
 * replaced by a candidate rewrite, checked against the shown text), revert (restore an edited file)
 * and submit (mini-swe-agent's sentinel command, or the submit tool). Under the text protocol an
 * action is a THOUGHT and exactly one bash block; under native tools, the bash or submit tool call.
 * A harness call's command is read as the test run, trace or show it stands for (`decisionsFor`).
 */
export function createSweGymGrammar(): ActionGrammarV1 {
  return stagedGrammar({
    featureNames,
    prior: priorVector(),
    context: viewContext,
    build: byKind(kindStep, steps, submitStep),
    labelsForCall: sweGymCallLabels,
  });
}
