// Figures the experiment bench scripts read from runs: a run file read or the script stopped with its
// name (exit 1), an evaluation's success, the rescue counters of a run's metrics.jsonl and their line,
// mean, sample sd, Welch's t, table rows.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Stops the script with `message` on stderr (exit 1). */
export function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The text of a run file, or stops the script naming the file and the command that writes it. */
export function readRunFile(file, writer) {
  return existsSync(file) ? readFileSync(file, "utf8") : fail(`${file}: missing (${writer} writes it)`);
}

/** The held-out success of a run's `hs eval --split SPLIT --json` output (DIR/eval-SPLIT.json). */
export function evaluationSuccess(run, split) {
  const file = join(run, `eval-${split}.json`);
  let evaluation;
  try {
    evaluation = JSON.parse(readRunFile(file, `hs eval --split ${split} --json`));
  } catch {
    fail(`${file}: not JSON (expected the output of hs eval --json)`);
  }
  return typeof evaluation?.success === "number" ? evaluation.success : fail(`${file}: no numeric "success"`);
}

/**
 * The step counters of a run's metrics.jsonl summed over its steps: rescues, their rollouts, groups
 * saved, rescues the gate held back, harness-call steps credited, replays run and kept under the base
 * harness (`--rescue-replay base`), and per sibling the rollouts it was
 * given and the groups it saved (`sibling:ID:rollouts`, `sibling:ID:successes`).
 */
export function rescueCountsOf(file) {
  const counts = {
    attempts: 0,
    rollouts: 0,
    saved: 0,
    gated: 0,
    credited: 0,
    replays: 0,
    kept: 0,
    siblings: {},
  };
  for (const [index, line] of readRunFile(file, "hs train").split("\n").entries()) {
    if (line.trim() === "") continue;
    let step;
    try {
      step = JSON.parse(line);
    } catch {
      fail(`${file}:${index + 1}: not a JSON line`);
    }
    const rescue = step.rescue ?? {};
    counts.attempts += rescue.attempts ?? 0;
    counts.rollouts += step.rolloutsRescue ?? 0;
    counts.saved += rescue.successes ?? 0;
    counts.gated += rescue.gated ?? 0;
    counts.credited += rescue.creditedSteps ?? 0;
    counts.replays += rescue.replays ?? 0;
    counts.kept += rescue.replaysKept ?? 0;
    for (const [key, value] of Object.entries(rescue)) {
      const sibling = /^sibling:(.+):(rollouts|successes)$/.exec(key);
      if (sibling === null) continue;
      const [, id, counter] = sibling;
      counts.siblings[id] ??= { rollouts: 0, successes: 0 };
      counts.siblings[id][counter] += value;
    }
  }
  return counts;
}

export const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export const sd = (values) => {
  if (values.length < 2) return 0;
  const center = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - center) ** 2, 0) / (values.length - 1));
};

/** Welch's t of `first` against `second`, null when both have no spread. */
export const welch = (first, second) => {
  const error = Math.sqrt(sd(first) ** 2 / first.length + sd(second) ** 2 / second.length);
  return error === 0 ? null : (mean(first) - mean(second)) / error;
};

export const format = (value) => value.toFixed(3);

/** One line of an arm's rescue counters per seed (`rescueCountsOf` of each seed's run). */
export const rescueLine = (name, perSeed) => {
  const list = (key) => perSeed.map((counts) => counts[key]).join(", ");
  return `${name}, per seed: rescues ${list("attempts")}; their rollouts ${list("rollouts")}; groups saved ${list("saved")}; held back by the gate ${list("gated")}; harness-call steps credited ${list("credited")}; replays ${list("replays")}, kept ${list("kept")}`;
};

export const row = (cells) => `| ${cells.join(" | ")} |`;
