#!/usr/bin/env node
// The SWE-Gym grammar's ceiling: for how many instances does some sequence of the grammar's actions,
// run under the base harness (mini-swe-agent preset) and graded by the real SWE-bench grader, resolve
// the instance? An oracle policy (this script only: it reads the gold patch, which no policy may) walks
// the grammar's own decisions: list the files, show pages of the file the gold patch changes until the
// changed line is on screen, choose that line in `edit-line` and, in `rewrite`, the candidate equal to
// the gold line (a gold patch of several one-line replacements: each in turn, the tests run between,
// as the grammar asks), then submit. With --tries N, an instance that has no such path also gets N
// episodes per changed line, each submitting one of the first N rewrites the grammar offers for it
// (so another edit than the gold one may resolve it). Build first: pnpm build.
// Usage: node bench/swegym-grammar-ceiling.mjs [--split S ...] [--tries N] [--instance ID]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createSweGym } from "../packages/benchmarks-swegym/dist/index.js";
import { createSweGymGrammar, readView, viewContext } from "../packages/grammar-swegym/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";

const { values } = parseArgs({
  options: {
    split: { type: "string", multiple: true, default: ["train", "heldout", "heldout-repos"] },
    tries: { type: "string", default: "0" },
    instance: { type: "string" },
  },
});
const tries = Number(values.tries);
const grammar = createSweGymGrammar();

