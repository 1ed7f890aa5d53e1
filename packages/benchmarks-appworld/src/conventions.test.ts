import { failureConventionsSchema, macroToolSchema } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { appworldLibrary } from "./evolution-library.js";
import { appworldConventions } from "./failure-conventions.js";
import { offlineTask, offlineTaskIds } from "./world/offline-tasks.js";

describe("AppWorld failure conventions and evolution library", () => {
  it("are valid data", () => {
    expect(failureConventionsSchema.parse(appworldConventions)).toEqual(appworldConventions);
    for (const macro of appworldLibrary.macros) macroToolSchema.parse(macro);
  });

  it("recognise state-changing code, and not read-only code, on the reference solutions", () => {
    const change = new RegExp(appworldConventions.changePattern ?? "^$", "i");
    expect(change.test("apis.notes.delete_note(access_token=t, note_id=3)")).toBe(true);
    expect(change.test("apis.notes.show_notes(access_token=t)")).toBe(false);
    for (const taskId of offlineTaskIds()) {
      const task = offlineTask(taskId);
      if (task === undefined) throw new Error(taskId);
      expect(change.test(task.solution), taskId).toBe(Object.keys(task.expectedDiff).length > 0);
    }
  }, 60_000); // builds all 219 tasks' worlds: about 1.5 s alone, past vitest's 5 s on a loaded machine

  it("treat an empty page as an empty result", () => {
    expect(new RegExp(appworldConventions.emptyResultPattern, "i").test("[]")).toBe(true);
    expect(new RegExp(appworldConventions.emptyResultPattern, "i").test("[{'note_id': 1}]")).toBe(false);
  });
});
