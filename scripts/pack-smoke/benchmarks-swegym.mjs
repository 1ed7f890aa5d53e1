import { createSweGym } from "@hs/benchmarks-swegym";

// The bundled SWE-Gym data on the local runtime: one train instance's workspace (a real git checkout),
// a bash command in it, and SWE-bench grading of the unchanged repository (unresolved: its
// FAIL_TO_PASS tests still fail).
const swegym = await createSweGym();
try {
  const { tasks } = await swegym.loadTasks({ split: "train" });
  if (tasks.length === 0) throw new Error("no train instance");
  const task = tasks[0];
  const environment = await swegym.createEnvironment(task, { seed: 0 });
  try {
    await environment.reset();
    const listing = await environment.step({
      id: "1",
      name: "bash",
      arguments: { command: "git log --oneline | wc -l && ls" },
    });
    if (!listing.content.includes("<returncode>0</returncode>"))
      throw new Error(`bash answered ${listing.content}`);
    const grade = await environment.grade();
    if (grade.success || grade.reward !== 0)
      throw new Error(`the unchanged repository graded ${grade.reward}`);
    if (grade.details?.resolved !== false) throw new Error(`grade details ${JSON.stringify(grade.details)}`);
    console.log(
      `swegym: ${tasks.length} train instances; bash ran in ${task.id}'s workspace; the unchanged repository graded unresolved`,
    );
  } finally {
    await environment.close();
  }
} finally {
  await swegym.close?.();
}
