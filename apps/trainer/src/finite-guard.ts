import type { EmbeddedPolicy } from "@hs/policy-embedded";
import type { LearnerV1 } from "@hs/spec";
import { HarnessSError } from "@hs/spec";

/** Training produced a non-finite loss or weight; the step was not checkpointed. */
export class NonFiniteTrainingError extends HarnessSError {
  constructor(message: string) {
    super("HarnessSNonFiniteTrainingError", message);
  }
}

/** The first parameter of the policy holding NaN or an infinity, or null when all are finite. */
export function firstNonFiniteParameter(policy: EmbeddedPolicy): string | null {
  for (const [name, parameter] of Object.entries(policy.network.read())) {
    const index = parameter.values.findIndex((value) => !Number.isFinite(value));
    if (index >= 0) return `${name}[${index}] = ${parameter.values[index]}`;
  }
  return null;
}

/**
 * Wraps a learner so that an update giving a non-finite statistic (loss, KL, gradient norm) or a
 * non-finite weight throws before the trainer writes that step's metrics or checkpoint. The error names
 * the step (`firstStep` is the step the first update belongs to, e.g. the resumed step).
 */
export function guardFiniteLearner(learner: LearnerV1, policy: EmbeddedPolicy, firstStep: number): LearnerV1 {
  let step = firstStep;
  const stop = (what: string) =>
    new NonFiniteTrainingError(
      `step ${step}: ${what}; training stopped before step ${step} was written or checkpointed (the last checkpoint ${step === 0 ? "does not exist yet" : `is the one after step ${step - 1}`}). Lower --learning-rate or raise --kl, then rerun`,
    );
  return {
    specificationVersion: learner.specificationVersion,
    get updates() {
      return learner.updates;
    },
    async update(batch, options) {
      const stats = await learner.update(batch, options);
      const bad = Object.entries(stats).find(([, value]) => !Number.isFinite(value));
      if (bad !== undefined) throw stop(`the update gave ${bad[0]} = ${bad[1]}`);
      const parameter = firstNonFiniteParameter(policy);
      if (parameter !== null) throw stop(`the update made a weight non-finite (${parameter})`);
      step += 1;
      return stats;
    },
    save: (directory) => learner.save(directory),
    load: (directory) => learner.load(directory),
  };
}
