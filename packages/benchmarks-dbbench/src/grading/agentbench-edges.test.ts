import { parseAction } from "@hs/harness";
import type { Task } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createDbBench } from "../create-dbbench.js";
import type { DbBenchRecord } from "../data/dbbench-record.js";
import { v02AnswerArgument } from "../environment.js";
import { v02Preset } from "../presets.js";
import { fcCommitOfArguments, gradeFcToolArguments } from "./fc-commit.js";
import { gradeFcAnswer, gradeV02Answer } from "./grade-answer.js";

// The edge answers on which AgentBench's own code once decided otherwise than ours, each with the line
// that decides it. v0.2 = THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py; FC = THUDM/
// AgentBench (main) src/server/tasks/dbbench/result_processor.py and task.py. The package README's
// edge table lists the same cases with both verdicts.

/** The fields of a record each case sets (the rest from the table below). */
type EdgeRecord = Partial<DbBenchRecord> & Pick<DbBenchRecord, "label" | "type">;

const seats = { table_name: "Seats", table_info: { columns: [{ name: "n" }], rows: [["12"], ["13"]] } };

async function episode(
  record: EdgeRecord,
  protocol: "auto" | "v0.2" | "fc",
  calls: { name: string; arguments: Record<string, unknown>; argumentsText?: string | undefined }[],
  engine?: string,
) {
  const full = { description: "How many?", table: seats, ...record };
  const benchmark = createDbBench({
    protocol,
    readFile: async () => JSON.stringify(full),
    ...(engine === undefined ? {} : { engine }),
  });
  const { tasks } = await benchmark.loadTasks({ path: "edge.jsonl" });
  const environment = await benchmark.createEnvironment(tasks[0] as Task, { seed: 0 });
  try {
    await environment.reset();
    for (const [index, call] of calls.entries()) await environment.step({ id: String(index), ...call });
    return await environment.grade();
  } finally {
    await environment.close();
    await benchmark.close();
  }
}

describe("control characters U+001C-U+001F: str.strip removes them, float() refuses them", () => {
  it("v0.2: ' 12\\x1f' and \" ['12\\x1f']\" fail against 12 (v0.2 line 195 float() raises, line 197 compares text)", () => {
    expect(gradeV02Answer(" 12\x1f", ["12"])).toBe(false);
    expect(gradeV02Answer(" ['12\\x1f']", ["12"])).toBe(false);
    expect(gradeV02Answer(" ['12\x1f']", ["12"])).toBe(false);
    // a space float() does strip still passes
    expect(gradeV02Answer(" 12\u2000", ["12"])).toBe(true);
  });
  it('FC: "[\'12\\u001f,]" fails against 12 (result_processor.py lines 231-246 split it, 268-272 float() raises)', () => {
    expect(gradeFcAnswer("['12\u001f,]", ["12"])).toBe(false);
    expect(gradeFcToolArguments('{"answers":"[\'12\\u001f,]"}', ["12"])).toBe(false);
    // str.strip() still removes them at the ends (line 211)
    expect(gradeFcAnswer("\u001f12\u001e", ["12"])).toBe(true);
  });
});

describe("whitespace at the end of the answer line: v0.2 grades the text untrimmed (v0.2 lines 123-125)", () => {
  it("fails ' [\"Giza\"]\\u00a0' and ' [\"12\"]\\x0b' (eval raises, line 190; the raw text is no float, line 195)", () => {
    expect(gradeV02Answer(' ["Giza"]\u00a0', ["Giza"])).toBe(false);
    expect(gradeV02Answer(' ["12"]\x0b', ["12"])).toBe(false);
  });
  it("passes 'Giza ' against the label 'Giza ' (line 197 compares the text with its space)", () => {
    expect(gradeV02Answer("Giza ", ["Giza "])).toBe(true);
  });
  it("gives the same verdicts through the v0.2 preset's reply parsing (the answer line is not trimmed)", async () => {
    const throughPreset = async (reply: string, label: string[]) => {
      const parsed = parseAction(v02Preset.actionFormat, { content: reply, logprob: null }, "0");
      if (!parsed.ok) throw new Error(parsed.reason);
      return episode({ label, type: ["other"] }, "auto", parsed.calls);
    };
    expect((await throughPreset('Action: Answer\nFinal Answer: ["Giza"]\u00a0', ["Giza"])).success).toBe(
      false,
    );
    expect((await throughPreset('Action: Answer\nFinal Answer: ["12"]\x0b', ["12"])).success).toBe(false);
    expect((await throughPreset("Action: Answer\nFinal Answer:Giza ", ["Giza "])).success).toBe(true);
    expect((await throughPreset('Action: Answer\nFinal Answer: ["Giza"]', ["Giza"])).success).toBe(true);
  });
});

