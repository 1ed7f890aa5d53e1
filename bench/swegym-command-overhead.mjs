// The fixed cost of one SWE-Gym command on this machine: node's spawn, bash, the bubblewrap sandbox
// (namespaces, then the system and /etc binds), Python's start and pytest's import inside it. Each row
// is the mean of --repeat runs, rounds interleaved so load changes hit every row alike; `uptime`'s
// load average is printed beside the figures. The runner rows time the same commands through one
// sandbox hosting the local runtime's command runner (its start is timed apart).
//
//   pnpm build && node bench/swegym-command-overhead.mjs [--repeat 20] [--rounds 2]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SandboxCommandRunner } from "../packages/benchmarks-swegym/dist/runtime/command-runner.js";
import { bubblewrapArguments, detectBubblewrap } from "../packages/harness/dist/sandbox/index.js";

const { values } = parseArgs({
  options: { repeat: { type: "string", default: "20" }, rounds: { type: "string", default: "2" } },
});
const repeat = Number(values.repeat);
const privileges = detectBubblewrap();
if (privileges === null) throw new Error("bwrap cannot build a sandbox here: nothing to measure");
const directory = mkdtempSync(join(tmpdir(), "hs-command-overhead-"));
const sandbox = bubblewrapArguments({ writable: [directory], workingDirectory: directory }, privileges);
/** The sandbox without the /etc binds, to show what the binds cost. */
const withoutEtc = sandbox.filter(
  (argument, index) =>
    !(argument === "--ro-bind" && sandbox[index + 1]?.startsWith("/etc/")) &&
    !(sandbox[index - 1] === "--ro-bind" && argument.startsWith("/etc/")) &&
    !(sandbox[index - 2] === "--ro-bind" && argument.startsWith("/etc/")),
);
const rows = {
  "spawn /bin/true": ["/bin/true", []],
  "bash -c true": ["bash", ["--norc", "-c", "true"]],
  "bwrap true (no /etc binds)": ["bwrap", [...withoutEtc, "/bin/true"]],
  "bwrap true": ["bwrap", [...sandbox, "/bin/true"]],
  "bwrap bash -c true": ["bwrap", [...sandbox, "bash", "--norc", "-c", "true"]],
  "bwrap python3 -c pass": ["bwrap", [...sandbox, "/usr/bin/python3", "-c", "pass"]],
  "bwrap python3 -c 'import pytest'": ["bwrap", [...sandbox, "/usr/bin/python3", "-c", "import pytest"]],
};
const totals = Object.fromEntries(Object.keys(rows).map((label) => [label, 0]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [label, [file, args]] of Object.entries(rows)) {
    const began = performance.now();
    for (let run = 0; run < repeat; run++) {
      const result = spawnSync(file, args, { stdio: "pipe", env: { PATH: "/usr/bin:/bin" } });
      if (result.status !== 0) throw new Error(`${label} failed: ${result.stderr.toString()}`);
    }
    totals[label] += performance.now() - began;
  }
}
const runnerRows = {
  "runner bash -c true": ["bash", "--norc", "-c", "true"],
  "runner python3 -c pass": ["/usr/bin/python3", "-c", "pass"],
};
const env = { PATH: "/usr/bin:/bin" };
let runnerStartMs = 0;
for (const label of Object.keys(runnerRows)) totals[label] = 0;
for (let round = 0; round < Number(values.rounds); round++) {
  const began = performance.now();
  const runner = await SandboxCommandRunner.start({
    sandboxArguments: sandbox,
    python: "/usr/bin/python3",
    cwd: directory,
    env,
  });
  if (runner === null) throw new Error("the command runner did not start");
  runnerStartMs += performance.now() - began;
  for (const [label, argv] of Object.entries(runnerRows)) {
    const start = performance.now();
    for (let run = 0; run < repeat; run++) {
      const result = await runner.run({
        argv,
        cwd: directory,
        env,
        timeLimitMs: 10_000,
        maxOutputBytes: 1 << 20,
      });
      if (result.returncode !== 0) throw new Error(`${label} failed: ${result.output}`);
    }
    totals[label] += performance.now() - start;
  }
  await runner.close();
}
rmSync(directory, { recursive: true, force: true });
const runs = repeat * Number(values.rounds);
const ms = Object.fromEntries(
  Object.entries(totals).map(([label, total]) => [label, Number((total / runs).toFixed(1))]),
);
console.log(
  JSON.stringify({
    privileges,
    runs,
    msPerCommand: ms,
    runnerStartMs: Number((runnerStartMs / Number(values.rounds)).toFixed(1)),
    loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
  }),
);
