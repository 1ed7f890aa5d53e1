import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHarnessConfig, runEpisode } from "@hs/harness";
import type { Task } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedPolicy } from "./__fixtures__/scripted-policy.js";
import { createAppWorld } from "./create-appworld.js";
import { benchmarkPlugin } from "./plugin.js";
import { appworldPresets } from "./presets.js";
import { offlineTasks } from "./world/offline-tasks.js";

const appworld = createAppWorld({ parallelism: 2, timeoutSeconds: 2 });
afterAll(async () => {
  await appworld.close();
});

async function trainTask(id: string): Promise<Task> {
  const task = (await appworld.loadTasks({ split: offlineTasks().get(id)?.split ?? "train" })).tasks.find(
    (candidate) => candidate.id === id,
  );
  if (task === undefined) throw new Error(`no task ${id}`);
  return task;
}

describe("createAppWorld (offline)", () => {
  it("loads three splits, train for training and test held out", async () => {
    expect(appworld.splits).toEqual(["train", "dev", "test"]);
    expect(appworld.trainSplit).toBe("train");
    expect(appworld.heldoutSplits).toEqual(["test"]);
    const counts = await Promise.all(
      appworld.splits.map(async (split) => (await appworld.loadTasks({ split })).tasks.length),
    );
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(offlineTasks().size);
    await expect(appworld.loadTasks({ split: "test_normal" })).rejects.toThrow(/unknown split "test_normal"/);
  }, 60_000);

  it("keeps gold out of every Task and out of the first rendered view", async () => {
    const tasks = (await Promise.all(appworld.splits.map((split) => appworld.loadTasks({ split })))).flatMap(
      (result) => result.tasks,
    );
    for (const task of tasks) {
      const gold = offlineTasks().get(task.id);
      const text = JSON.stringify(task);
      expect(Object.keys(task.metadata).sort()).toEqual([
        "appworldTaskId",
        "datetime",
        "supervisorEmail",
        "supervisorName",
        "supervisorPhone",
      ]);
      expect(text).not.toContain("every_page");
      for (const diff of Object.values(gold?.expectedDiff ?? {}))
        for (const added of diff.added) expect(text).not.toContain(added);
      if (typeof gold?.answer === "string" && gold.answer.length > 4) expect(text).not.toContain(gold.answer);
    }
    const task = await trainTask("notecontent_1");
    const policy = scriptedPolicy(["no code here"]);
    await runEpisode({ task, benchmark: appworld, harness: appworldPresets.react as never, policy, seed: 1 });
    const firstView = JSON.stringify(policy.views[0]);
    expect(firstView).toContain(JSON.stringify(task.instruction).slice(1, -1));
    expect(firstView).not.toContain(String(offlineTasks().get(task.id)?.answer));
    expect(firstView).not.toContain("every_page");
  }, 90_000);

  it("runs the ReAct preset end to end: the reference solution in a python block succeeds", async () => {
    const task = await trainTask("notestagdelete_1");
    const solution = offlineTasks().get(task.id)?.solution ?? "";
    const policy = scriptedPolicy([`Here is the plan.\n\`\`\`python\n${solution}\`\`\``]);
    const trajectory = await runEpisode({
      task,
      benchmark: appworld,
      harness: appworldPresets.react as never,
      policy,
      seed: 1,
    });
    expect(trajectory.success).toBe(true);
    expect(trajectory.reward).toBe(1);
  }, 30_000);

  it("runs the verl-agent preset: <think> and <code> required, a reply without them is invalid", async () => {
    const task = await trainTask("notestagdelete_1");
    const solution = offlineTasks().get(task.id)?.solution ?? "";
    const policy = scriptedPolicy([
      `<code>${solution}</code>`,
      `<think>delete the notes</think>\n<code>${solution}</code>`,
    ]);
    const trajectory = await runEpisode({
      task,
      benchmark: appworld,
      harness: appworldPresets["verl-agent"] as never,
      policy,
      seed: 1,
    });
    expect(trajectory.steps[0]?.parsed).toBeNull();
    expect(trajectory.steps[0]?.feedback).toMatch(/Invalid action/);
    expect(trajectory.success).toBe(true);
  }, 30_000);

  it("has presets that parse, and a close that is safe twice", async () => {
    for (const preset of Object.values(appworldPresets)) expect(parseHarnessConfig(preset)).toEqual(preset);
    const environment = await appworld.createEnvironment(await trainTask("notestagdelete_1"), { seed: 0 });
    await environment.reset();
    await environment.close();
    await environment.close();
  });

  it("grades deterministically", async () => {
    const task = await trainTask("contactrelcount_1");
    const grades = [];
    for (let index = 0; index < 2; index += 1) {
      const environment = await appworld.createEnvironment(task, { seed: index });
      await environment.reset();
      await environment.step({
        id: "a",
        name: "execute",
        arguments: { code: "apis.supervisor.complete_task(answer=999)" },
      });
      grades.push(await environment.grade());
      await environment.close();
    }
    expect(grades[0]).toEqual(grades[1]);
    expect(grades[0]?.success).toBe(false);
  }, 30_000);

  it("loads a file of task ids, naming bad lines and loading the rest", async () => {
    const file = join(tmpdir(), `appworld-ids-${process.pid}.txt`);
    await writeFile(
      file,
      "notestagdelete_1\nnot an id\nnosuchscenario_1\n\nnotestagdelete_1\ncontactrelcount_2\ncontactrelcount_3:hard\n",
    );
    const { tasks, problems } = await appworld.loadTasks({ path: file });
    expect(tasks.map((task) => task.id)).toEqual([
      "notestagdelete_1",
      "contactrelcount_2",
      "contactrelcount_3",
    ]);
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file}:2, field "task_id": expected a task id "<scenario>_<n>" (optionally ":tag"), got "not an id"`,
      `${file}:5, field "task_id": task id "notestagdelete_1" is listed twice`,
      `${file}:3, field "task_id": no task "nosuchscenario_1" in the offline world`,
    ]);
  });

  it("summarizes as TGC and SGC per difficulty", () => {
    const metrics = appworld.summarize([
      { category: "difficulty_1:alpha", success: true, reward: 1 },
      { category: "difficulty_1:alpha", success: false, reward: 0 },
      { category: "difficulty_2:beta", success: true, reward: 1 },
    ]);
    expect(metrics).toMatchObject({
      task_goal_completion: 66.7,
      scenario_goal_completion: 50,
      difficulty_1_task_goal_completion: 50,
      difficulty_2_scenario_goal_completion: 100,
    });
  });

  it("routes on the app the instruction names", async () => {
    expect(appworld.observableCategory?.(await trainTask("notestagdelete_1"))).toBe("notes");
  });
});

describe("benchmarkPlugin", () => {
  it("is named appworld and validates its options", async () => {
    expect(benchmarkPlugin.id).toBe("appworld");
    expect(Object.keys(benchmarkPlugin.options)).toEqual(
      expect.arrayContaining(["server-urls", "experiment-name"]),
    );
    await expect(
      benchmarkPlugin.createBenchmark({ "server-urls": "http://127.0.0.1:8000,ftp://x" }),
    ).rejects.toThrow(/not an http\(s\) URL: "ftp:\/\/x"/);
    await expect(benchmarkPlugin.createBenchmark({ sandbox: "docker" })).rejects.toThrow(
      /--sandbox must be bwrap or none/,
    );
    const real = await benchmarkPlugin.createBenchmark({
      "server-urls": "http://127.0.0.1:8000, http://127.0.0.1:8001",
      "experiment-name": "x",
    });
    expect(real.splits).toEqual(["train", "dev", "test_normal", "test_challenge"]);
    expect(typeof real.goldReplay).toBe("function");
    await expect(real.loadTasks({ split: "dev" })).rejects.toThrow(/needs the AppWorld root/);
  });
});
