import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LearnerStats, LearnerV1, TrainingBatch } from "@hs/spec";

/** A learner that records every batch it is given, for tests of training loops without a network. */
export interface RecordingLearner extends LearnerV1 {
  /** Every batch received, in order. */
  readonly batches: TrainingBatch[];
}

/**
 * Test equipment: a `LearnerV1` with no parameters. Each update records the batch and reports the
 * number of samples and the sum of their advantages; `save` writes the update count to `learner.json`.
 */
export function createRecordingLearner(): RecordingLearner {
  const batches: TrainingBatch[] = [];
  let updates = 0;
  return {
    specificationVersion: "v1",
    batches,
    get updates() {
      return updates;
    },
    async update(batch: TrainingBatch): Promise<LearnerStats> {
      batches.push(batch);
      updates++;
      const advantage = batch.samples.reduce((sum, sample) => sum + sample.advantage, 0);
      return { samples: batch.samples.length, advantageSum: advantage };
    },
    async save(directory: string) {
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, "learner.json"), JSON.stringify({ updates }));
    },
    async load(directory: string) {
      updates = (JSON.parse(await readFile(join(directory, "learner.json"), "utf8")) as { updates: number })
        .updates;
    },
  };
}
