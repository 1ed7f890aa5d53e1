import { computeAppWorldMetrics, createAppWorld, executeToolName } from "@hs/benchmarks-appworld";

// The offline AppWorld world: one server on 127.0.0.1, one train task, one Python execute through the
// environment-server protocol, then grading of the untouched world (it must fail).
const appworld = createAppWorld({ parallelism: 1, timeoutSeconds: 5 });
try {
  const { tasks } = await appworld.loadTasks({ split: "train" });
  if (tasks.length === 0) throw new Error("no train task");
  const task = tasks[0];
  const environment = await appworld.createEnvironment(task, { seed: 0 });
  try {
    await environment.reset();
    const result = await environment.step({
      id: "1",
      name: executeToolName,
      arguments: { code: "print(6 * 7)" },
    });
    if (result.content.trim() !== "42") throw new Error(`execute printed ${JSON.stringify(result.content)}`);
    const grade = await environment.grade();
    if (grade.success || grade.reward !== 0)
      throw new Error(`an untouched world graded ${JSON.stringify(grade)}`);
  } finally {
    await environment.close();
  }
  const metrics = computeAppWorldMetrics([
    { taskId: "notes_1", success: true, difficulty: 1 },
    { taskId: "notes_2", success: false, difficulty: 1 },
    { taskId: "music_1", success: true, difficulty: 2 },
  ]).aggregate;
  if (metrics.task_goal_completion !== 66.7 || metrics.scenario_goal_completion !== 50)
    throw new Error(`metrics ${JSON.stringify(metrics)}`);
  console.log(
    `appworld: ${tasks.length} offline train tasks; execute on ${task.id} printed 42; untouched world graded as failed; TGC/SGC of 3 records ${metrics.task_goal_completion}/${metrics.scenario_goal_completion}`,
  );
} finally {
  await appworld.close();
}
