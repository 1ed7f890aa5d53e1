import { describe, expect, it } from "vitest";
import { allApis } from "./apps/registry.js";
import { offlineTasks } from "./offline-tasks.js";
import { scenarioCatalog } from "./scenarios/catalog.js";
import { offlineSplits, splitOfScenario } from "./world-task.js";

describe("offline task catalog", () => {
  const tasks = [...offlineTasks().values()];

  it("has at least 60 scenarios of three tasks each, ids <scenario>_<n> with one underscore", () => {
    expect(scenarioCatalog.length).toBeGreaterThanOrEqual(60);
    expect(new Set(scenarioCatalog.map((scenario) => scenario.id)).size).toBe(scenarioCatalog.length);
    for (const scenario of scenarioCatalog) expect(scenario.id).toMatch(/^[a-z0-9]+$/);
    expect(tasks.length).toBe(3 * scenarioCatalog.length);
    for (const task of tasks) expect(task.taskId).toMatch(/^[a-z0-9]+_[123]$/);
  });

  it("covers difficulties 1-3 and three splits, a scenario's tasks all in one split", () => {
    expect(new Set(tasks.map((task) => task.difficulty))).toEqual(new Set([1, 2, 3]));
    for (const split of offlineSplits) expect(tasks.some((task) => task.split === split)).toBe(true);
    for (const task of tasks) expect(task.split).toBe(splitOfScenario(task.scenarioId));
  });

  it("gives every task something to check: an answer or a required change, on three different worlds", () => {
    for (const task of tasks) {
      expect(task.answer !== null || Object.keys(task.expectedDiff).length > 0, task.taskId).toBe(true);
    }
    for (const scenario of scenarioCatalog) {
      const variants = [1, 2, 3].map((variant) => offlineTasks().get(`${scenario.id}_${variant}`));
      expect(new Set(variants.map((task) => JSON.stringify(task?.start.people))).size, scenario.id).toBe(3);
    }
  });

  it("only calls documented APIs in reference solutions", () => {
    const known = new Set(allApis.map((api) => `${api.app}.${api.name}`));
    for (const task of tasks) {
      for (const match of task.solution.matchAll(/apis\.(\w+)\.(\w+)\(/g))
        expect(known.has(`${match[1]}.${match[2]}`), `${task.taskId}: ${match[0]}`).toBe(true);
    }
  });

  it("builds the same worlds every time (seeded)", () => {
    const task = tasks[0];
    const again = scenarioCatalog[0]?.build;
    expect(task).toBeDefined();
    expect(typeof again).toBe("function");
    expect(JSON.stringify(offlineTasks().get(task?.taskId ?? "")?.start)).toBe(JSON.stringify(task?.start));
  });
});
