import type { BenchmarkV1, EnvironmentV1, EpisodeOutcome, HarnessConfig, Task, ToolSpec } from "@hs/spec";
import { createHarnessConfig, parseHarnessConfig } from "../parse-harness-config.js";

const facts: Record<string, string> = { france: "Paris", peru: "Lima", japan: "Tokyo", kenya: "Nairobi" };
const questions = Object.keys(facts).map((country, index) => ({ id: `lookup/${index}`, country }));

const tools: ToolSpec[] = [
  {
    name: "lookup",
    description: "Look up the capital of a country.",
    parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  },
  { name: "dump", description: "Print the whole table.", parameters: { type: "object", properties: {} } },
  {
    name: "submit",
    description: "Submit the final answer.",
    parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
    terminal: true,
  },
];

/** Base harness of the lookup benchmark: a text protocol `lookup: KEY` / `dump` / `answer: TEXT`. */
export const lookupTextHarness: HarnessConfig = createHarnessConfig({
  id: "lookup-text",
  prompt: {
    system: "Answer with one action per reply.\n{tools}",
    taskTemplate: "{instruction}",
    hints: [],
    hintPlacement: "task",
    examples: [],
  },
  actionFormat: {
    kind: "text",
    rules: [
      { tool: "lookup", pattern: "^lookup:\\s*(\\S+)", flags: "m", arguments: { key: 1 } },
      { tool: "dump", pattern: "^dump$", flags: "m", arguments: {} },
      { tool: "submit", pattern: "^answer:\\s*(.+)$", flags: "m", arguments: { answer: 1 } },
    ],
  },
  budget: { maxSteps: 6, maxOutputChars: null },
});

/** The lookup text harness with `patch` applied to a copy, parsed (a test's variant of the base harness). */
export function patchedLookupHarness(patch: (config: HarnessConfig) => void): HarnessConfig {
  const config = structuredClone(lookupTextHarness);
  patch(config);
  return parseHarnessConfig(config);
}

/**
 * Test equipment with the shape of a SQL benchmark: a hidden table queried by a tool, a terminal
 * submit, grading against a hidden answer that never reaches the task or the view.
 */
export function createLookupBenchmark(): BenchmarkV1 & { opened: number; closed: number } {
  const benchmark = {
    specificationVersion: "v1" as const,
    id: "lookup",
    splits: ["train"],
    presets: { text: lookupTextHarness, tools: createHarnessConfig({ id: "lookup-tools" }) },
    defaultPreset: "text",
    opened: 0,
    closed: 0,
    async loadTasks() {
      const tasks: Task[] = questions.map(({ id, country }) => ({
        id,
        benchmark: "lookup",
        split: "train",
        category: "capital",
        instruction: `What is the capital of ${country}?`,
        metadata: { key: country },
      }));
      return { tasks, problems: [] };
    },
    async createEnvironment(task: Task): Promise<EnvironmentV1> {
      benchmark.opened += 1;
      const expected = facts[String(task.metadata.key)] ?? "";
      let submitted: string | null = null;
      let closed = false;
      return {
        specificationVersion: "v1",
        tools,
        async reset() {},
        async step(call) {
          if (call.name === "lookup") {
            const value = facts[String(call.arguments.key).toLowerCase()];
            return value === undefined
              ? { content: `no such key: ${String(call.arguments.key)}`, isError: true, done: false }
              : { content: value, isError: false, done: false };
          }
          if (call.name === "dump") {
            return {
              content: Object.entries(facts)
                .map(([key, value]) => `${key}=${value}`)
                .join("; ")
                .repeat(4),
              isError: false,
              done: false,
            };
          }
          if (call.name === "submit") {
            submitted = String(call.arguments.answer);
            return { content: "submitted", isError: false, done: true };
          }
          return { content: `unknown tool ${call.name}`, isError: true, done: false };
        },
        async grade() {
          const success = submitted === expected;
          return { reward: success ? 1 : 0, success, details: { submitted } };
        },
        async close() {
          if (!closed) benchmark.closed += 1;
          closed = true;
        },
      };
    },
    summarize(outcomes: readonly EpisodeOutcome[]) {
      return { success: outcomes.filter((outcome) => outcome.success).length / Math.max(1, outcomes.length) };
    },
  };
  return benchmark;
}
