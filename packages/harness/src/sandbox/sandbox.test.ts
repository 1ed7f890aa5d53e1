import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bubblewrapArguments, detectBubblewrap, etcFiles, visibleInside } from "./bubblewrap.js";
import { rlimitCommand } from "./rlimit-command.js";
import { sandboxEnvironment } from "./sandbox-environment.js";
import { createWorkspaceCgroup, joinCgroupCommand, removeWorkspaceCgroup } from "./workspace-cgroup.js";

const privileges = detectBubblewrap();
const workspace = mkdtempSync(join(tmpdir(), "hs-sandbox-test-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe("sandbox", () => {
  it("passes only allow-listed variables", () => {
    const environment = sandboxEnvironment(
      { HOME: "/w" },
      { PATH: "/usr/bin", TINKER_API_KEY: "secret", OPENAI_API_KEY: "secret", HOME: "/root" },
    );
    expect(environment).toEqual({ PATH: "/usr/bin", HOME: "/w" });
  });

  it("binds system directories, never the root", () => {
    const args = bubblewrapArguments(
      { writable: [workspace], workingDirectory: workspace },
      "user-namespace",
    );
    const binds = args.flatMap((arg, index) => (arg === "--ro-bind" ? [args[index + 1]] : []));
    expect(binds).toContain("/usr");
    expect(binds).not.toContain("/");
    expect(binds.some((path) => path?.startsWith("/work") || path?.startsWith("/root"))).toBe(false);
    expect(visibleInside(process.cwd(), { writable: [workspace] })).toBe(false);
    expect(visibleInside("/usr/bin/env", { writable: [workspace] })).toBe(true);
  });

  it.skipIf(privileges === null)("runs a command with no capabilities as nobody", () => {
    const args = bubblewrapArguments({ writable: [workspace], workingDirectory: workspace }, privileges!);
    const run = spawnSync("bwrap", [...args, "/bin/sh", "-c", "grep CapEff /proc/self/status; id -u; pwd"], {
      encoding: "utf8",
    });
    const expectedUid = privileges === "capabilities-dropped" ? String(process.getuid?.()) : "65534";
    expect(run.stdout.trim().split("\n")).toEqual(["CapEff:\t0000000000000000", expectedUid, workspace]);
  });

  it.skipIf(privileges === null)("shows the same /etc entries as the host's, in one mount", () => {
    const args = bubblewrapArguments({ writable: [workspace], workingDirectory: workspace }, privileges!);
    expect(args.filter((arg) => arg.startsWith("/etc")).length).toBe(1);
    const names = etcFiles.filter((path) => existsSync(path)).map((path) => path.slice("/etc/".length));
    const list = "find -H \"$@\" -printf '%p %y %m %s %l\\n' 2>/dev/null | sort";
    const listing = (file: string, argv: string[], cwd: string) =>
      spawnSync(file, argv, { cwd, encoding: "utf8" }).stdout;
    const host = listing("/bin/sh", ["-c", list, "sh", ...names], "/etc");
    const inside = listing("bwrap", [...args, "--chdir", "/etc", "/bin/sh", "-c", list, "sh", ...names], "/");
    expect(host.split("\n").length).toBeGreaterThan(names.length);
    expect(inside).toBe(host);
    const extra = spawnSync("bwrap", [...args, "/bin/ls", "-A", "/etc"], { encoding: "utf8" });
    expect(extra.stdout.trim().split("\n").sort()).toEqual([...names].sort());
  });

  it("joins a workspace cgroup where one can be made, and removes it", async () => {
    const cgroup = createWorkspaceCgroup(`hs-sandbox-test-${process.pid}`, {
      maxProcesses: 16,
      memoryBytes: 64 << 20,
    });
    if (cgroup === undefined) return;
    const { file, args } = joinCgroupCommand(cgroup, "/bin/cat", ["/proc/self/cgroup"]);
    const run = spawnSync(file, args, { encoding: "utf8" });
    expect(run.status).toBe(0);
    for (const directory of cgroup.directories) {
      const name = directory.split("/").at(-1) as string;
      expect(run.stdout).toContain(name);
    }
    expect(await removeWorkspaceCgroup(cgroup)).toBe(true);
  });

  it("caps each process's address space where no cgroup can be made (the rlimit fallback)", () => {
    const allocate = ["-c", "b = b'x' * (512 * 1024 ** 2); print('allocated')"];
    const limited = rlimitCommand({ memoryBytes: 128 * 1024 ** 2 }, "python3", allocate);
    const run = spawnSync(limited.file, limited.args, { encoding: "utf8" });
    expect(run.stdout).not.toContain("allocated");
    expect(run.stderr).toContain("MemoryError");
    expect(rlimitCommand({}, "python3", allocate)).toEqual({ file: "python3", args: allocate });
  });
});
