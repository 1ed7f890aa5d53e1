import { stat } from "node:fs/promises";
import type { PolicyAction } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { runEpisode } from "../runtime/run-episode.js";
import { createRemoteBenchmark, startRemoteWorldServer } from "./remote-benchmark.js";
import { createScriptedPolicy } from "./scripted-policy.js";
import { createWorkspaceBenchmark } from "./workspace-benchmark.js";

const call = (name: string, args: Record<string, unknown> = {}): PolicyAction => ({
  content: "",
  toolCalls: [{ id: `${name}-1`, name, arguments: args }],
  logprob: null,
});

describe("a workspace environment (the SWE-Gym shape)", () => {
  it("runs real shell commands, edits files and grades by running the tests", async () => {
    const benchmark = createWorkspaceBenchmark();
    const [task] = (await benchmark.loadTasks({})).tasks;
    const policy = createScriptedPolicy([
      call("run_shell", { command: "node test.mjs" }),
      call("write_file", { path: "calc.mjs", content: "export function add(a, b) {\n  return a + b;\n}\n" }),
      call("run_shell", { command: "node test.mjs" }),
      call("submit"),
    ]);
    const trajectory = await runEpisode({
      task: task!,
      benchmark,
      harness: benchmark.presets.tools!,
      policy,
      seed: 3,
    });
    expect(trajectory.steps[0]?.executed[0]?.result).toMatchObject({ isError: true });
    expect(trajectory.steps[0]?.executed[0]?.result.content).toContain("add(2, 3) = -1");
    expect(trajectory.steps[2]?.executed[0]?.result.content).toContain("1 passed");
    expect(trajectory.success).toBe(true);
    await expect(stat(benchmark.workspaces[0]!)).rejects.toThrow();
  });

  it("kills a command that runs past its time limit", async () => {
    const benchmark = createWorkspaceBenchmark({ timeoutMs: 300, maxOutputChars: 1000 });
    const [task] = (await benchmark.loadTasks({})).tasks;
    const policy = createScriptedPolicy([call("run_shell", { command: "sleep 30" }), call("submit")]);
    const started = Date.now();
    const trajectory = await runEpisode({
      task: task!,
      benchmark,
      harness: benchmark.presets.tools!,
      policy,
      seed: 3,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(trajectory.steps[0]?.feedback).toContain("timed out after 300 ms");
    expect(trajectory.success).toBe(false);
  });
});

describe("a remote environment (the AppWorld shape)", async () => {
  const server = await startRemoteWorldServer();
  afterAll(() => server.close());

  it("executes code on the server over HTTP and is graded there", async () => {
    const benchmark = createRemoteBenchmark(server.url);
    const [task] = (await benchmark.loadTasks({})).tasks;
    const policy = createScriptedPolicy([
      call("execute", { code: "balanse" }),
      call("execute", { code: "deposit 30" }),
      call("execute", { code: "balance" }),
      call("complete_task"),
    ]);
    const trajectory = await runEpisode({
      task: task!,
      benchmark,
      harness: benchmark.presets.tools!,
      policy,
      seed: 3,
    });
    expect(trajectory.steps[0]?.feedback).toBe("Error: SyntaxError: cannot run balanse");
    expect(trajectory.steps[2]?.feedback).toBe("130");
    expect(trajectory.success).toBe(true);
    expect(server.worlds.size).toBe(0);
  });
});