describe("JSON numbers in FC arguments: json.loads keeps what Python makes of the text (task.py line 138)", () => {
  it("passes [1.0,\"x\"] against ['1.0','x'] and a 20-digit integer against its digits", () => {
    expect(gradeFcToolArguments('{"answers":[1.0,"x"]}', ["1.0", "x"])).toBe(true);
    expect(gradeFcToolArguments('{"answers":[1,"x"]}', ["1.0", "x"])).toBe(false);
    expect(
      gradeFcToolArguments('{"answers":[12345678901234567890,"x"]}', ["12345678901234567890", "x"]),
    ).toBe(true);
    // after JSON.parse the number's text is gone: 1.0 is 1 (the README's edge table says so)
    expect(gradeFcAnswer(JSON.parse('[1.0,"x"]'), ["1.0", "x"])).toBe(false);
  });
  it("gives the same verdicts in an FC episode whose call carries the arguments' JSON text", async () => {
    const commit = async (text: string, label: string[]) =>
      (
        await episode({ label, type: ["other"] }, "fc", [
          { name: "commit_final_answer", arguments: JSON.parse(text), argumentsText: text },
        ])
      ).success;
    expect(await commit('{"answers":[1.0,"x"]}', ["1.0", "x"])).toBe(true);
    expect(await commit('{"answers":[12345678901234567890,"x"]}', ["12345678901234567890", "x"])).toBe(true);
    expect(await commit('{"answers":[1,"x"]}', ["1.0", "x"])).toBe(false);
  });
});

describe("protocol auto routes by the argument, not by a leading colon (task.py line 172)", () => {
  it("grades an FC string ':12' by FC's rules (fails) and the v0.2 line ': 12' by v0.2's (passes)", async () => {
    const record = { label: ["12"], type: ["counting"] };
    const fc = await episode(record, "auto", [
      { name: "commit_final_answer", arguments: { answers: ":12" } },
    ]);
    expect(fc).toMatchObject({ success: false, details: { protocol: "fc" } });
    const line = await episode(record, "auto", [
      { name: "commit_final_answer", arguments: { [v02AnswerArgument]: ": 12" } },
    ]);
    expect(line).toMatchObject({ success: true, details: { protocol: "v0.2" } });
  });
});

describe("FC commit_final_answer takes the first argument's value (task.py lines 172-176, 242-245)", () => {
  it("ends {} in a task error (IndexError), which fails even the label 'none'", async () => {
    expect(fcCommitOfArguments({})).toMatchObject({ ok: false });
    const grade = await episode({ label: ["none"], type: ["other"] }, "fc", [
      { name: "commit_final_answer", arguments: {} },
    ]);
    expect(grade.success).toBe(false);
    expect(String(grade.details.reason)).toMatch(/IndexError/);
  });
  it("reads {reason, answers} as the answer 'x'", async () => {
    const grade = await episode({ label: ["Giza"], type: ["other"] }, "fc", [
      { name: "commit_final_answer", arguments: { reason: "x", answers: ["Giza"] } },
    ]);
    expect(grade.success).toBe(false);
    expect(gradeFcToolArguments('{"answers":["Giza"],"reason":"x"}', ["Giza"])).toBe(true);
  });
  it("ends a non-empty number or object in a task error (answer[:100] raises TypeError), an INSERT too", async () => {
    expect(gradeFcToolArguments('{"answers":12}', ["12"])).toBe(false);
    expect(fcCommitOfArguments({ answers: 0 })).toMatchObject({ ok: true });
    const insert = await episode(
      { label: ["INSERT INTO `Seats` (n) VALUES ('14')"], type: ["INSERT"] },
      "fc",
      [
        { name: "execute_sql", arguments: { query: "INSERT INTO `Seats` (n) VALUES ('14')" } },
        { name: "commit_final_answer", arguments: { answers: { n: 14 } } },
      ],
    );
    expect(insert).toMatchObject({ success: false, details: { reason: expect.stringMatching(/TypeError/) } });
  });
});

