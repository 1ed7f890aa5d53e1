import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHarnessConfig, renderInitialMessages, runEpisode } from "@hs/harness";
import type { Task } from "@hs/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedPolicy } from "./__fixtures__/scripted-policy.js";
import { createSweGym, graderInstance, type SweGym } from "./create-swegym.js";
import type { SweInstance } from "./data/swe-instance.js";
import { benchmarkPlugin } from "./plugin.js";

const cache = mkdtempSync(join(tmpdir(), "hs-swegym-test-cache-"));
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-scratch-"));
let benchmark: SweGym;
const tasksBySplit: Record<string, Task[]> = {};

beforeAll(async () => {
  benchmark = await createSweGym({
    cacheDirectory: cache,
    scratchDirectory: scratch,
    commandTimeLimitMs: 20_000,
    gradeTimeLimitMs: 60_000,
  });
  for (const split of benchmark.splits) {
    const loaded = await benchmark.loadTasks({ split });
    expect(loaded.problems).toEqual([]);
    tasksBySplit[split] = loaded.tasks;
  }
}, 120_000);
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const instanceOf = (task: Task): SweInstance => {
  const instance = graderInstance(benchmark, task.id);
  if (instance === undefined) throw new Error(`no instance for ${task.id}`);
  return instance;
};
const episodeDirectories = () => readdirSync(scratch);

describe("bundled data", () => {
  it("has at least 80 instances over at least 8 repositories, split three ways", () => {
    const all = Object.values(tasksBySplit).flat();
    expect(all.length).toBeGreaterThanOrEqual(80);
    expect(new Set(all.map((task) => task.category)).size).toBeGreaterThanOrEqual(8);
    expect(benchmark.trainSplit).toBe("train");
    expect(benchmark.heldoutSplits).toEqual(["heldout", "heldout-repos"]);
  });

  it("never trains on held-out instances, and heldout-repos shares no repository with train", () => {
    const ids = (split: string) =>
      new Set((tasksBySplit[split] ?? []).map((task) => instanceOf(task).instance_id));
    const repos = (split: string) => new Set((tasksBySplit[split] ?? []).map((task) => task.category));
    for (const id of ids("heldout")) expect(ids("train").has(id)).toBe(false);
    for (const repo of repos("heldout-repos")) expect(repos("train").has(repo)).toBe(false);
    for (const repo of repos("heldout")) expect(repos("train").has(repo)).toBe(true);
  });

  it("rebuilds every recorded base_commit hash from the plain files (a fresh mirror was built for this test)", () => {
    // createSweGym built the mirror in an empty cache directory; ensureBundledMirror throws on any hash mismatch.
    const mirrors = readdirSync(cache).filter(
      (name) => name.startsWith("hs-swegym-mirror-") && !name.includes("building"),
    );
    expect(mirrors).toHaveLength(1);
    expect(readdirSync(join(cache, mirrors[0] as string)).filter((name) => name.includes("__"))).toHaveLength(
      8,
    );
  });
});

describe("conformance properties", () => {
  it("no gold field text appears in any task or in the rendered first view of any preset", () => {
    for (const task of Object.values(tasksBySplit).flat()) {
      const instance = instanceOf(task);
      const secrets = [
        ...instance.FAIL_TO_PASS.map((id) => id.split("::").at(-1) as string),
        ...instance.PASS_TO_PASS.map((id) => id.split("::").at(-1) as string),
        ...instance.patch
          .split("\n")
          .filter((line) => /^[+-][^+-]/.test(line) && line.trim().length > 12)
          .map((line) => line.slice(1)),
        ...instance.test_patch
          .split("\n")
          .filter((line) => line.startsWith("+") && line.trim().length > 12)
          .map((line) => line.slice(1)),
        "diff --git",
      ];
      const views = Object.values(benchmark.presets).map((preset) =>
        JSON.stringify(renderInitialMessages(preset.prompt, task, [])),
      );
      for (const text of [JSON.stringify(task), ...views]) {
        for (const secret of secrets) expect(text.includes(secret), `${task.id} shows ${secret}`).toBe(false);
      }
    }
  });

  it("every preset parses with parseHarnessConfig", () => {
    for (const preset of Object.values(benchmark.presets)) expect(parseHarnessConfig(preset)).toEqual(preset);
    expect(Object.keys(benchmark.presets)).toContain(benchmark.defaultPreset);
  });

  it("two episodes of one task never share a workspace, and close is idempotent", async () => {
    const task = tasksBySplit.train?.[0] as Task;
    const first = await benchmark.createEnvironment(task, { seed: 1 });
    const second = await benchmark.createEnvironment(task, { seed: 1 });
    await first.reset();
    await second.reset();
    const where = async (environment: typeof first) =>
      (await environment.step({ id: "a", name: "bash", arguments: { command: "pwd" } })).content;
    expect(await where(first)).not.toEqual(await where(second));
    await first.step({ id: "b", name: "bash", arguments: { command: "echo mine > marker.txt" } });
    const seen = await second.step({ id: "c", name: "bash", arguments: { command: "ls marker.txt" } });
    expect(seen.content).toContain("<returncode>2</returncode>");
    const before = episodeDirectories().length;
    await first.close();
    await first.close();
    await second.close();
    expect(episodeDirectories().length).toBe(before - 2);
  });

  it("grading is deterministic", async () => {
    const task = tasksBySplit.heldout?.[0] as Task;
    const grades = [];
    for (let round = 0; round < 2; round++) {
      const environment = await benchmark.createEnvironment(task, { seed: round });
      await environment.reset();
      grades.push(await environment.grade());
      await environment.close();
    }
    const strip = ({ log_tail: _log, ...rest }: Record<string, unknown>) => rest;
    expect(strip(grades[0]?.details ?? {})).toEqual(strip(grades[1]?.details ?? {}));
    expect(grades[0]?.reward).toBe(0);
  });
});

