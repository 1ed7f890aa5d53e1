import { harnessCallOccasions } from "@hs/harness";
import type { EmbeddedPolicy } from "@hs/policy-embedded";
import type { TrainingStep, Trajectory } from "@hs/spec";
import { actionOf } from "./rescue-transfer.js";

/**
 * Harness-call credit: the steps a trajectory's harness calls stand for, as the policy's own decisions.
 * At each occasion (`harnessCallOccasions`: the prelude's calls under the first view without them, a
 * follow-up's calls under the next view without their text, a check's calls under the submitting view)
 * the first call the grammar recovers decisions for becomes one step on that view, with the policy's
 * current log-probabilities (as if it had sampled them). A rescued trajectory then trains, with its
 * advantage, the base-harness decision its harness made for it (read the doc of a refused API, run the
 * failing tests before submitting). A grammar without `decisionsFor` credits nothing.
 */
export function harnessCallCredit(
  policy: EmbeddedPolicy,
): (trajectory: Pick<Trajectory, "steps" | "preludeCalls">) => TrainingStep[] {
  const { grammar } = policy;
  const decisionsFor = grammar.decisionsFor?.bind(grammar);
  if (decisionsFor === undefined) return () => [];
  return (trajectory) =>
    harnessCallOccasions(trajectory).flatMap((occasion) => {
      for (const call of occasion.calls) {
        const labels = decisionsFor(occasion.view, call);
        if (labels !== null)
          return [{ view: occasion.view, action: actionOf(policy, grammar, occasion.view, labels) }];
      }
      return [];
    });
}
