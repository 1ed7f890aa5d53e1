import type { FailureConventions, FailureLabel, ObservedTrajectory } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { parseFailureConventions } from "./failure-conventions.js";
import { sortByPriority } from "./mode-priority.js";
import { classifyByRules } from "./rule-classifier.js";
import { readSqlStatement } from "./sql-statements.js";

async function conventionsOf(directory: string, name: string): Promise<FailureConventions> {
  const source = new URL(`../../${directory}/src/failure-conventions.ts`, import.meta.url).href;
  return parseFailureConventions(((await import(source)) as Record<string, unknown>)[name]);
}

interface Call {
  name: string;
  args: Record<string, string>;
  content: string;
  isError?: boolean;
  done?: boolean;
}

function episode(
  instruction: string,
  calls: Call[],
  endReason: ObservedTrajectory["endReason"] = "submitted",
) {
  return {
    schemaVersion: 1,
    id: "episode",
    taskId: "task",
    benchmark: "test",
    split: "train",
    harnessId: "base",
    harnessHash: "",
    policyId: "policy",
    policyVersion: "0",
    seed: 0,
    steps: calls.map((call, index) => ({
      index,
      view: {
        messages: index === 0 ? [{ role: "user" as const, content: instruction }] : [],
        tools: [],
        actionFormat: "text" as const,
      },
      action: { content: "", logprob: 0 },
      parsed: null,
      executed: [
        {
          call: { id: `call-${index}`, name: call.name, arguments: call.args },
          result: { content: call.content, isError: call.isError ?? false, done: call.done ?? false },
        },
      ],
      feedback: "",
      events: [],
      policyMs: 0,
      environmentMs: 0,
    })),
    endReason,
    reward: 0,
    success: false,
    failureModes: [],
    events: [],
    timings: { startedAt: "", wallMs: 0, policyMs: 0, environmentMs: 0 },
  } satisfies ObservedTrajectory;
}

const primary = (labels: FailureLabel[]) => labels[0]?.mode;
const sql = (query: string, content = "[]"): Call => ({ name: "execute_sql", args: { query }, content });
const answer = (text: string): Call => ({
  name: "commit_final_answer",
  args: { answers: text },
  content: "Final answer committed.",
  done: true,
});
const table =
  "The name of this table is Filmography, and the headers of this table are Year,Title,Role,Notes.";

