// Cuts base-harness failures (trajectory JSONL from `hs eval --split train --trajectories F`) down to
// the excerpts the failure-classifier fixtures hold: what the policy was shown and did, nothing the
// grader keeps. Dropped: grading details, the dataset category, tool results' `data` (a payload for the
// harness and graders, never shown to the policy), the harness hash, timings and every view but the
// instruction. Long tool results keep their head and tail.
// Usage: node bench/failure-fixture-excerpts.mjs --out FILE [--per-task N] [--every K] IN.jsonl...
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    "per-task": { type: "string" },
    "per-scenario": { type: "string" },
    every: { type: "string", default: "1" },
  },
});
if (values.out === undefined || positionals.length === 0) {
  console.error(
    "usage: node bench/failure-fixture-excerpts.mjs --out FILE [--per-scenario N] [--every K] IN.jsonl...",
  );
  process.exit(2);
}

const resultHead = 700;
const resultTail = 400;
const argumentLimit = 3000;
const instructionLimit = 4000;
const actionLimit = 400;

function cut(text, head, tail) {
  if (text.length <= head + tail + 80) return text;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters cut for the fixture ...]\n${text.slice(-tail)}`;
}

function cutArguments(value) {
  if (typeof value === "string") return cut(value, argumentLimit, 0);
  if (Array.isArray(value)) return value.map(cutArguments);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, cutArguments(entry)]));
  return value;
}

function instructionView(view) {
  const users = view.messages.filter((message) => message.role === "user");
  const last = users.at(-1);
  return {
    messages: last === undefined ? [] : [{ role: "user", content: cut(last.content, instructionLimit, 0) }],
    tools: [],
    actionFormat: view.actionFormat,
  };
}

function excerptOf(trajectory) {
  return {
    schemaVersion: 1,
    id: trajectory.id,
    taskId: trajectory.taskId,
    benchmark: trajectory.benchmark,
    split: trajectory.split,
    harnessId: trajectory.harnessId,
    harnessHash: "",
    policyId: trajectory.policyId,
    policyVersion: trajectory.policyVersion,
    seed: trajectory.seed,
    steps: trajectory.steps.map((step) => ({
      index: step.index,
      view:
        step.index === 0
          ? instructionView(step.view)
          : { messages: [], tools: [], actionFormat: step.view.actionFormat },
      action: { content: cut(step.action.content, actionLimit, 0), logprob: 0 },
      parsed:
        step.parsed === null
          ? null
          : step.parsed.map((call) => ({ ...call, arguments: cutArguments(call.arguments) })),
      executed: step.executed.map((entry) => ({
        call: { ...entry.call, arguments: cutArguments(entry.call.arguments) },
        result: {
          content: cut(entry.result.content, resultHead, resultTail),
          isError: entry.result.isError,
          done: entry.result.done,
        },
      })),
      feedback: "",
      events: step.events,
      policyMs: 0,
      environmentMs: 0,
    })),
    endReason: trajectory.endReason,
    reward: 0,
    success: false,
    failureModes: [],
    events: trajectory.events,
    timings: { startedAt: "", wallMs: 0, policyMs: 0, environmentMs: 0 },
  };
}

const failures = [];
for (const file of positionals) {
  const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "");
  for (const line of lines) {
    const trajectory = JSON.parse(line);
    if (!trajectory.success) failures.push(trajectory);
  }
}
const perScenario =
  values["per-scenario"] === undefined ? Number.POSITIVE_INFINITY : Number(values["per-scenario"]);
const every = Number(values.every);
const counts = new Map();
const picked = failures.filter((trajectory, index) => {
  if (index % every !== 0) return false;
  const scenario = trajectory.taskId.replace(/[_-]\d+$/, "");
  const count = counts.get(scenario) ?? 0;
  if (count >= perScenario) return false;
  counts.set(scenario, count + 1);
  return true;
});
const seen = new Set();
const rows = picked.map((trajectory) => {
  let id = `${trajectory.taskId}@${trajectory.seed}`;
  while (seen.has(id)) id += "'";
  seen.add(id);
  return JSON.stringify({ id, trajectory: excerptOf(trajectory) });
});
await writeFile(values.out, `${rows.join("\n")}\n`);
console.log(`${rows.length} of ${failures.length} failures -> ${values.out}`);
