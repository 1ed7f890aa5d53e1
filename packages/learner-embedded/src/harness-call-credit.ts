import { type HarnessCallOccasion, harnessCallOccasions } from "@hs/harness";
import type { EmbeddedPolicy } from "@hs/policy-embedded";
import type { TrainingStep, Trajectory } from "@hs/spec";
import { actionOf } from "./rescue-transfer.js";

type CreditedTrajectory = Pick<Trajectory, "steps" | "preludeCalls">;
type ExecutedCall = NonNullable<Trajectory["preludeCalls"]>[number];

/** Texts of three or more characters the actions quote ('...' or "..."). */
function quotedTexts(actions: readonly string[]): string[] {
  return actions.flatMap((action) =>
    [...action.matchAll(/'([^'\n]{3,})'|"([^"\n]{3,})"/g)].map((match) => match[1] ?? match[2] ?? ""),
  );
}

/** The occasion's executed calls: its prelude's, or the step's harness calls. */
function executedCalls(trajectory: CreditedTrajectory, occasion: HarnessCallOccasion): ExecutedCall[] {
  const executed =
    occasion.trigger === "prelude"
      ? (trajectory.preludeCalls ?? [])
      : (trajectory.steps[occasion.step]?.harnessCalls ?? []);
  return executed.filter((entry) => occasion.calls.some((call) => call.id === entry.call.id));
}

/**
 * The occasion's calls, those whose result holds a text the policy's later actions quote first (the
 * prelude's distinct values of the column whose value the policy then filtered on), the rest after.
 */
function callsByUse(trajectory: CreditedTrajectory, occasion: HarnessCallOccasion) {
  const from = occasion.trigger === "prelude" ? occasion.step : occasion.step + 1;
  const quoted = quotedTexts(trajectory.steps.slice(from).map((step) => step.action.content));
  const used = new Set(
    executedCalls(trajectory, occasion)
      .filter(({ result }) => quoted.some((text) => result.content.includes(text)))
      .map(({ call }) => call.id),
  );
  return [
    ...occasion.calls.filter((call) => used.has(call.id)),
    ...occasion.calls.filter((call) => !used.has(call.id)),
  ];
}

/**
 * Harness-call credit: the steps a trajectory's harness calls stand for, as the policy's own decisions.
 * At each occasion (`harnessCallOccasions`: the prelude's calls under the first view without them, a
 * follow-up's calls under the next view without their text, a check's calls under the submitting view)
 * the first call the grammar recovers decisions for becomes one step on that view, with the policy's
 * current log-probabilities (as if it had sampled them); calls whose result holds a text that a later
 * action of the policy quotes come first (`callsByUse`). A rescued trajectory then trains, with its
 * advantage, the base-harness decision its harness made for it (read the doc of a refused API, run the
 * failing tests before submitting). A grammar without `decisionsFor` credits nothing.
 */
export function harnessCallCredit(
  policy: EmbeddedPolicy,
): (trajectory: CreditedTrajectory) => TrainingStep[] {
  const { grammar } = policy;
  const decisionsFor = grammar.decisionsFor?.bind(grammar);
  if (decisionsFor === undefined) return () => [];
  return (trajectory) =>
    harnessCallOccasions(trajectory).flatMap((occasion) => {
      for (const call of callsByUse(trajectory, occasion)) {
        const labels = decisionsFor(occasion.view, call);
        if (labels !== null)
          return [{ view: occasion.view, action: actionOf(policy, grammar, occasion.view, labels) }];
      }
      return [];
    });
}