/** Line replacements of a unified diff (a line by one or two); not representable when a hunk adds or removes lines otherwise. */
function lineReplacements(patch) {
  const replacements = [];
  let file = null;
  let oldLine = 0;
  let removed = [];
  let added = [];
  let representable = true;
  const flush = () => {
    // one line replaced by two: a guard above it, which the grammar writes as one rewrite
    if (removed.length === 1 && added.length === 2) added = [added.join("\n")];
    if (removed.length !== added.length) representable = false;
    for (const [index, entry] of removed.entries()) {
      replacements.push({ file, line: entry.line, old: entry.text, new: added[index] });
    }
    removed = [];
    added = [];
  };
  for (const row of patch.split("\n")) {
    if (row.startsWith("+++ ")) {
      file = row.slice(4).replace(/^b\//, "");
      continue;
    }
    if (row.startsWith("--- ") || row.startsWith("diff ") || row.startsWith("index ")) continue;
    const hunk = /^@@ -(\d+)/.exec(row);
    if (hunk !== null) {
      flush();
      oldLine = Number(hunk[1]);
      continue;
    }
    if (row.startsWith("-")) removed.push({ line: oldLine++, text: row.slice(1) });
    else if (row.startsWith("+")) added.push(row.slice(1));
    else if (row.startsWith(" ") || row === "") {
      flush();
      oldLine++;
    }
  }
  flush();
  return { representable, replacements };
}

/** The labels the oracle takes in one view, walking the grammar's decisions with `choose`. */
function walk(view, choose) {
  const labels = [];
  for (let step = grammar.next(view, labels); !step.done; step = grammar.next(view, labels)) {
    const labelsOffered = step.decision.options.map((entry) => entry.label);
    labels.push(choose(step.decision.name, labelsOffered) ?? labelsOffered[0]);
  }
  return { labels, step: grammar.next(view, labels) };
}

/** The oracle's plan for one view: which kind, and which option of each later decision. */
function oracleChoice(view, targets, forced) {
  const read = readView(view);
  const context = viewContext(view);
  if (!read.explored) return () => "kind:explore";
  const open = targets.filter(
    (target) =>
      !read.edits.some((edit) => edit.applied && edit.file === target.file && edit.line === target.line),
  );
  if (open.length === 0) return (name) => (name === "kind" ? "kind:submit" : undefined);
  const target = open[0];
  const shown = read.shown.get(target.file)?.get(target.line);
  if (shown !== undefined && shown.text === target.old) {
    if (context.pendingEdit !== null) return (name) => (name === "kind" ? "kind:test" : "tests:all");
    return (name, labels) => {
      if (name === "kind") return "kind:edit";
      if (name === "edit-line") return `line:${target.file}:${target.line}`;
      if (name !== "rewrite") return undefined;
      if (forced !== undefined) return labels[forced] ?? "give-up";
      const line = context
        .editLines()
        .find((entry) => entry.file === target.file && entry.line === target.line);
      const index = line?.rewrites.findIndex((rewrite) => rewrite.text === target.new) ?? -1;
      return index < 0 ? "give-up" : labels[index];
    };
  }
  const ranges = read.shownRanges.get(target.file) ?? [];
  const end = Math.max(0, ...ranges.map(([, last]) => last));
  const page = ranges.length === 0 ? `top:${target.file}` : `next:${target.file}:${end + 1}`;
  return (name) => (name === "kind" ? "kind:show" : name === "show-region" ? page : undefined);
}

/** A policy that plays the oracle; `gaveUp` records why it stopped early. */
function oraclePolicy(targets, forced) {
  const policy = {
    specificationVersion: "v1",
    id: "swegym-oracle",
    version: "1",
    gaveUp: null,
    async act(view) {
      let plan = oracleChoice(view, targets, forced);
      const probe = (name, labels) => plan(name, labels);
      let { labels, step } = walk(view, probe);
      if (labels.includes("give-up") || readView(view).steps.length >= 20) {
        policy.gaveUp ??= labels.includes("give-up") ? "no such rewrite" : "step limit";
        plan = (name) => (name === "kind" ? "kind:submit" : undefined);
        ({ labels, step } = walk(view, plan));
      }
      return { content: step.content, logprob: 0, trace: { kind: "embedded-decisions", labels } };
    },
  };
  return policy;
}

const benchmark = await createSweGym({ actionGrammar: grammar });
const harness = benchmark.presets[benchmark.defaultPreset];
const figures = {};
for (const split of values.split) {
  const records = new Map(
    readFileSync(new URL(`../packages/benchmarks-swegym/data/${split}.jsonl`, import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line))
      .map((record) => [record.instance_id, record]),
  );
  const { tasks } = await benchmark.loadTasks({ split });
  const started = Date.now();
  const row = { resolved: 0, total: 0, byTries: 0, reasons: {}, steps: 0, episodes: 0 };
  for (const task of tasks) {
    if (values.instance !== undefined && task.metadata.instanceId !== values.instance) continue;
    const record = records.get(task.metadata.instanceId);
    const { representable, replacements } = lineReplacements(record.patch);
    row.total++;
    const run = async (forced, targets = replacements) => {
      const policy = oraclePolicy(targets, forced);
      const trajectory = await runEpisode({ task, benchmark, harness, policy, seed: 1 });
      row.steps += trajectory.steps.length;
      row.episodes++;
      return { resolved: trajectory.reward === 1, gaveUp: policy.gaveUp };
    };
    let outcome = representable
      ? await run(undefined)
      : { resolved: false, gaveUp: "gold adds or removes lines" };
    for (const target of replacements) {
      for (let index = 0; !outcome.resolved && index < tries; index++) {
        const attempt = await run(index, [target]);
        if (attempt.resolved) {
          outcome = attempt;
          row.byTries++;
        }
      }
    }
    if (outcome.resolved) row.resolved++;
    const reason = outcome.resolved ? "resolved" : (outcome.gaveUp ?? "graded unresolved");
    row.reasons[reason] = (row.reasons[reason] ?? 0) + 1;
    process.stderr.write(`${task.metadata.instanceId}: ${reason}\n`);
  }
  figures[split] = {
    resolved: row.resolved,
    total: row.total,
    share: row.total === 0 ? 0 : Number((row.resolved / row.total).toFixed(3)),
    resolvedByOtherRewrites: row.byTries,
    reasons: row.reasons,
    episodes: row.episodes,
    meanStepsPerEpisode: Number((row.steps / Math.max(1, row.episodes)).toFixed(2)),
    wallSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
  };
  console.log(JSON.stringify({ split, ...figures[split] }));
}
await benchmark.close?.();