describe("sql rule", async () => {
  const dbbench = await conventionsOf("benchmarks-dbbench", "dbbenchConventions");
  const setInstruction = `Set the Notes column to 'Released' and the Role column to 'Todd' for the rows where the Title column is 'Chaos Walking'. ${table}`;

  it("tells a value written under another column from a change with no detectable slip", () => {
    const swapped = episode(setInstruction, [
      sql("UPDATE `Filmography` SET `Role` = 'Released', `Notes` = 'Todd' WHERE `Title` = 'Chaos Walking';"),
      answer(": []"),
    ]);
    const right = episode(setInstruction, [
      sql("UPDATE `Filmography` SET `Notes` = 'Released', `Role` = 'Todd' WHERE `Title` = 'Chaos Walking';"),
      answer(": []"),
    ]);
    expect(primary(classifyByRules(swapped, dbbench))).toBe("wrong-column");
    expect(primary(classifyByRules(right, dbbench))).toBe("unchecked-change");
  });

  it("labels a part of a quoted value as a value written differently, before the rows it changed", () => {
    const trajectory = episode(`Set 'To par' to '-15' for 'Rory McIlroy'. ${table}`, [
      sql("UPDATE `Filmography` SET `To par` = '15' WHERE `Player` = 'Rory McIlroy';"),
      answer(": []"),
    ]);
    const labels = classifyByRules(trajectory, dbbench);
    expect(primary(labels)).toBe("value-mismatch");
    expect(labels.map((label) => label.mode)).toContain("changed-wrong-rows");
  });

  it("labels an UPDATE filtered on a column the instruction never names", () => {
    const trajectory = episode(`Change the status of Santo Tomas to Catholic. ${table}`, [
      sql("UPDATE `Filmography` SET `Notes` = 'Catholic' WHERE `Role` = 'Santo Tomas';"),
      answer(": []"),
    ]);
    expect(primary(classifyByRules(trajectory, dbbench))).toBe("changed-wrong-rows");
  });

  it("labels an INSERT for a question or for an update as the wrong statement", () => {
    const insert = sql("INSERT INTO `Filmography` (`Year`, `Title`) VALUES ('2008', 'Hannah');");
    const question = episode(`who played Hannah? ${table}`, [insert, answer(": []")]);
    const update = episode(`Update the record of 2008 to Hannah. ${table}`, [insert, answer(": []")]);
    const plain = episode(`Insert 2008 and Hannah. ${table}`, [insert, answer(": []")]);
    expect(primary(classifyByRules(question, dbbench))).toBe("wrong-statement");
    expect(primary(classifyByRules(update, dbbench))).toBe("wrong-statement");
    expect(primary(classifyByRules(plain, dbbench))).toBe("unchecked-change");
  });

  it("tells a filter on a listed column that lacks the value from an empty result read as the answer", () => {
    const question = `how many titles are by nolan? ${table}`;
    const listed = episode(question, [
      sql("SELECT DISTINCT `Title` FROM `Filmography` LIMIT 100;", "[('Tenet',), ('Memento',)]"),
      sql("SELECT COUNT(`Title`) FROM `Filmography` WHERE `Title` = 'nolan';", "[(0,)]"),
      answer(': ["0"]'),
    ]);
    const unlisted = episode(question, [
      sql("SELECT DISTINCT `Title` FROM `Filmography` LIMIT 100;", "[('Tenet',), ('Memento',)]"),
      sql("SELECT COUNT(`Title`) FROM `Filmography` WHERE `Notes` = 'nolan';", "[(0,)]"),
      answer(': ["0"]'),
    ]);
    const spelled = episode(question, [
      sql("SELECT DISTINCT `Title` FROM `Filmography` LIMIT 100;", "[('Tenet',), ('Memento',)]"),
      sql("SELECT COUNT(`Title`) FROM `Filmography` WHERE `Title` = 'memento.';", "[(0,)]"),
      answer(': ["0"]'),
    ]);
    expect(primary(classifyByRules(listed, dbbench))).toBe("wrong-column");
    expect(primary(classifyByRules(unlisted, dbbench))).toBe("empty-result-misread");
    expect(primary(classifyByRules(spelled, dbbench))).toBe("value-mismatch");
  });

  it("reads statements: writes, conditions and a DISTINCT listing", () => {
    expect(readSqlStatement("INSERT INTO `t` (`a`, `b c`) VALUES ('it''s', 3);").writes).toEqual([
      { column: "a", value: "it's" },
      { column: "b c", value: "3" },
    ]);
    const update = readSqlStatement("UPDATE `t` SET `a` = 'x' WHERE `b` = 'y' AND `c` > 2;");
    expect(update.writes).toEqual([{ column: "a", value: "x" }]);
    expect(update.conditions).toEqual([
      { column: "b", operator: "=", value: "y" },
      { column: "c", operator: ">", value: "2" },
    ]);
    expect(readSqlStatement("SELECT DISTINCT `Team` FROM `t` LIMIT 100;").distinctColumn).toBe("Team");
  });
});