describe("mini-swe-agent episode", () => {
  it("re-prompts a format error, runs bash, submits by the sentinel, grades the submitted patch in a fresh workspace", {
    timeout: 180_000,
  }, async () => {
    const task = tasksBySplit.train?.[0] as Task;
    const instance = instanceOf(task);
    const fix = `THOUGHT: apply my fix\n\n\`\`\`bash\ngit apply <<'PATCH'\n${instance.patch}PATCH\n\`\`\``;
    const policy = scriptedPolicy([
      "THOUGHT: two things\n```bash\nls\n```\n```bash\npwd\n```",
      "THOUGHT: look\n\n```bash\nls\n```",
      fix,
      "THOUGHT: done\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached\n```",
    ]);
    const harness = benchmark.presets["mini-swe-agent"];
    if (harness === undefined) throw new Error("missing preset");
    const trajectory = await runEpisode({ task, benchmark, harness, policy, seed: 1 });
    expect(trajectory.endReason).toBe("submitted");
    expect(trajectory.success).toBe(true);
    expect(trajectory.reward).toBe(1);
    expect(trajectory.steps[0]?.events.map((event) => event.type)).toContain("malformed-action");
    expect(trajectory.steps[0]?.feedback).toMatch(
      /^Please always provide EXACTLY ONE action in triple backticks/,
    );
    expect(trajectory.steps[1]?.feedback).toMatch(/^<returncode>0<\/returncode>\n<output>\n/);
    expect(trajectory.steps[1]?.feedback).toContain("README.md");
    const firstView = JSON.stringify(policy.views[0]);
    expect(firstView).toContain(task.instruction.slice(0, 40));
    expect(firstView).not.toContain(instance.patch.slice(0, 60));
    expect(JSON.stringify(policy.views)).not.toContain("FAIL_TO_PASS");
  });

  it("an episode that never submits has the empty patch, not resolved and not run (as in SWE-bench)", async () => {
    const task = tasksBySplit.train?.[1] as Task;
    const policy = scriptedPolicy(["```bash\ntrue\n```"]);
    const harness = { ...benchmark.presets["mini-swe-agent"], budget: { maxSteps: 2, maxOutputChars: null } };
    const trajectory = await runEpisode({
      task,
      benchmark,
      harness: parseHarnessConfig(harness),
      policy,
      seed: 1,
    });
    expect(trajectory.endReason).toBe("budget");
    expect(trajectory.gradeDetails).toMatchObject({
      submitted: false,
      empty_patch: true,
      patch_successfully_applied: false,
      resolved: false,
    });
  });
});

