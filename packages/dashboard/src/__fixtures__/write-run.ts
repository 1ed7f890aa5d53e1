import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Test equipment: a training run directory written step by step, as `hs train` writes one. */
export async function createRunWriter(directory: string, method = "harness-s", seed = 1) {
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, "config.json"), JSON.stringify({ method, seed }));
  await writeFile(join(directory, "metrics.jsonl"), "");
  await writeFile(join(directory, "trajectories.jsonl"), "");
  let step = 0;
  return {
    /** Appends one step's metrics row and `rollouts` trajectories (every third one passing). */
    async step(rollouts = 4) {
      const lines = Array.from({ length: rollouts }, (_, index) => JSON.stringify(trajectory(step, index)));
      await appendFile(join(directory, "trajectories.jsonl"), `${lines.join("\n")}\n`);
      await appendFile(
        join(directory, "metrics.jsonl"),
        `${JSON.stringify({
          step,
          signalShare: 0.25 + step / 100,
          rolloutsTotal: (step + 1) * rollouts,
          rolloutsBase: rollouts,
          rolloutsRescue: 0,
          success: 0.1 * step,
          reward: 0.1 * step,
          learner: { loss: 0.5 - step / 100, gradNorm: 1 + step },
          rescue: { attempts: 2, successes: step % 2 },
        })}\n`,
      );
      step += 1;
    },
  };
}

/** One trajectory record of the shape `hs train` writes. */
export function trajectory(step: number, index: number) {
  const success = index % 3 === 0;
  return {
    schemaVersion: 1,
    id: `t-${step}-${index}`,
    taskId: `task/${index}`,
    harnessId: index % 2 === 0 ? "base" : "sibling-guidance",
    success,
    reward: success ? 1 : 0,
    failureModes: success ? [] : ["wrong-target"],
    endReason: "answered",
    steps: [
      {
        index: 0,
        view: { messages: [{ role: "user", content: `What is the capital of country ${index}?` }] },
        action: { content: `lookup: country-${index}` },
        feedback: "Paris",
      },
      {
        index: 1,
        view: {
          messages: [
            { role: "user", content: `What is the capital of country ${index}?` },
            { role: "assistant", content: `lookup: country-${index}` },
            { role: "user", content: "Paris" },
          ],
        },
        action: { content: "answer: Paris" },
      },
    ],
    gradeDetails: { label: "SECRET-LABEL" },
  };
}
