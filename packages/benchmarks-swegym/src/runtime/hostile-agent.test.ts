import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type HostileProbe,
  hostileProbes,
  hostileScript,
  newFilesPatch,
  probeOutcomes,
} from "../__fixtures__/hostile-probes.js";
import { createTinyMirror, tinySpec } from "../__fixtures__/tiny-repo.js";
import { createSweGym } from "../create-swegym.js";
import { runEvaluation } from "../evaluation/run-evaluation.js";
import { parseLogPytest } from "../grading/log-parsers.js";
import { createLocalRuntime } from "./local-runtime.js";
import { detectIsolation, type IsolationLevel } from "./sandbox.js";

const isolation = detectIsolation();
const skipReason = "bwrap is not installed or cannot make namespaces here: the sandbox cases are skipped";
if (isolation === "none") console.warn(`hostile agent (SWE-Gym): ${skipReason}`);

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const fixture = createTinyMirror();
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-hostile-"));
const hostDirectory = mkdtempSync(join(repositoryRoot, "packages/benchmarks-swegym/.hostile-"));
const hostFile = join(hostDirectory, "host-file.txt");
const hiddenFile = join(scratch, "hidden", "gold.txt");
const keys = { TINKER_API_KEY: "tinker-secret-hostile", OPENAI_API_KEY: "openai-secret-hostile" };
let server: Server;
let hostPort = 0;
let connections = 0;
const savedKeys = { TINKER_API_KEY: process.env.TINKER_API_KEY, OPENAI_API_KEY: process.env.OPENAI_API_KEY };

beforeAll(async () => {
  writeFileSync(hostFile, "original\n");
  mkdirSync(dirname(hiddenFile));
  writeFileSync(hiddenFile, "the gold patch\n");
  Object.assign(process.env, keys);
  server = createServer((socket) => {
    connections += 1;
    socket.end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  hostPort = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedKeys)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await new Promise<void>((done) => server.close(() => done()));
  fixture.remove();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(hostDirectory, { recursive: true, force: true });
});

const checkout = (
  runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, scratchDirectory: scratch }),
) =>
  runtime.createWorkspace({
    instanceId: fixture.instance.instance_id,
    repo: fixture.instance.repo,
    baseCommit: fixture.instance.base_commit,
  });

const script = () => hostileScript({ hostFile, hiddenFile, hostPort, repositoryRoot });

/** Every probe blocked, the host file intact, no connection reached the host's port. */
function expectAllBlocked(output: string): void {
  const outcomes = probeOutcomes(output);
  for (const [probe, mechanism] of Object.entries(hostileProbes)) {
    const found = outcomes.get(probe);
    expect(found, `${probe} did not run: ${output.slice(-2000)}`).toBeDefined();
    expect(found?.outcome, `${probe} (stopped by: ${mechanism}): ${found?.detail}`).toBe("blocked");
  }
  expect(readFileSync(hostFile, "utf8")).toBe("original\n");
  expect(connections).toBe(0);
}

describe.skipIf(isolation === "none")("hostile agent commands (bubblewrap)", () => {
  it("refuses every escape a hostile root agent tries, each by its mechanism", async () => {
    const workspace = await checkout();
    const result = await workspace.run(script(), { timeLimitMs: 40_000 });
    await workspace.close();
    expectAllBlocked(result.output);
    const outcomes = probeOutcomes(result.output);
    expect(outcomes.get("capabilities" satisfies HostileProbe)?.detail).toBe("CapEff=0000000000000000");
    // the 3 GB allocation is killed by the cgroup (137) or refused by RLIMIT_AS (MemoryError, 1)
    expect(outcomes.get("memory-3gb")?.detail).toMatch(/^rc=(137|1) /);
    expect(outcomes.get("processes-300")?.detail).toMatch(/^started=(\d+)$/);
    expect(Number(outcomes.get("processes-300")?.detail.slice(8))).toBeLessThan(256);
  }, 60_000);

  it("refuses them through the benchmark's bash tool, the path an `hs eval` episode takes", async () => {
    const benchmark = await createSweGym({ cacheDirectory: scratch, scratchDirectory: scratch });
    const { tasks } = await benchmark.loadTasks({ split: "train" });
    const environment = await benchmark.createEnvironment(tasks[0]!, { seed: 1 });
    await environment.reset();
    const result = await environment.step({ id: "h", name: "bash", arguments: { command: script() } });
    await environment.close();
    expectAllBlocked(String(result.content));
  }, 60_000);

  it("refuses the same escapes from a conftest.py of the graded patch", async () => {
    const conftest = [
      "import subprocess",
      "def pytest_report_header(config):",
      "    run = subprocess.run(['bash', 'hostile.sh'], capture_output=True, text=True)",
      "    return run.stdout.splitlines()",
    ].join("\n");
    const patch = `${fixture.instance.patch}${newFilesPatch({ "conftest.py": `${conftest}\n`, "hostile.sh": script() })}`;
    const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, scratchDirectory: scratch });
    const result = await runEvaluation({
      instance: fixture.instance,
      spec: tinySpec,
      parser: parseLogPytest,
      patch,
      runtime,
      timeLimitMs: 60_000,
      condaEnvironment: null,
    });
    expect(result.log).toContain(">>>>> Applied Patch");
    expectAllBlocked(result.log);
    expect(result.report.resolved).toBe(true);
  }, 60_000);

  it("does not run $(...) in a test file name of the test patch (the eval script quotes it)", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
    const name = "tests/test_$(echo${IFS}ran-$((6*7))).py";
    const testPatch = `${fixture.instance.test_patch}${newFilesPatch({ [name]: "def test_name():\n    pass\n" })}`;
    const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, scratchDirectory: scratch });
    const result = await runEvaluation({
      instance: { ...fixture.instance, test_patch: testPatch },
      spec: tinySpec,
      parser: parseLogPytest,
      patch: fixture.instance.patch,
      runtime,
      timeLimitMs: 60_000,
      condaEnvironment: null,
    });
    expect(result.log).not.toContain("ran-42");
    expect(result.statusMap[`${name}::test_name`]).toBe("PASSED");
  }, 60_000);
});

describe("hostile agent commands (any isolation)", () => {
  const levels: IsolationLevel[] = isolation === "none" ? ["none"] : ["none", "bubblewrap"];
  it.each(levels)(
    "with isolation %s: no caller key reaches a command, and git config --global writes the workspace's HOME",
    async (level) => {
      const home = mkdtempSync(join(tmpdir(), "hs-swegym-user-home-"));
      const savedHome = process.env.HOME;
      process.env.HOME = home;
      try {
        const runtime = createLocalRuntime({
          mirrorDirectory: fixture.mirror,
          scratchDirectory: scratch,
          isolation: level,
        });
        const workspace = await checkout(runtime);
        const result = await workspace.run(
          "env | grep -c -E '^(TINKER_API_KEY|OPENAI_API_KEY)='; git config --global --add safe.directory /x && git config --global --get safe.directory && echo $HOME",
        );
        await workspace.close();
        expect(result.output.trim().split("\n")).toEqual(["0", "/x", expect.stringMatching(/\/home$/)]);
        expect(existsSync(join(home, ".gitconfig"))).toBe(false);
      } finally {
        process.env.HOME = savedHome;
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});

if (isolation === "none") describe.skip(`hostile agent commands (bubblewrap): ${skipReason}`, () => {});
