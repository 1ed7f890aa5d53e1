import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createWorkspaceCgroup, removeWorkspaceCgroup, type WorkspaceCgroup } from "@hs/harness/sandbox";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { createLocalRuntime } from "./local-runtime.js";
import { detectIsolation } from "./sandbox.js";

const fixture = createTinyMirror();
afterAll(() => fixture.remove());
const isolation = detectIsolation();
if (isolation === "none")
  console.warn("local runtime: bubblewrap does not work here; sandbox tests skipped (isolation none)");
const probe = createWorkspaceCgroup(`hs-swegym-probe-${process.pid}`, {
  maxProcesses: 8,
  memoryBytes: 1 << 26,
});
if (probe !== undefined) await removeWorkspaceCgroup(probe);
if (probe?.enforced.has("processes") !== true)
  console.warn("local runtime: no writable pids cgroup here; the fork-bomb test is skipped");

const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, maxProcesses: 64 });
const checkout = () =>
  runtime.createWorkspace({
    instanceId: fixture.instance.instance_id,
    repo: fixture.instance.repo,
    baseCommit: fixture.instance.base_commit,
  });

describe("local runtime", () => {
  it("checks out the base commit alone (no other history), and removes the workspace on close", async () => {
    const workspace = await checkout();
    const log = await workspace.run("git log --all --oneline | wc -l && git rev-parse HEAD");
    expect(log.output.trim().split("\n")).toEqual(["1", fixture.instance.base_commit]);
    expect(existsSync(workspace.directory)).toBe(true);
    const cgroup = (workspace as unknown as { cgroup?: WorkspaceCgroup }).cgroup;
    await workspace.close();
    await workspace.close();
    expect(existsSync(workspace.directory)).toBe(false);
    for (const directory of cgroup?.directories ?? []) expect(existsSync(directory)).toBe(false);
  });

  it.skipIf(isolation === "none")(
    "cannot write outside the workspace, has no network, cannot see the mirror",
    async () => {
      const workspace = await checkout();
      const outside = await workspace.run("touch /root/hs-swegym-escape 2>&1; echo rc=$?");
      expect(outside.output).toMatch(/(Read-only file system|No such file or directory)[\s\S]*rc=1/);
      const network = await workspace.run(
        "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), 2)\" 2>&1 | tail -1",
      );
      expect(network.output).toMatch(/Network is unreachable|OSError/);
      const mirror = await workspace.run(`ls ${fixture.mirror} 2>/dev/null | wc -l`);
      expect(mirror.output.trim()).toBe("0");
      await workspace.close();
    },
  );

  it("kills a command at its time limit with its whole process tree", async () => {
    const workspace = await checkout();
    const began = Date.now();
    const result = await workspace.run("(sleep 300 &) ; sleep 300 & sleep 300", { timeLimitMs: 800 });
    expect(result).toMatchObject({ timedOut: true, returncode: null });
    expect(Date.now() - began).toBeLessThan(10_000);
    const ps = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).length;
    expect(ps).toBeGreaterThan(0);
    const after = await workspace.run("echo fine");
    expect(after.output).toBe("fine\n");
    await workspace.close();
  });

  it("stops an endless writer at the output limit", async () => {
    const workspace = await checkout();
    const result = await workspace.run("yes hs-swegym", { maxOutputBytes: 100_000, timeLimitMs: 30_000 });
    expect(result.outputLimited).toBe(true);
    expect(result.output.length).toBeLessThanOrEqual(100_000);
    expect(result.elapsedMs).toBeLessThan(20_000);
    await workspace.close();
  });

  it("decodes binary output with replacement characters", async () => {
    const workspace = await checkout();
    const result = await workspace.run("printf 'a\\377\\376b\\000c'");
    expect(result.returncode).toBe(0);
    expect(result.output).toBe("a\uFFFD\uFFFDb\u0000c");
    await workspace.close();
  });

  it.skipIf(probe?.enforced.has("processes") !== true)(
    "caps a fork bomb at the workspace's process limit and recovers",
    async () => {
      const workspace = await checkout();
      const result = await workspace.run("bomb() { bomb | bomb & }; bomb; sleep 5", { timeLimitMs: 3_000 });
      expect(result.returncode === null || result.returncode !== 0 || result.timedOut).toBe(true);
      await workspace.close();
      const next = await checkout();
      expect((await next.run("echo fine")).output).toBe("fine\n");
      await next.close();
    },
  );

  it("puts the given Python first on PATH as python, python3 and pytest", async () => {
    const python = "/usr/bin/python3";
    const withPython = createLocalRuntime({ mirrorDirectory: fixture.mirror, python });
    const workspace = await withPython.createWorkspace({
      instanceId: fixture.instance.instance_id,
      repo: fixture.instance.repo,
      baseCommit: fixture.instance.base_commit,
    });
    const realpath = "import os, sys; print(os.path.realpath(sys.executable))";
    const found = await workspace.run(
      `python3 -c '${realpath}'; python -c '${realpath}'; pytest --version 2>&1; git status --porcelain | wc -l`,
    );
    const expected = await workspace.run(`${python} -m pytest --version 2>&1`);
    const real = realpathSync(python);
    expect(found.output.trim().split("\n")).toEqual([real, real, expected.output.trim(), "0"]);
    await workspace.close();
  });

  it.skipIf(isolation === "none")(
    "shows a --sandbox-bind path read-only, and refuses a --python the sandbox would not show",
    async () => {
      const shared = mkdtempSync(join(tmpdir(), "hs-swegym-bind-"));
      writeFileSync(join(shared, "tool.txt"), "prebuilt\n");
      mkdirSync(join(shared, "data"));
      writeFileSync(join(shared, "data", "gold.txt"), "gold\n");
      const withBind = createLocalRuntime({
        mirrorDirectory: fixture.mirror,
        sandboxBinds: [shared],
        hiddenPaths: [join(shared, "data")],
      });
      const workspace = await withBind.createWorkspace({
        instanceId: fixture.instance.instance_id,
        repo: fixture.instance.repo,
        baseCommit: fixture.instance.base_commit,
      });
      const result = await workspace.run(
        `cat ${shared}/tool.txt; touch ${shared}/new 2>&1 | grep -c Read-only; ls ${shared}/data | wc -l`,
      );
      await workspace.close();
      expect(result.output).toBe("prebuilt\n1\n0\n");
      const python = join(shared, "bin", "python3");
      mkdirSync(dirname(python));
      symlinkSync("/usr/bin/python3", python);
      expect(() => createLocalRuntime({ mirrorDirectory: fixture.mirror, python })).not.toThrow();
      expect(() =>
        createLocalRuntime({ mirrorDirectory: fixture.mirror, python: join(tmpdir(), "no-such", "python") }),
      ).toThrow(/is not visible inside the sandbox[\s\S]*--sandbox-bind/);
      expect(() =>
        createLocalRuntime({ mirrorDirectory: fixture.mirror, sandboxBinds: ["relative/dir"] }),
      ).toThrow(/--sandbox-bind expects an existing absolute path, got "relative\/dir"/);
      rmSync(shared, { recursive: true, force: true });
    },
  );

  it("names the missing repository", async () => {
    await expect(
      runtime.createWorkspace({
        instanceId: "x",
        repo: "nobody/nothing",
        baseCommit: fixture.instance.base_commit,
      }),
    ).rejects.toThrow(/repository nobody\/nothing is not in the mirror/);
  });

  it("names a base commit the mirror does not have, and leaves no directory behind", async () => {
    await expect(
      runtime.createWorkspace({ instanceId: "x", repo: fixture.instance.repo, baseCommit: "0".repeat(40) }),
    ).rejects.toThrow(/cannot check out fixture\/calc at 0{40}/);
  });
});
