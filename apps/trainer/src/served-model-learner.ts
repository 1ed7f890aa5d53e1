import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { InvalidInputError, type LearnerStats, type LearnerV1, type TrainingBatch } from "@hs/spec";
import { z } from "zod";
import { writeFileAtomic } from "./atomic-file.js";

const stateSchema = z.strictObject({
  /** Updates recorded so far. */
  updates: z.number().int().nonnegative(),
  /** The model the run acted with. */
  model: z.string().min(1),
});

/** The file a served-model learner's checkpoint holds. */
export const servedModelStateFile = "served-model.json";

/**
 * The learner of a policy whose weights live on a model server (`--policy chat`): it takes no gradient
 * step, since the server's weights cannot be changed from here. Each update is counted and reported
 * (samples, advantage mean and spread, the steps an update of the model would train on), so a run
 * collects its groups, advantages, rescues, metrics and trajectories as any other, for a trainer that
 * updates the served model (`hs export`); a checkpoint holds the count and the model name.
 */
export function createServedModelLearner(model: string): LearnerV1 {
  let updates = 0;
  return {
    specificationVersion: "v1",
    get updates() {
      return updates;
    },
    async update(batch: TrainingBatch): Promise<LearnerStats> {
      updates++;
      const advantages = batch.samples.map((sample) => sample.advantage);
      const mean = advantages.reduce((sum, value) => sum + value, 0) / Math.max(1, advantages.length);
      const spread = Math.sqrt(
        advantages.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, advantages.length),
      );
      const steps = batch.samples.reduce((sum, sample) => sum + sample.steps.length, 0);
      return { samples: advantages.length, steps, advantageMean: mean, advantageStd: spread };
    },
    async save(directory: string) {
      await mkdir(directory, { recursive: true });
      await writeFileAtomic(join(directory, servedModelStateFile), `${JSON.stringify({ updates, model })}\n`);
    },
    async load(directory: string) {
      const file = join(directory, servedModelStateFile);
      const parsed = stateSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
      if (!parsed.success)
        throw new InvalidInputError(`not a served-model learner state: ${parsed.error.message}`, { file });
      if (parsed.data.model !== model)
        throw new InvalidInputError(
          `the checkpoint was written acting with model ${parsed.data.model}, this run names ${model}`,
          { file, field: "model" },
        );
      updates = parsed.data.updates;
    },
  };
}
