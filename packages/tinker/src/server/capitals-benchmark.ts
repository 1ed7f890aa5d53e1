import { createHarnessConfig } from "@hs/harness";
import type { BenchmarkV1, EnvironmentV1, EpisodeOutcome, HarnessConfig, Task } from "@hs/spec";

/** Original toy facts of the test benchmark (train: four countries; held out: two). */
const facts: Record<string, { capital: string; split: "train" | "heldout" }> = {
  france: { capital: "paris", split: "train" },
  peru: { capital: "lima", split: "train" },
  japan: { capital: "tokyo", split: "train" },
  kenya: { capital: "nairobi", split: "train" },
  chile: { capital: "santiago", split: "heldout" },
  egypt: { capital: "cairo", split: "heldout" },
};

/** The one-word text protocol: the first word of the reply is the answer. */
export const capitalsHarness: HarnessConfig = createHarnessConfig({
  id: "capitals-text",
  prompt: { system: "", taskTemplate: "{instruction}", hints: [], hintPlacement: "task", examples: [] },
  actionFormat: {
    kind: "text",
    rules: [{ tool: "submit", pattern: "^\\s*(\\S+)", flags: "", arguments: { answer: 1 } }],
  },
  budget: { maxSteps: 1, maxOutputChars: null },
});

/**
 * Test equipment: a one-step benchmark small enough for the test server's tiny model over the tiny
 * tokenizer of `src/__fixtures__/tiny-tokenizer/` (the prompt is `capital COUNTRY`, the answer one word). The answer
 * lives only in the environment, never in the task or the view.
 */
export function createCapitalsBenchmark(): BenchmarkV1 {
  return {
    specificationVersion: "v1",
    id: "capitals",
    splits: ["train", "heldout"],
    presets: { text: capitalsHarness },
    defaultPreset: "text",
    async loadTasks(options: { split?: string } = {}) {
      const split = options.split ?? "train";
      const tasks: Task[] = Object.entries(facts)
        .filter(([, fact]) => fact.split === split)
        .map(([country]) => ({
          id: `capitals/${country}`,
          benchmark: "capitals",
          split,
          category: "capital",
          instruction: `capital ${country}`,
          metadata: { country },
        }));
      return { tasks, problems: [] };
    },
    async createEnvironment(task: Task): Promise<EnvironmentV1> {
      const expected = facts[String(task.metadata.country)]?.capital ?? "";
      let submitted: string | null = null;
      return {
        specificationVersion: "v1",
        tools: [
          {
            name: "submit",
            description: "Submit the answer.",
            parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
            terminal: true,
          },
        ],
        async reset() {},
        async step(call) {
          submitted = String(call.arguments.answer ?? "");
          return { content: "submitted", isError: false, done: true };
        },
        async grade() {
          const success = submitted?.toLowerCase() === expected;
          return { reward: success ? 1 : 0, success, details: { submitted } };
        },
        async close() {},
      };
    },
    summarize(outcomes: readonly EpisodeOutcome[]) {
      return { success: outcomes.filter((outcome) => outcome.success).length / Math.max(1, outcomes.length) };
    },
  };
}
