import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runEpisode } from "@hs/harness";
import type { EpisodeOutcome, Task } from "@hs/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedPolicy } from "../__fixtures__/scripted-policy.js";
import type { AppWorld } from "../create-appworld.js";
import { readGroundTruthSolution } from "../dataset/appworld-data.js";
import { benchmarkPlugin } from "../plugin.js";
import { appworldPresets } from "../presets.js";
import { UpstreamShapedServer } from "../upstream-shaped/upstream-shaped-server.js";

const fixtures = new URL("../upstream-shaped/__fixtures__/", import.meta.url);
const root = fileURLToPath(new URL("appworld-root", fixtures));
const dataset = join(root, "data", "datasets", "fixture.txt");
const oracle = fileURLToPath(new URL("appworld_metric_oracle.py", fixtures));

let servers: UpstreamShapedServer[];
let outputs: string;
beforeAll(async () => {
  servers = [new UpstreamShapedServer({ root }), new UpstreamShapedServer({ root })];
  await Promise.all(servers.map((server) => server.listen()));
  outputs = await mkdtemp(join(tmpdir(), "appworld-outputs-"));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(outputs, { recursive: true, force: true });
});

async function openReal(extra: Record<string, string> = {}): Promise<AppWorld> {
  return (await benchmarkPlugin.createBenchmark({
    "server-urls": servers.map((server) => server.url).join(","),
    "appworld-root": root,
    "outputs-dir": outputs,
    ...extra,
  })) as AppWorld;
}

/** What AppWorld's evaluator reports for these task outcomes, computed by python3. */
function appworldReport(tasks: Record<string, { success: boolean; difficulty: number }>) {
  const output = execFileSync("python3", [oracle], { input: JSON.stringify(tasks) });
  return JSON.parse(output.toString()) as Record<
    string,
    { task_goal_completion: number; scenario_goal_completion: number }
  >;
}

function reactReply(code: string): string {
  return `I will do it.\n\`\`\`python\n${code}\n\`\`\``;
}

describe("AppWorld against the upstream-shaped server", () => {
  it("evaluates with real servers: per-scenario and per-difficulty TGC/SGC equal AppWorld's evaluator", async () => {
    const appworld = await openReal({
      "max-interactions": "9",
      "random-seed": "7",
      "remote-apis-url": "http://127.0.0.1:9",
      "timeout-seconds": "20",
      "experiment-name": "eval-test",
    });
    const { tasks, problems } = await appworld.loadTasks({ path: dataset });
    expect(problems).toEqual([]);
    expect(tasks.map((task) => `${task.id} ${task.category}`)).toEqual([
      "b7c41d2_1 difficulty_1:b7c41d2",
      "b7c41d2_2 difficulty_1:b7c41d2",
      "e93fa60_1 difficulty_2:e93fa60",
      "e93fa60_2 difficulty_2:e93fa60",
      "5d0c8ab_1 difficulty_3:5d0c8ab",
      "5d0c8ab_2 difficulty_3:5d0c8ab",
    ]);
    const failing = new Map([
      ["b7c41d2_2", "apis.supervisor.complete_task(answer=999)"],
      ["5d0c8ab_1", "apis.supervisor.complete_task()"],
    ]);
    const outcomes: EpisodeOutcome[] = [];
    const byTask: Record<string, { success: boolean; difficulty: number }> = {};
    await Promise.all(
      tasks.map(async (task: Task) => {
        const code = failing.get(task.id) ?? (await readGroundTruthSolution(root, task.id));
        const trajectory = await runEpisode({
          task,
          benchmark: appworld,
          harness: appworldPresets.react as never,
          policy: scriptedPolicy([reactReply(code)]),
          seed: 1,
        });
        outcomes.push({ category: task.category, success: trajectory.success, reward: trajectory.reward });
        byTask[task.id] = { success: trajectory.success, difficulty: Number(task.category.charAt(11)) };
      }),
    );
    const reported = appworld.summarize?.(outcomes) ?? {};
    const expected = appworldReport(byTask);
    expect(expected.aggregate).toEqual({ task_goal_completion: 66.7, scenario_goal_completion: 33.3 });
    expect(reported).toMatchObject({
      task_goal_completion: expected.aggregate?.task_goal_completion,
      scenario_goal_completion: expected.aggregate?.scenario_goal_completion,
      num_tasks: 6,
      num_scenarios: 3,
    });
    for (const level of [1, 2, 3]) {
      const row = expected[`difficulty_${level}`];
      expect(reported[`difficulty_${level}_task_goal_completion`]).toBe(row?.task_goal_completion);
      expect(reported[`difficulty_${level}_scenario_goal_completion`]).toBe(row?.scenario_goal_completion);
    }
    const sent = servers.flatMap((server) => server.initializations);
    expect(sent).toHaveLength(6);
    for (const body of sent)
      expect(body).toMatchObject({
        max_interactions: 9,
        random_seed: 7,
        remote_apis_url: "http://127.0.0.1:9",
        timeout_seconds: 20,
        experiment_name: expect.stringMatching(/^eval-test\/\d{8}T\d{6}-[0-9a-f]{8}\/rollout-0$/),
      });
    const experiment = String(sent[0]?.experiment_name);
    await appworld.close();
    const file = JSON.parse(await readFile(join(outputs, experiment, "evaluations", "fixture.json"), "utf8"));
    expect(file.aggregate).toEqual(expected.aggregate);
    expect(Object.keys(file.individual).sort()).toEqual(Object.keys(byTask).sort());
    expect(file.individual.b7c41d2_2).toMatchObject({ success: false, difficulty: 1, num_tests: 2 });
  }, 120_000);

  it("gives every rollout and every run its own experiment, so outputs never collide", async () => {
    const first = await openReal();
    const second = await openReal();
    const { tasks } = await first.loadTasks({ path: dataset });
    const task = tasks[0] as Task;
    const names: string[] = [];
    for (const appworld of [first, first, second]) {
      const environment = await appworld.createEnvironment(task, { seed: 0 });
      await environment.reset();
      names.push(String((environment as unknown as { experimentName: string }).experimentName));
      await environment.close();
    }
    expect(names[0]).toMatch(/\/rollout-0$/);
    expect(names[1]).toMatch(/\/rollout-1$/);
    expect(names[2]).toMatch(/\/rollout-0$/);
    expect(new Set(names).size).toBe(3);
    await first.close();
    await second.close();
  }, 60_000);

  it("replays each task's ground_truth solution over real servers, as appworld verify tasks does", async () => {
    const appworld = await openReal();
    const report = await appworld.goldReplay?.({ tasks: { path: dataset } });
    expect(report).toMatchObject({ passed: 6, total: 6, emptyPassed: 0, failures: [] });
    expect(report?.details).toMatchObject({ world: "real", concurrency: 2 });
    await appworld.close();
  }, 120_000);

  it("names a task whose ground truth has no solution (minimal mode) as a failure of the replay", async () => {
    const appworld = await openReal({ "appworld-root": outputs });
    await expect(appworld.goldReplay?.({ tasks: { path: dataset } })).resolves.toMatchObject({
      passed: 0,
      failures: expect.arrayContaining([
        { taskId: "b7c41d2_1", reason: expect.stringMatching(/no ground-truth solution in .*b7c41d2_1/) },
      ]),
    });
    await appworld.close();
  }, 60_000);
});