describe("tool-calling episode", () => {
  it("edits with str_replace, submits with submit, and resolves", async () => {
    const changed = (task: Task, sign: string) =>
      instanceOf(task)
        .patch.split("\n")
        .filter((line) => line.startsWith(sign) && !line.startsWith(sign.repeat(3)))
        .map((line) => line.slice(1));
    const task = (tasksBySplit.train ?? []).find(
      (candidate) => changed(candidate, "-").length === 1 && changed(candidate, "+").length === 1,
    ) as Task;
    const instance = instanceOf(task);
    const removed = changed(task, "-");
    const added = changed(task, "+");
    const file = /^\+\+\+ b\/(.*)$/m.exec(instance.patch)?.[1] as string;
    const policy = scriptedPolicy([
      {
        content: "",
        logprob: 0,
        toolCalls: [{ id: "1", name: "str_replace_editor", arguments: { command: "view", path: file } }],
      },
      {
        content: "",
        logprob: 0,
        toolCalls: [
          {
            id: "2",
            name: "str_replace_editor",
            arguments: {
              command: "str_replace",
              path: file,
              old_str: removed.join("\n"),
              new_str: added.join("\n"),
            },
          },
        ],
      },
      { content: "", logprob: 0, toolCalls: [{ id: "3", name: "submit", arguments: {} }] },
    ]);
    const harness = benchmark.presets["tool-calling"];
    if (harness === undefined) throw new Error("missing preset");
    const trajectory = await runEpisode({ task, benchmark, harness, policy, seed: 2 });
    expect(trajectory.steps[0]?.executed[0]?.result.content).toMatch(
      /^Here's the result of running `cat -n`/,
    );
    expect(trajectory.steps[1]?.executed[0]?.result.isError).toBe(false);
    expect(trajectory.endReason).toBe("submitted");
    expect(trajectory.success).toBe(true);
  });

  it("refuses an edit outside the repository", async () => {
    const task = tasksBySplit.train?.[0] as Task;
    const environment = await benchmark.createEnvironment(task, { seed: 3 });
    await environment.reset();
    const result = await environment.step({
      id: "x",
      name: "str_replace_editor",
      arguments: { command: "create", path: "/etc/hs-swegym-escape", file_text: "x" },
    });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain("outside the repository");
    const written = await environment.step({
      id: "y",
      name: "bash",
      arguments: { command: "echo x > /etc/hs-swegym-escape" },
    });
    expect(written.content).toMatch(/Read-only file system/);
    await environment.close();
  });
});

describe("bad input", () => {
  const writeData = (instances: SweInstance[]) => {
    const file = join(cache, `bad-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(file, instances.map((instance) => JSON.stringify(instance)).join("\n"));
    return file;
  };

  it("a repository missing from the mirror ends the episode with a stated error, and the next episode is fine", async () => {
    const base = instanceOf(tasksBySplit.train?.[0] as Task);
    const file = writeData([{ ...base, instance_id: "nobody__missing-1", repo: "harness-s/missing" }]);
    const { tasks } = await benchmark.loadTasks({ path: file });
    const policy = scriptedPolicy(["```bash\nls\n```"]);
    const harness = benchmark.presets["mini-swe-agent"];
    if (harness === undefined) throw new Error("missing preset");
    const trajectory = await runEpisode({ task: tasks[0] as Task, benchmark, harness, policy, seed: 1 });
    expect(trajectory.endReason).toBe("error");
    expect(trajectory.error).toMatch(/repository harness-s\/missing is not in the mirror/);
    const report = await benchmark.goldReplay?.({ tasks: { path: file } });
    expect(report).toMatchObject({ passed: 0, total: 1, emptyPassed: 0 });
    expect(report?.failures[0]?.reason).toMatch(/not in the mirror/);
    const environment = await benchmark.createEnvironment(tasksBySplit.train?.[0] as Task, { seed: 9 });
    await environment.reset();
    expect(
      (await environment.step({ id: "z", name: "bash", arguments: { command: "echo ok" } })).content,
    ).toContain("ok");
    await environment.close();
  });

  it("a repository unknown to the spec map is a stated failure, not a crash", async () => {
    const base = instanceOf(tasksBySplit.train?.[0] as Task);
    const file = writeData([{ ...base, instance_id: "elsewhere__lib-1", repo: "elsewhere/lib" }]);
    const { tasks } = await benchmark.loadTasks({ path: file });
    const environment = await benchmark.createEnvironment(tasks[0] as Task, { seed: 1 });
    await expect(environment.reset()).rejects.toThrow(
      /no spec for elsewhere\/lib version 1.0: add it with --specs FILE/,
    );
    await environment.close();
    const harness = benchmark.presets["tool-calling"];
    if (harness === undefined) throw new Error("missing preset");
    const policy = scriptedPolicy(["```bash\nls\n```"]);
    const trajectory = await runEpisode({ task: tasks[0] as Task, benchmark, harness, policy, seed: 1 });
    expect(trajectory.endReason).toBe("error");
    expect(trajectory.error).toMatch(/no spec for elsewhere\/lib/);
    const report = await benchmark.goldReplay?.({ tasks: { path: file } });
    expect(report?.failures[0]?.reason).toMatch(/no spec for elsewhere\/lib/);
  });

  it("--specs FILE adds a repository's spec; a bad spec file names file and field", async () => {
    const specs = join(cache, "specs.json");
    writeFileSync(
      specs,
      JSON.stringify({ "elsewhere/lib": { "1.0": { test_cmd: "python3 -m pytest -rA" } } }),
    );
    const withSpecs = await createSweGym({ cacheDirectory: cache, scratchDirectory: scratch, specs });
    const base = instanceOf(tasksBySplit.train?.[0] as Task);
    const file = writeData([{ ...base, instance_id: "elsewhere__lib-2", repo: "elsewhere/lib" }]);
    const { tasks } = await withSpecs.loadTasks({ path: file });
    const environment = await withSpecs.createEnvironment(tasks[0] as Task, { seed: 1 });
    await expect(environment.reset()).rejects.toThrow(/repository elsewhere\/lib is not in the mirror/);
    await environment.close();
    writeFileSync(specs, JSON.stringify({ "elsewhere/lib": { "1.0": { install: "pip install ." } } }));
    await expect(createSweGym({ cacheDirectory: cache, specs })).rejects.toThrow(
      /specs\.json, field "elsewhere\/lib\.1\.0\.test_cmd"/,
    );
  });

  it("a submitted patch that does not apply is graded as not applied", async () => {
    const task = tasksBySplit.train?.[0] as Task;
    const environment = await benchmark.createEnvironment(task, { seed: 4 });
    await environment.reset();
    const garbage = "diff --git a/nope.py b/nope.py\n--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-x\n+y\n";
    const submitted = await environment.step({
      id: "s",
      name: "bash",
      arguments: { command: `printf 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\\n%s' '${garbage}'` },
    });
    expect(submitted.done).toBe(true);
    const grade = await environment.grade();
    expect(grade).toMatchObject({ reward: 0, success: false });
    expect(grade.details).toMatchObject({ patch_exists: true, patch_successfully_applied: false });
    await environment.close();
  });
});

