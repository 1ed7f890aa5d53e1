import { type HarnessCallOccasion, harnessCallOccasions } from "@hs/harness";
import type { EmbeddedPolicy } from "@hs/policy-embedded";
import type { ToolCall, TrainingStep, Trajectory } from "@hs/spec";
import { actionOf } from "./rescue-transfer.js";

type CreditedTrajectory = Pick<Trajectory, "steps" | "preludeCalls">;

/** Texts of three or more characters the actions quote ('...' or "..."). */
function quotedTexts(actions: readonly string[]): string[] {
  return actions.flatMap((action) =>
    [...action.matchAll(/'([^'\n]{3,})'|"([^"\n]{3,})"/g)].map((match) => match[1] ?? match[2] ?? ""),
  );
}

/**
 * The occasion's calls, those whose result holds a text the policy's later actions quote first (the
 * prelude's distinct values of the column whose value the policy then filtered on), the rest after.
 */
function callsByUse(trajectory: CreditedTrajectory, occasion: HarnessCallOccasion): ToolCall[] {
  const from = occasion.trigger === "prelude" ? occasion.step : occasion.step + 1;
  const quoted = quotedTexts(trajectory.steps.slice(from).map((step) => step.action.content));
  const used = occasion.calls.map((_, index) =>
    quoted.some((text) => occasion.results[index]?.content.includes(text) === true),
  );
  return [
    ...occasion.calls.filter((_, index) => used[index]),
    ...occasion.calls.filter((_, index) => !used[index]),
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