const deleteAll = {
  label: ["DELETE FROM `Seats`"],
  type: ["DELETE"],
  answer_md5: "[(None,)]",
};

describe("a DELETE that empties the table against the expected hash [(None,)] passes", () => {
  const engines = ["sqlite", ...(process.env.HS_MYSQL_URL === undefined ? [] : [process.env.HS_MYSQL_URL])];
  for (const engine of engines) {
    for (const protocol of ["v0.2", "fc", "auto"] as const) {
      it(`on ${engine.split("@").at(-1)} under ${protocol} (v0.2 lines 148 and 187; FC result_processor.py lines 27-28, 93-94)`, async () => {
        const emptied = await episode(
          deleteAll,
          protocol,
          [
            { name: "execute_sql", arguments: { query: "DELETE FROM `Seats`" } },
            { name: "commit_final_answer", arguments: { answers: [] } },
          ],
          engine,
        );
        expect(emptied).toMatchObject({ success: true, details: { actualHash: null, expectedHash: null } });
        const kept = await episode(
          deleteAll,
          protocol,
          [{ name: "commit_final_answer", arguments: { answers: [] } }],
          engine,
        );
        expect(kept.success).toBe(false);
        const dropped = await episode(
          deleteAll,
          protocol,
          [
            { name: "execute_sql", arguments: { query: "DROP TABLE `Seats`" } },
            { name: "commit_final_answer", arguments: { answers: [] } },
          ],
          engine,
        );
        expect(dropped.success).toBe(false);
      }, 30_000);
    }
  }
});

describe("an INSERT under the FC preset that never commits (documented difference)", () => {
  it("passes under auto, which hashes every episode as v0.2 does, and fails under fc (task.py 171-188)", async () => {
    const insert = { label: ["INSERT INTO `Seats` (n) VALUES ('14')"], type: ["INSERT"] };
    const calls = [{ name: "execute_sql", arguments: { query: "INSERT INTO `Seats` (n) VALUES ('14')" } }];
    expect((await episode(insert, "auto", calls)).success).toBe(true);
    expect((await episode(insert, "fc", calls)).success).toBe(false);
  });
});

describe("values Python reads that JavaScript does not", () => {
  it("v0.2 passes [b'12'] against 12: float(b'12') is 12.0 (v0.2 line 195)", () => {
    expect(gradeV02Answer(" [b'12']", ["12"])).toBe(true);
    expect(gradeV02Answer(" [b' 12 ']", ["12"])).toBe(true);
    expect(gradeV02Answer(" [b'12']", ["Giza"])).toBe(false);
    // FC compares str(b'12'), which is "b'12'" (result_processor.py line 226)
    expect(gradeFcAnswer("[b'12']", ["12"])).toBe(false);
  });
  it("v0.2 fails labels stored as JSON numbers against strings: set(cor) holds ints (v0.2 lines 202-204)", async () => {
    expect(gradeV02Answer(" ['12', '13']", [12, 13])).toBe(false);
    expect(gradeV02Answer(" [12, 13]", [12, 13])).toBe(true);
    // one element compares as floats, so the type does not matter there (line 195)
    expect(gradeV02Answer(" ['12']", [12])).toBe(true);
    // FC turns every label item into text (result_processor.py lines 250-261)
    expect(gradeFcAnswer(["12", "13"], [12, 13])).toBe(true);
    const grade = await episode({ label: [12, 13], type: ["other"] }, "v0.2", [
      { name: "commit_final_answer", arguments: { [v02AnswerArgument]: ": ['12', '13']" } },
    ]);
    expect(grade.success).toBe(false);
  });
});

describe("Python eval beyond literals: deliberately not reproduced (README, edge table)", () => {
  it("fails what only a Python expression or the grader's local variable would pass", () => {
    expect(gradeV02Answer(' [f"Giza"]', ["Giza"])).toBe(false);
    expect(gradeV02Answer(' ["1"+"2"]', ["12"])).toBe(false);
    expect(gradeV02Answer(" [~5]", ["-6"])).toBe(false);
    expect(gradeV02Answer(' ["\\N{DIGIT ONE}2"]', ["12"])).toBe(false);
    expect(gradeFcAnswer("[1+1]", ["2"])).toBe(false);
    // `eval(" cor")` reads acc()'s local variable holding the label (v0.2 lines 178 and 190)
    expect(gradeV02Answer(" cor", ["Giza"])).toBe(false);
  });
});