describe("edit-test rule", async () => {
  const swegym = await conventionsOf("benchmarks-swegym", "sweGymConventions");
  const bash = (command: string, output: string): Call => ({
    name: "bash",
    args: { command },
    content: `<returncode>0</returncode>\n<output>\n${output}\n</output>`,
  });
  const edit = (line: number) =>
    bash(`python3 - <<'HS_EDIT'\n...\nHS_EDIT`, `edited pkg/core.py:${line}: a -> b`);
  const test = (output: string) => bash("python3 -m pytest -x -q", output);
  const revert = bash("git checkout -- 'pkg/core.py'", "");
  const submit: Call = {
    name: "bash",
    args: { command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff --cached" },
    content: "",
    done: true,
  };
  const broke =
    "F\ntests/test_core.py:5: in test_x\npkg/core.py:12: in f\nE   NameError: name 'x' is not defined\n1 failed in 0.1s";
  const assertion = "F\ntests/test_core.py:5: in test_x\nE   AssertionError: assert 1 == 2\n1 failed in 0.1s";
  const passed = "....\n4 passed in 0.1s";

  it("tells an edit that broke the file, an edit no traceback named, and a kept edit only passing tests checked", () => {
    const broken = episode("fix it", [edit(12), test(broke), revert, submit]);
    const unnamed = episode("fix it", [
      edit(12),
      test(broke),
      revert,
      edit(30),
      test(assertion),
      revert,
      submit,
    ]);
    const kept = episode("fix it", [edit(30), test(passed), submit]);
    const failing = episode("fix it", [edit(30), test(assertion), submit]);
    const unlocated = episode("fix it", [
      edit(30),
      test(assertion),
      revert,
      edit(31),
      test(assertion),
      revert,
      submit,
    ]);
    expect(primary(classifyByRules(broken, swegym))).toBe("edit-broke-file");
    expect(primary(classifyByRules(unnamed, swegym))).toBe("edited-unnamed-line");
    expect(primary(classifyByRules(kept, swegym))).toBe("never-ran-failing-tests");
    expect(primary(classifyByRules(failing, swegym))).toBe("submitted-failing-tests");
    expect(primary(classifyByRules(unlocated, swegym))).toBe("unlocated-failure");
    expect(primary(classifyByRules(episode("fix it", [submit]), swegym))).toBe("empty-submission");
  });
});

describe("call, precondition and completed-early rules", async () => {
  const appworld = await conventionsOf("benchmarks-appworld", "appworldConventions");
  const run = (code: string, content: string, isError = false): Call => ({
    name: "execute",
    args: { code },
    content,
    isError,
  });
  const doc = run('print(apis.api_docs.show_api_doc(app_name="notes", api_name="delete_note"))', "{}");
  const login = run('notes_token = apis.notes.login(username="a", password="b")["access_token"]', "ok");
  const complete = (code = "apis.supervisor.complete_task()"): Call => ({ ...run(code, "done"), done: true });
  const task = 'My name is: A. Task: Delete every note of mine tagged "work".';

  it("labels an impossible filter, a call before its doc or its login, and a 422 never retried", () => {
    const impossible = episode(task, [
      doc,
      login,
      run(
        'for item in [item for item in notes if item["pinned"] == True and item["pinned"] == False]: apis.notes.delete_note(access_token=notes_token, note_id=item["note_id"])',
        "Execution successful.",
      ),
      complete(),
    ]);
    const noDoc = episode(task, [
      login,
      run("apis.notes.delete_note(access_token=notes_token, note_id=1)", "ok"),
      complete(),
    ]);
    const noLogin = episode(task, [
      doc,
      run("apis.notes.delete_note(access_token=notes_token, note_id=1)", "ok"),
      complete(),
    ]);
    const failed = run(
      "apis.notes.delete_note(access_token=notes_token, note_id=None)",
      'Execution failed. Exception: Response status code is 422: {"message": "Missing required parameter"}',
      true,
    );
    const wrongArgument = episode(task, [doc, login, failed, complete()]);
    const retried = episode(task, [
      doc,
      login,
      failed,
      { ...failed, content: "ok", isError: false },
      complete(),
    ]);
    expect(primary(classifyByRules(impossible, appworld))).toBe("impossible-filter");
    expect(primary(classifyByRules(noDoc, appworld))).toBe("doc-not-read");
    expect(primary(classifyByRules(noLogin, appworld))).toBe("not-logged-in");
    expect(primary(classifyByRules(wrongArgument, appworld))).toBe("wrong-argument");
    expect(classifyByRules(retried, appworld).map((label) => label.mode)).not.toContain("wrong-argument");
  });

  it("labels a task completed before the change it asks for, or a question completed without an answer", () => {
    const change = episode(task, [doc, login, complete()]);
    const question = episode("My name is: A. Task: How many notes do I have?", [doc, login, complete()]);
    const answered = episode("My name is: A. Task: How many notes do I have?", [
      doc,
      login,
      complete("apis.supervisor.complete_task(answer=3)"),
    ]);
    expect(primary(classifyByRules(change, appworld))).toBe("completed-early");
    expect(primary(classifyByRules(question, appworld))).toBe("completed-early");
    expect(classifyByRules(answered, appworld).map((label) => label.mode)).not.toContain("completed-early");
  });
});

describe("sortByPriority", () => {
  it("puts listed modes first in the list's order and keeps the others in found order", () => {
    const labels = ["c", "b", "x", "a", "y"].map((mode) => ({ mode, evidence: "", source: "rules" }));
    expect(sortByPriority(labels, ["a", "b", "c"]).map((label) => label.mode)).toEqual([
      "a",
      "b",
      "c",
      "x",
      "y",
    ]);
  });
});

describe("catch-all", () => {
  it("drops wrong-target when a benchmark rule found a mode, and keeps it otherwise", async () => {
    const appworld = await conventionsOf("benchmarks-appworld", "appworldConventions");
    const code = (text: string, done = false): Call => ({
      name: "execute",
      args: { code: text },
      content: "0",
      done,
    });
    const filter =
      'answer = len([item for item in notes if item["pinned"] == True and item["pinned"] == False])';
    const found = episode("Task: How many notes are pinned?", [
      code("x = 1"),
      code(`${filter}\napis.supervisor.complete_task(answer=answer)`, true),
    ]);
    const plain = episode("Task: How many notes are pinned?", [
      code("x = 1"),
      code("answer = 3\napis.supervisor.complete_task(answer=answer)", true),
    ]);
    expect(classifyByRules(found, appworld).map((label) => label.mode)).toEqual(["impossible-filter"]);
    expect(primary(classifyByRules(plain, appworld))).toBe("wrong-target");
  });
});
