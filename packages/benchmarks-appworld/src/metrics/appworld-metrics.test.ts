import { describe, expect, it } from "vitest";
import { computeAppWorldMetrics, flattenMetrics, scenarioOfTaskId } from "./appworld-metrics.js";

// A hand-made example: 3 scenarios x 3 tasks.
//   alpha: pass pass pass (difficulty 1)  -> scenario passes
//   beta:  pass fail pass (difficulty 2, 2, 3) -> scenario fails
//   gamma: fail fail pass (difficulty 3) -> scenario fails
// TGC = 6/9 = 66.7; SGC = 1/3 = 33.3.
// difficulty 2: beta_1 pass, beta_2 fail -> TGC 50.0, SGC 0.0 (beta's level-2 tasks do not all pass)
// difficulty 3: beta_3 pass, gamma_1..3 fail fail pass -> TGC 2/4 = 50.0; SGC: beta {1} ok, gamma {0} -> 50.0
const records = [
  { taskId: "alpha_1", success: true, difficulty: 1 },
  { taskId: "alpha_2", success: true, difficulty: 1 },
  { taskId: "alpha_3", success: true, difficulty: 1 },
  { taskId: "beta_1", success: true, difficulty: 2 },
  { taskId: "beta_2", success: false, difficulty: 2 },
  { taskId: "beta_3", success: true, difficulty: 3 },
  { taskId: "gamma_1", success: false, difficulty: 3 },
  { taskId: "gamma_2", success: false, difficulty: 3 },
  { taskId: "gamma_3", success: true, difficulty: 3 },
];

describe("AppWorld metrics", () => {
  it("computes TGC and SGC on a hand-made example, overall and per difficulty", () => {
    const metrics = computeAppWorldMetrics(records);
    expect(metrics.aggregate).toEqual({
      task_goal_completion: 66.7,
      scenario_goal_completion: 33.3,
      num_tasks: 9,
      num_scenarios: 3,
    });
    expect(metrics.byDifficulty.difficulty_1).toMatchObject({
      task_goal_completion: 100,
      scenario_goal_completion: 100,
    });
    expect(metrics.byDifficulty.difficulty_2).toMatchObject({
      task_goal_completion: 50,
      scenario_goal_completion: 0,
    });
    expect(metrics.byDifficulty.difficulty_3).toMatchObject({
      task_goal_completion: 50,
      scenario_goal_completion: 50,
    });
    expect(flattenMetrics(metrics)).toMatchObject({
      task_goal_completion: 66.7,
      difficulty_3_scenario_goal_completion: 50,
    });
  });

  it("counts an empty level as 0 and reads the scenario before the one underscore", () => {
    expect(computeAppWorldMetrics([]).aggregate.task_goal_completion).toBe(0);
    expect(scenarioOfTaskId("82e2fac_3")).toBe("82e2fac");
    expect(() => scenarioOfTaskId("a_b_c")).toThrow(/one underscore/);
  });
});
