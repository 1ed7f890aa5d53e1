import { genericConventions } from "@hs/harness";
import type { FailureConventions, FailureLabel, ObservedTrajectory } from "@hs/spec";
import type { FailureClassifierV1 } from "./failure-classifier.js";
import { parseFailureConventions } from "./failure-conventions.js";
import { sortByPriority } from "./mode-priority.js";
import { modeRuleLabels } from "./mode-rules.js";
import { ruleLabel } from "./rule-label.js";
import { answerOf, type CallFact, callsOf, excerpt, matches, submitCallOf } from "./trajectory-facts.js";

const label = ruleLabel;

function changeText(fact: CallFact, conventions: FailureConventions): string | undefined {
  const pattern = conventions.changePattern;
  if (pattern === undefined) return undefined;
  return Object.values(fact.call.arguments).find(
    (value): value is string => typeof value === "string" && matches(pattern, value),
  );
}

/**
 * The last state change among the successful work calls before the submit (`work`, in order), when no
 * successful read follows it.
 */
function uncheckedChange(work: readonly CallFact[], conventions: FailureConventions): CallFact | undefined {
  const lastChange = work.findLastIndex((fact) => changeText(fact, conventions) !== undefined);
  if (lastChange < 0) return undefined;
  const readBack = work.slice(lastChange + 1).some((fact) => changeText(fact, conventions) === undefined);
  return readBack ? undefined : work[lastChange];
}

/** The last read among the successful work calls before the submit, when it returned an empty result. */
function unrecoveredEmpty(work: readonly CallFact[], conventions: FailureConventions): CallFact | undefined {
  const last = work.filter((fact) => changeText(fact, conventions) === undefined).at(-1);
  return last !== undefined && matches(conventions.emptyResultPattern, last.content) ? last : undefined;
}

/**
 * Rule-based failure labels of one failed trajectory, from its harness events, end reason, tool results
 * and submitted answer, read through the benchmark's conventions: the common modes, then the
 * benchmark's own (`modeRules`), sorted by `modePriority` so that the first label is the primary mode.
 * The catch-all `wrong-target` is dropped when a benchmark rule found a mode. Returns no labels for a
 * success.
 */
export function classifyByRules(
  trajectory: ObservedTrajectory,
  conventions: FailureConventions,
): FailureLabel[] {
  if (trajectory.success) return [];
  const own = modeRuleLabels(trajectory, conventions);
  // `wrong-target` is the catch-all of a graded-wrong answer: a benchmark's own mode says more
  const common = commonLabels(trajectory, conventions).filter(
    (label) => own.length === 0 || label.mode !== "wrong-target",
  );
  return sortByPriority([...common, ...own], conventions.modePriority);
}

/** The labels of how the answer itself went wrong: given too early, misreading an empty result, badly formatted, or wrong. */
function answerLabels(
  submit: CallFact,
  answer: string,
  before: readonly CallFact[],
  informative: readonly CallFact[],
  conventions: FailureConventions,
): FailureLabel[] {
  const submitPhase: FailureLabel[] = [];
  if (informative.length === 0) {
    submitPhase.push(
      label(
        "premature-answer",
        `answered "${excerpt(answer, 120)}" at step ${submit.step} without any successful ${before.length === 0 ? "call" : "call (only errors)"} before it`,
        submit.step,
      ),
    );
  } else {
    const lastResult = informative[informative.length - 1] as CallFact;
    if (
      matches(conventions.emptyResultPattern, lastResult.content) &&
      !matches(conventions.emptyAnswerPattern, answer)
    ) {
      submitPhase.push(
        label(
          "empty-result-misread",
          `step ${lastResult.step} returned an empty result (${excerpt(lastResult.content, 60)}) yet the answer was "${excerpt(answer, 120)}"`,
          lastResult.step,
        ),
      );
    }
  }
  if (conventions.answerFormatPattern !== null && !matches(conventions.answerFormatPattern, answer)) {
    submitPhase.push(
      label(
        "wrong-answer-format",
        `answer "${excerpt(answer, 160)}" does not match the expected format /${conventions.answerFormatPattern}/`,
        submit.step,
      ),
    );
  }
  if (submitPhase.length === 0) {
    const lastResult = informative[informative.length - 1];
    submitPhase.push(
      label(
        "wrong-target",
        `well-formed answer "${excerpt(answer, 120)}" graded wrong${lastResult === undefined ? "" : `; last result (step ${lastResult.step}): ${excerpt(lastResult.content, 120)}`}`,
        submit.step,
      ),
    );
  }
  return submitPhase;
}

