// A benchmark package written outside the Harness-S repository: it depends only on @hs/spec and @hs/harness.

import { readFile } from "node:fs/promises";
import { createHarnessConfig } from "@hs/harness";
import { InvalidInputError } from "@hs/spec";

const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const tools = [
  {
    name: "spell",
    description: "Spell a digit in English words.",
    parameters: { type: "object", properties: { digit: { type: "string" } }, required: ["digit"] },
  },
  {
    name: "submit",
    description: "Submit the answer.",
    parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
    terminal: true,
  },
];
const base = createHarnessConfig({
  id: "spelling-text",
  prompt: {
    system: "One action per reply.\n{tools}",
    taskTemplate: "{instruction}",
    hints: [],
    hintPlacement: "task",
    examples: [],
  },
  actionFormat: {
    kind: "text",
    rules: [
      { tool: "spell", pattern: "^spell:\\s*(\\d)", flags: "m", arguments: { digit: 1 } },
      { tool: "submit", pattern: "^answer:\\s*(\\S+)", flags: "m", arguments: { answer: 1 } },
    ],
  },
  // one step: spelling and answering need two, so every episode under the base harness fails on its budget
  budget: { maxSteps: 1, maxOutputChars: null },
});

function taskOf(digit, split) {
  return {
    id: `spelling/${split}/${digit}`,
    benchmark: "spelling",
    split,
    category: "digit",
    instruction: `How is the digit ${digit} written in words?`,
    metadata: {},
  };
}

async function loadFile(path) {
  const tasks = [];
  const problems = [];
  const lines = (await readFile(path, "utf8")).split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const record = JSON.parse(line);
    if (typeof record.digit !== "number")
      problems.push(
        new InvalidInputError("expected a number", { file: path, line: index + 1, field: "digit" }),
      );
    else tasks.push(taskOf(record.digit, "file"));
  }
  return { tasks, problems };
}

function createEnvironment(task) {
  const digit = Number(/digit (\d)/.exec(task.instruction)[1]);
  let submitted = null;
  return {
    specificationVersion: "v1",
    tools,
    async reset() {},
    async step(call) {
      if (call.name === "spell") {
        const word = words[Number(call.arguments.digit)];
        return word === undefined
          ? { content: "not a digit", isError: true, done: false }
          : { content: word, isError: false, done: false };
      }
      if (call.name === "submit") {
        submitted = String(call.arguments.answer);
        return { content: "submitted", isError: false, done: true };
      }
      return { content: `unknown tool ${call.name}`, isError: true, done: false };
    },
    async grade() {
      const success = submitted === words[digit];
      return { reward: success ? 1 : 0, success, details: { expected: words[digit] } };
    },
    async close() {},
  };
}

// The grammar reads only the view: the digit in the question and the words earlier results showed.
const actionGrammar = {
  specificationVersion: "v1",
  featureCount: 3,
  prior: [0, 0, 1],
  next(view, chosen) {
    const texts = view.messages
      .filter((message) => message.role !== "system")
      .map((message) => message.content);
    const digit = /digit (\d)/.exec(texts.join("\n"))?.[1] ?? "0";
    const seen = texts.slice(1).filter((text) => words.includes(text.trim()));
    if (chosen.length === 0) {
      const options = [{ label: "spell", features: [1, 0, seen.length === 0 ? 1 : 0] }];
      if (seen.length > 0) options.push({ label: "answer", features: [0, 1, 1] });
      return { done: false, decision: { name: "kind", options } };
    }
    if (chosen[0] === "spell")
      return {
        done: true,
        content: `spell: ${digit}`,
        toolCalls: [{ id: "c", name: "spell", arguments: { digit } }],
      };
    if (chosen.length === 1)
      return {
        done: false,
        decision: {
          name: "word",
          options: [...new Set([...seen, "none"])].map((word, index) => ({
            label: word,
            features: [index, 0, word === "none" ? 0 : 1],
          })),
        },
      };
    return {
      done: true,
      content: `answer: ${chosen[1]}`,
      toolCalls: [{ id: "c", name: "submit", arguments: { answer: chosen[1] } }],
    };
  },
};

export const benchmarkPlugin = {
  specificationVersion: "v1",
  id: "spelling",
  description: "spell a digit in words (a plugin test package)",
  options: { "max-digit": { type: "string", description: "largest digit of the bundled tasks (default 9)" } },
  mainJobDefaults: { seeds: 2, budget: 32, groupSize: 4, rollouts: 2 },
  async createBenchmark(values) {
    const maxDigit = values["max-digit"] === undefined ? 9 : Number(values["max-digit"]);
    const digits = words.map((_, digit) => digit).filter((digit) => digit <= maxDigit);
    return {
      specificationVersion: "v1",
      id: "spelling",
      splits: ["train", "test"],
      trainSplit: "train",
      heldoutSplits: ["test"],
      presets: { text: base },
      defaultPreset: "text",
      actionGrammar,
      async loadTasks(options) {
        if (options.path !== undefined) return loadFile(options.path);
        const split = options.split ?? "train";
        if (split !== "train" && split !== "test")
          throw new InvalidInputError(`unknown split ${split}`, { field: "split" });
        return {
          tasks: digits
            .filter((digit) => (digit % 3 === 0) === (split === "test"))
            .map((digit) => taskOf(digit, split)),
          problems: [],
        };
      },
      async createEnvironment(task) {
        return createEnvironment(task);
      },
      summarize(outcomes) {
        return {
          accuracy: outcomes.filter((outcome) => outcome.success).length / Math.max(1, outcomes.length),
        };
      },
      async goldReplay(options) {
        const { tasks } = await this.loadTasks(options.tasks);
        let passed = 0;
        let emptyPassed = 0;
        for (const task of tasks) {
          const environment = createEnvironment(task);
          await environment.step({
            id: "g",
            name: "submit",
            arguments: { answer: words[Number(/digit (\d)/.exec(task.instruction)[1])] },
          });
          if ((await environment.grade()).success) passed += 1;
          if ((await createEnvironment(task).grade()).success) emptyPassed += 1;
        }
        return { passed, total: tasks.length, emptyPassed, failures: [] };
      },
    };
  },
};
export default benchmarkPlugin;