describe("bash tool limits", () => {
  it("times out a command with mini-swe-agent's message, cuts long output, bounds endless writers, reads binary output", async () => {
    const limited = await createSweGym({
      cacheDirectory: cache,
      scratchDirectory: scratch,
      commandTimeLimitMs: 1_000,
      maxOutputBytes: 200_000,
    });
    const { tasks } = await limited.loadTasks({ split: "train" });
    const environment = await limited.createEnvironment(tasks[0] as Task, { seed: 5 });
    await environment.reset();
    const bash = (command: string) => environment.step({ id: "b", name: "bash", arguments: { command } });
    const hung = await bash("sleep 30");
    expect(hung).toMatchObject({ isError: true, done: false });
    expect(hung.content).toMatch(
      /^The last command <command>sleep 30<\/command> timed out and has been killed\./,
    );
    const long = await bash("yes abcd | head -c 20000");
    expect(long.content).toContain("<elided_chars>\n10000 characters elided\n</elided_chars>");
    const endless = await bash("yes hs-swegym");
    expect(endless.isError).toBe(true);
    expect(endless.content).toMatch(/output passed 200000 bytes; the command was killed/);
    const binary = await bash("head -c 3000 /dev/urandom; echo");
    expect(binary.content).toMatch(/^<returncode>0<\/returncode>/);
    expect(binary.content).toContain("\uFFFD");
    expect((await bash("echo still fine")).content).toContain("still fine");
    await environment.close();
    expect(episodeDirectories()).toEqual([]);
  });
});

describe("plugin", () => {
  it("is named swegym with the options hs passes, and creates the benchmark", async () => {
    expect(benchmarkPlugin.id).toBe("swegym");
    expect(Object.keys(benchmarkPlugin.options)).toEqual(
      expect.arrayContaining(["repos", "specs", "runtime"]),
    );
    await expect(benchmarkPlugin.createBenchmark({ runtime: "podman" })).rejects.toThrow(
      /--runtime expects local or docker/,
    );
    const created = await benchmarkPlugin.createBenchmark({ repos: cache });
    expect(created.id).toBe("swegym");
  });
});