/** The labels of a trajectory that submitted an answer; `before` holds the work calls before the submit. */
function submitLabels(
  submit: CallFact,
  before: readonly CallFact[],
  conventions: FailureConventions,
): FailureLabel[] {
  const labels: FailureLabel[] = [];
  const answer = answerOf(submit.call, conventions);
  const informative = before.filter((fact) => !fact.isError);
  labels.push(...answerLabels(submit, answer, before, informative, conventions));
  const empty = unrecoveredEmpty(informative, conventions);
  if (empty !== undefined) {
    labels.push(
      label(
        "unrecovered-empty-result",
        `the last read before the answer at step ${submit.step} (step ${empty.step}: ${excerpt(JSON.stringify(empty.call.arguments), 120)}) returned an empty result`,
        empty.step,
      ),
    );
  }
  const unchecked = uncheckedChange(informative, conventions);
  if (unchecked !== undefined) {
    labels.push(
      label(
        "unchecked-change",
        `step ${unchecked.step} changed state (${excerpt(changeText(unchecked, conventions) ?? "", 120)}; reply ${excerpt(unchecked.content, 40)}) and nothing read it back before the answer at step ${submit.step}`,
        unchecked.step,
      ),
    );
  }
  return labels;
}

/** The labels of the common failure modes. */
function commonLabels(trajectory: ObservedTrajectory, conventions: FailureConventions): FailureLabel[] {
  const labels: FailureLabel[] = [];
  const events = trajectory.events;
  const lastStep = trajectory.steps.length - 1;

  if (trajectory.endReason === "budget" || trajectory.endReason === "output-budget") {
    const hit = events.find((event) => event.type === "budget-hit");
    labels.push(
      label(
        "budget-exhausted",
        hit?.detail ??
          `episode ended by the ${trajectory.endReason} limit after ${trajectory.steps.length} steps`,
        hit?.step ?? (lastStep >= 0 ? lastStep : undefined),
      ),
    );
  }

  const malformed = events.filter((event) => event.type === "malformed-action");
  if (malformed.length > 0) {
    const first = malformed[0];
    const reply = first === undefined ? undefined : trajectory.steps[first.step]?.action.content;
    const ended = trajectory.endReason === "reprompts-exhausted" ? "; re-prompts exhausted" : "";
    labels.push(
      label(
        "malformed-action",
        `${malformed.length} unparsable action(s)${ended}: ${first?.detail ?? ""}${reply === undefined ? "" : ` | reply: ${excerpt(reply, 160)}`}`,
        first?.step,
      ),
    );
  }

  const calls = callsOf(trajectory);
  const submit = submitCallOf(trajectory, conventions, calls);
  const isWork = (fact: CallFact) => fact !== submit && !conventions.submitTools.includes(fact.call.name);
  const errors = events.filter((event) => event.type === "tool-error" || event.type === "tool-hidden");
  const lastError = errors[errors.length - 1];
  if (lastError !== undefined) {
    const recovered = calls.some((fact) => isWork(fact) && !fact.isError && fact.step > lastError.step);
    if (!recovered) {
      labels.push(
        label(
          "unrecovered-tool-error",
          `${lastError.type} at step ${lastError.step} never followed by a successful call: ${excerpt(lastError.detail)}`,
          lastError.step,
        ),
      );
    }
  }

  const lost = events.filter(
    (event) => (event.type === "truncated" || event.type === "context-dropped") && event.step < lastStep,
  );
  if (lost.length > 0 && lost[0] !== undefined) {
    labels.push(
      label("context-lost", `${lost.length} context cut(s); first: ${lost[0].detail}`, lost[0].step),
    );
  }

  if (submit !== undefined) {
    const before = calls.filter((fact) => isWork(fact) && fact.step < submit.step);
    labels.push(...submitLabels(submit, before, conventions));
  }
  return labels;
}

/** A rule-based failure classifier for a benchmark's conventions (generic ones by default). */
export function createRuleClassifier(
  conventions: FailureConventions = genericConventions,
): FailureClassifierV1 {
  const checked = parseFailureConventions(conventions);
  return {
    specificationVersion: "v1",
    id: `rules:${checked.id}`,
    async classify(trajectory) {
      return classifyByRules(trajectory, checked);
    },
  };
}
