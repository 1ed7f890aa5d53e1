// `hs quickstart` on a small benchmark plugin, N times in a row, each in a fresh experiment directory:
// counts the runs that fail (exit status not 0, or no results.json / report) and prints each run's
// wall time. quickstart once read an evaluation's result before the job that writes it had finished
// (ENOENT on runs/METHOD/seed-S/eval-SPLIT.json, a few runs in ten); this measures that it stays fixed.
// The plugin is the tiny spelling benchmark the trainer's tests load by path, and the budget options
// are the smallest that still run every stage (evolve, profile, train grpo and harness-s over two
// seeds, every evaluation and Rank-1).
//
//   pnpm build && node bench/quickstart-repeat.mjs [--runs 20] [--workers 2] [--keep]
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "apps/trainer/dist/cli.js");
const plugin = join(root, "apps/trainer/src/__fixtures__/plugins/tiny-benchmark/index.js");

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    workers: { type: "string", default: "2" },
    keep: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const smallest = [
  ...["--seeds", "2", "--methods", "grpo,harness-s", "--budget", "8", "--group-size", "4"],
  ...["--prompts-per-step", "2", "--rollouts", "1", "--generations", "1", "--candidates", "1"],
];

function quickstart(out) {
  return new Promise((done) => {
    const started = Date.now();
    const args = [
      cli,
      "quickstart",
      "--bench",
      plugin,
      ...smallest,
      "--workers",
      values.workers,
      "--out",
      out,
    ];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdout.resume();
    child.on("close", (code) => done({ code, stderr, seconds: (Date.now() - started) / 1000 }));
  });
}

const scratch = await mkdtemp(join(tmpdir(), "hs-quickstart-repeat-"));
const results = [];
for (let index = 1; index <= runs; index += 1) {
  const out = join(scratch, `run-${index}`);
  const { code, stderr, seconds } = await quickstart(out);
  const complete = existsSync(join(out, "results.json")) && existsSync(join(out, "report", "index.html"));
  const failed = code !== 0 || !complete;
  results.push({ index, code, seconds, failed });
  const reason = failed ? ` FAILED: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : "";
  console.log(`run ${String(index).padStart(2)}: exit ${code}, ${seconds.toFixed(1)} s${reason}`);
  if (failed) await writeFile(join(scratch, `run-${index}.stderr.txt`), stderr);
  if (!failed && !values.keep) await rm(out, { recursive: true, force: true });
}
const times = results.map((result) => result.seconds).sort((a, b) => a - b);
const failures = results.filter((result) => result.failed).length;
const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
console.log(
  `\n${runs} runs: ${failures} failed; wall time per run mean ${mean.toFixed(1)} s, median ${times[Math.floor(times.length / 2)].toFixed(1)} s, min ${times[0].toFixed(1)} s, max ${times.at(-1).toFixed(1)} s`,
);
console.log(failures === 0 && !values.keep ? `(scratch ${scratch} removed)` : `(scratch kept: ${scratch})`);
if (failures === 0 && !values.keep) await rm(scratch, { recursive: true, force: true });
process.exitCode = failures === 0 ? 0 : 1;
