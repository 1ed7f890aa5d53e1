// A fingerprint of what the three action grammars offer, to show that a refactoring left them unchanged:
// every step view of the given trajectory files (`hs eval --trajectories F`, `hs train`'s trajectories) is
// replayed through its benchmark's grammar along four walks (the labels the policy chose, always the first
// option, always the last, a seeded pseudo-random one), and every decision met (name, labels, feature
// vectors), finished action and error (an unknown kind, an unknown label at a deeper decision) is written
// as a JSON line. Prints the number of views and the sha256 of those lines; --out FILE keeps them (diff
// two such files to find where grammars differ). Run it before and after a change on the same files.
// Usage: pnpm build && node bench/grammar-replay-hash.mjs [--out FILE] TRAJECTORIES.jsonl...
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { grammarPlugin as appworld } from "../packages/grammar-appworld/dist/index.js";
import { grammarPlugin as dbbench } from "../packages/grammar-dbbench/dist/index.js";
import { grammarPlugin as swegym } from "../packages/grammar-swegym/dist/index.js";

const { values, positionals } = parseArgs({ options: { out: { type: "string" } }, allowPositionals: true });
if (positionals.length === 0)
  throw new Error("usage: node bench/grammar-replay-hash.mjs [--out FILE] TRAJECTORIES.jsonl...");
const grammars = Object.fromEntries(
  [appworld, dbbench, swegym].map((plugin) => [plugin.benchmark, plugin.createGrammar()]),
);
const sink = values.out === undefined ? undefined : createWriteStream(values.out);
const hash = createHash("sha256");
const write = (value) => {
  const line = `${JSON.stringify(value)}\n`;
  hash.update(line);
  sink?.write(line);
};

function safeNext(grammar, view, chosen) {
  try {
    return grammar.next(view, chosen);
  } catch (error) {
    return { error: `${error?.constructor?.name}: ${error?.message}` };
  }
}

function walk(grammar, view, pick) {
  const chosen = [];
  for (let depth = 0; depth < 80; depth++) {
    const step = safeNext(grammar, view, chosen);
    write({ chosen, step });
    if (step.error !== undefined || step.done) return chosen;
    const option = step.decision.options[pick(step.decision.options.length)];
    if (option === undefined) return chosen;
    chosen.push(option.label);
  }
  return chosen;
}

let state = 12345;
const seeded = (count) => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state % count;
};

function replayView(grammar, trajectory, step) {
  const view = step.view;
  write({ task: trajectory.taskId, step: step.index });
  const labels = step.action?.trace?.labels ?? [];
  for (let at = 0; at <= labels.length; at++)
    write({ chosen: labels.slice(0, at), step: safeNext(grammar, view, labels.slice(0, at)) });
  const first = walk(grammar, view, () => 0);
  walk(grammar, view, (count) => count - 1);
  walk(grammar, view, seeded);
  write({ bogus: safeNext(grammar, view, ["kind:no-such-kind"]) });
  if (first.length > 1)
    write({ bogusDeep: safeNext(grammar, view, [...first.slice(0, -1), "no-such:label"]) });
}

let views = 0;
for (const file of positionals) {
  for await (const line of createInterface({ input: createReadStream(file) })) {
    const trajectory = JSON.parse(line);
    const grammar = grammars[trajectory.benchmark];
    if (grammar === undefined) throw new Error(`${file}: no grammar for benchmark "${trajectory.benchmark}"`);
    for (const step of trajectory.steps) {
      views++;
      replayView(grammar, trajectory, step);
    }
  }
}
sink?.end();
console.log(`${views} views, sha256 ${hash.digest("hex")}`);
