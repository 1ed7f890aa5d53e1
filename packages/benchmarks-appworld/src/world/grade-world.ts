import type { Evaluation } from "../protocol/schemas.js";
import type { WorldDatabase } from "./database.js";
import { diffDatabases, sameTableDiff } from "./database-diff.js";
import type { WorldTask } from "./world-task.js";

type Test = { requirement: string; label: "no_op_fail" | "no_op_pass"; failure: string | null };

function normalizeAnswer(value: unknown): string {
  if (typeof value === "number") return String(Math.round(value * 100) / 100);
  const text = String(value ?? "").trim();
  const number = Number(text);
  if (text !== "" && Number.isFinite(number)) return String(Math.round(number * 100) / 100);
  return text.toLowerCase().replace(/\s+/g, " ");
}

function answerTest(task: WorldTask, given: unknown): Test {
  const requirement = "the answer given to complete_task is correct";
  if (given === null || given === undefined)
    return { requirement, label: "no_op_fail", failure: "no answer was given" };
  const ok = normalizeAnswer(given) === normalizeAnswer(task.answer);
  return {
    requirement,
    label: "no_op_fail",
    failure: ok ? null : `the answer ${JSON.stringify(given)} is not the expected one`,
  };
}

/**
 * AppWorld-style state checks on the database difference (ace-agent/ace-appworld
 * src/appworld/evaluator.py `TestTracker`: passes and failures with `no_op_fail` / `no_op_pass`
 * labels; success when every test passes): the answer when the task asks a question, each required
 * table change exactly as intended, and no change to any other table.
 */
export function gradeWorld(task: WorldTask, final: WorldDatabase, answer: unknown): Evaluation {
  const actual = diffDatabases(task.start, final);
  const tests: Test[] = [];
  if (task.answer !== null) tests.push(answerTest(task, answer));
  for (const table of Object.keys(task.expectedDiff).sort()) {
    const ok = sameTableDiff(task.expectedDiff[table], actual[table]);
    tests.push({
      requirement: `the required changes to ${table} are made, exactly`,
      label: "no_op_fail",
      failure: ok ? null : `${table} does not have the required changes`,
    });
  }
  const collateral = Object.keys(actual)
    .filter((table) => task.expectedDiff[table] === undefined)
    .sort();
  tests.push({
    requirement: "no other table is changed",
    label: "no_op_pass",
    failure: collateral.length === 0 ? null : `unexpected changes in ${collateral.join(", ")}`,
  });
  const passes = tests
    .filter((test) => test.failure === null)
    .map(({ requirement, label }) => ({ requirement, label }));
  const failures = tests
    .filter((test) => test.failure !== null)
    .map(({ requirement, label, failure }) => ({ requirement, label, trace: failure ?? "" }));
  return {
    success: failures.length === 0,
    difficulty: task.difficulty,
    num_tests: tests.length,
    passes,
    failures,
  };
}
