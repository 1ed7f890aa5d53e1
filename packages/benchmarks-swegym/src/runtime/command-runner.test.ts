import { afterAll, describe, expect, it } from "vitest";
import { otherProcesses, runnerOf, tinyRequest } from "../__fixtures__/runner-workspace.js";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { SandboxCommandRunner } from "./command-runner.js";
import { createLocalRuntime } from "./local-runtime.js";
import { bubblewrapArguments, detectIsolation } from "./sandbox.js";

const fixture = createTinyMirror();
afterAll(() => fixture.remove());
const isolation = detectIsolation();
const request = tinyRequest(fixture);
const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, maxProcesses: 64 });
const others = otherProcesses;

describe.skipIf(isolation === "none")("the sandbox's command runner", () => {
  it("serves every command of a workspace from one sandbox, each as fresh as its own sandbox", async () => {
    const workspace = await runtime.createWorkspace(request);
    const first = await workspace.run("echo out; echo err >&2; touch /tmp/left; sleep 300 & exit 3");
    expect(first).toMatchObject({ output: "out\nerr\n", returncode: 3, timedOut: false });
    const runner = runnerOf(workspace);
    expect(runner?.alive).toBe(true);
    const second = await workspace.run(`ls /tmp/left 2>&1; ls -A /dev/shm; ${others}; cat`, {
      input: "given",
    });
    expect(second.output).toBe("ls: cannot access '/tmp/left': No such file or directory\ngiven");
    expect(runnerOf(workspace)).toBe(runner);
    const network = await workspace.run(
      "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), 2)\" 2>&1 | tail -1; touch /usr/x 2>&1",
    );
    expect(network.output).toMatch(/Network is unreachable[\s\S]*Read-only file system/);
    await workspace.close();
    expect(runner?.alive).toBe(false);
  });

  it("cuts a runaway command and what it started at the time limit, and an endless writer at the cap", async () => {
    const workspace = await runtime.createWorkspace(request);
    const began = Date.now();
    const runaway = await workspace.run("(sleep 300 &); sleep 300 & sleep 300", { timeLimitMs: 800 });
    expect(runaway).toMatchObject({ timedOut: true, returncode: null });
    expect(Date.now() - began).toBeLessThan(5_000);
    const writer = await workspace.run("yes hs-swegym", { maxOutputBytes: 100_000 });
    expect(writer).toMatchObject({ outputLimited: true, returncode: null });
    expect(writer.output.length).toBe(100_000);
    const after = await workspace.run(`${others}; echo fine`);
    expect(after.output).toBe("fine\n");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const aborted = await workspace.run("sleep 300", { signal: controller.signal });
    expect(aborted).toMatchObject({ returncode: null, timedOut: false });
    await workspace.close();
  });

  it("survives a command that kills every process it can, and restarts after a crash", async () => {
    const workspace = await runtime.createWorkspace(request);
    const killer = await workspace.run("kill -9 -1 1 2>/dev/null; echo still");
    expect(killer.output).toBe("still\n");
    const runner = runnerOf(workspace);
    const running = workspace.run("sleep 300");
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(runner?.pid as number, "SIGKILL");
    const crashed = await running;
    expect(crashed.returncode).toBeNull();
    expect(crashed.output).toMatch(/the sandbox's command runner stopped during this command/);
    const next = await workspace.run("echo back");
    expect(next).toMatchObject({ output: "back\n", returncode: 0 });
    expect(runnerOf(workspace)).not.toBe(runner);
    await workspace.close();
  });

  it("keeps a command from tracing the runner or writing to its pipes, so nothing outlives the command", async () => {
    const workspace = await runtime.createWorkspace(request);
    const attach = await workspace.run(
      `python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True); print(libc.ptrace(16, 1, 0, 0), ctypes.get_errno())"`,
    );
    expect(attach.output).toBe("-1 1\n");
    const forged = await workspace.run(
      "(printf 'X\\0\\0\\0\\1\\0\\0\\0\\2{}' > /proc/1/fd/1) 2>&1 | grep -c 'Permission denied'; cat /proc/1/environ 2>&1 | grep -c 'Permission denied'",
    );
    expect(forged.output).toBe("1\n1\n");
    const sleeper = await workspace.run(
      "setsid nohup sh -c 'trap \"\" TERM HUP; sleep 300' >/dev/null 2>&1 & echo started",
    );
    expect(sleeper.output).toBe("started\n");
    const after = await workspace.run(`${others}; echo fine`);
    expect(after.output).toBe("fine\n");
    await workspace.close();
  });

  it("passes a stdin larger than a pipe holds, and close cuts a command still running", async () => {
    const workspace = await runtime.createWorkspace(request);
    const written = await workspace.run("cat > big.txt && wc -c < big.txt", { input: "x".repeat(3_000_000) });
    expect(written).toMatchObject({ output: "3000000\n", returncode: 0 });
    const began = Date.now();
    const running = workspace.run("sleep 300");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await workspace.close();
    expect((await running).returncode).toBeNull();
    expect(Date.now() - began).toBeLessThan(5_000);
  });

  it("is not used where it cannot start, or when turned off: each command gets its own sandbox", async () => {
    const missing = await SandboxCommandRunner.start({
      sandboxArguments: bubblewrapArguments({ episodeDirectory: fixture.mirror, workingDirectory: "/" }),
      python: "/usr/bin/no-such-python",
      cwd: "/",
      env: { PATH: "/usr/bin:/bin" },
    });
    expect(missing).toBeNull();
    const perCommand = createLocalRuntime({ mirrorDirectory: fixture.mirror, commandRunner: false });
    const workspace = await perCommand.createWorkspace(request);
    const result = await workspace.run("touch /tmp/left; echo $$; touch /usr/x 2>&1 | grep -c Read-only");
    expect(result.output).toBe("2\n1\n");
    expect(runnerOf(workspace)).toBeUndefined();
    await workspace.close();
  });
});
