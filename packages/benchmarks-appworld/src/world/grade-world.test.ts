import { describe, expect, it } from "vitest";
import { cloneDatabase, rowsOf } from "./database.js";
import { gradeWorld } from "./grade-world.js";
import { offlineTasks } from "./offline-tasks.js";

describe("state checks on the database difference", () => {
  const deleteTask = offlineTasks().get("notestagdelete_1");
  const questionTask = offlineTasks().get("contactrelcount_1");

  it("fails an untouched world and passes the intended change", () => {
    if (deleteTask === undefined) throw new Error("missing task");
    const untouched = gradeWorld(deleteTask, cloneDatabase(deleteTask.start), null);
    expect(untouched.success).toBe(false);
    expect(untouched.passes.map((entry) => entry.label)).toEqual(["no_op_pass"]);
    const final = cloneDatabase(deleteTask.start);
    const tag = /tagged "(\w+)"/.exec(deleteTask.instruction)?.[1] ?? "";
    const notes = rowsOf(final, "notes.notes");
    const owner = final.people[0]?.email;
    final.tables["notes.notes"] = notes.filter(
      (row) => !(row.owner === owner && (row.tags as string[]).includes(tag)),
    );
    expect(gradeWorld(deleteTask, final, null)).toMatchObject({ success: true, num_tests: 2, failures: [] });
  });

  it("fails collateral changes and too many changes", () => {
    if (deleteTask === undefined) throw new Error("missing task");
    const final = cloneDatabase(deleteTask.start);
    final.tables["notes.notes"] = [];
    rowsOf(final, "phone.alarms").splice(0, 1);
    const graded = gradeWorld(deleteTask, final, null);
    expect(graded.success).toBe(false);
    expect(graded.failures.map((entry) => entry.trace)).toEqual([
      "notes.notes does not have the required changes",
      "unexpected changes in phone.alarms",
    ]);
  });

  it("checks the answer, accepting a number given as text, and is deterministic", () => {
    if (questionTask === undefined) throw new Error("missing task");
    const world = cloneDatabase(questionTask.start);
    expect(gradeWorld(questionTask, world, questionTask.answer).success).toBe(true);
    expect(gradeWorld(questionTask, world, String(questionTask.answer)).success).toBe(true);
    expect(gradeWorld(questionTask, world, Number(questionTask.answer) + 1).success).toBe(false);
    expect(gradeWorld(questionTask, world, null).failures[0]?.trace).toBe("no answer was given");
    expect(gradeWorld(questionTask, world, 3)).toEqual(gradeWorld(questionTask, world, 3));
  });
});
