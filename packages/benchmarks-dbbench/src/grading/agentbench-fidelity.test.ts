import { describe, expect, it } from "vitest";
import { createDbBench } from "../create-dbbench.js";
import { v02AnswerArgument, v02AnswerText } from "../environment.js";
import { v02Preset } from "../presets.js";
import { pythonEval } from "../python/python-eval.js";
import { asciiDigits, parsePythonFloat, pythonStrip } from "../python/python-value.js";
import { cleanFcAnswer, gradeFcAnswer, gradeV02Answer } from "./grade-answer.js";

// Grading differences from AgentBench found by hand-made answers, each with the line of
// AgentBench it follows: v0.2 = THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py, FC = main
// src/server/tasks/dbbench/result_processor.py and task.py.

/** What the v0.2 preset's answer rule captures from a reply (before the harness trims it). */
function capture(reply: string): string | undefined {
  const rule = v02Preset.actionFormat.kind === "text" ? v02Preset.actionFormat.rules[1] : undefined;
  const match = new RegExp(rule?.pattern ?? "$^").exec(reply);
  return match?.[1]?.trim();
}

describe("v0.2 answer capture (lines 123-125: re.search(r'\\nFinal Answer:(.*)', res).group(1), untrimmed)", () => {
  it("keeps the space after the colon, so a bare text answer fails as in AgentBench", () => {
    const text = v02AnswerText(capture("Action: Answer\nFinal Answer: Giza"));
    expect(text).toBe(" Giza");
    expect(gradeV02Answer(text as string, ["Giza"])).toBe(false);
    expect(gradeV02Answer(" Giza", ["Giza"])).toBe(false);
  });

  it("passes a list answer and a bare number (float() ignores spaces, line 195)", () => {
    expect(
      gradeV02Answer(v02AnswerText(capture('Action: Answer\nFinal Answer: ["Giza"]')) ?? "", ["Giza"]),
    ).toBe(true);
    expect(gradeV02Answer(" 12", ["12"])).toBe(true);
  });

  it("stops at a newline only, as Python's `.` does (a carriage return is captured)", () => {
    expect(capture('Action: Answer\nFinal Answer: ["a"]\r\nmore')).toBe(': ["a"]');
  });
});

describe("protocol auto: FC rules for anything that is not a v0.2 capture (task.py commit_final_answer)", () => {
  it("grades an FC tool call's string argument by FC's rules ('1,000' matches 1000)", async () => {
    const record = {
      description: "How many seats?",
      label: ["1000"],
      table: { table_name: "Seats", table_info: { columns: [{ name: "n" }], rows: [["1,000"]] } },
      type: ["counting"],
    };
    const benchmark = createDbBench({ readFile: async () => JSON.stringify(record) });
    const { tasks } = await benchmark.loadTasks({ path: "seats.jsonl" });
    const grades: unknown[] = [];
    const commits = [{ answers: "1,000" }, { [v02AnswerArgument]: ": 1,000" }, { answers: ["1,000"] }];
    for (const commit of commits) {
      const environment = await benchmark.createEnvironment(tasks[0] as never, { seed: 0 });
      await environment.reset();
      await environment.step({ id: "1", name: "commit_final_answer", arguments: commit });
      const grade = await environment.grade();
      grades.push([grade.details.protocol, grade.success]);
      await environment.close();
    }
    await benchmark.close();
    // FC: _normalize_special_values drops thousands commas (result_processor.py lines 131-136)
    expect(grades).toEqual([
      ["fc", true],
      ["v0.2", false],
      ["fc", true],
    ]);
  });
});

describe("Python semantics", () => {
  it("float() reads any Unicode decimal digits (v0.2 line 195; FC _is_float, line 269)", () => {
    expect(asciiDigits("١٢.٥")).toBe("12.5");
    expect(parsePythonFloat("１２")).toBe(12);
    expect(parsePythonFloat("𝟏𝟐")).toBe(12);
    expect(gradeV02Answer(" ['١٢']", ["12"])).toBe(true);
    expect(gradeFcAnswer(["１２"], ["12.0"])).toBe(true);
  });

  it("a set display drops duplicates: list(eval('{...}')) has one item (v0.2 line 190)", () => {
    expect(pythonEval("{'7', '7'}")).toEqual({ kind: "set", items: [{ kind: "str", value: "7" }] });
    expect(pythonEval("{1, 1.0, True}")).toEqual({ kind: "set", items: [{ kind: "int", value: 1n }] });
    // one item on each side, so float() compares: 7 == 7.0 (line 195)
    expect(gradeV02Answer(" {'7', '7'}", ["7.0"])).toBe(true);
    expect(pythonEval("{'a': 1, 'a': 2}")).toEqual({
      kind: "dict",
      entries: [
        [
          { kind: "str", value: "a" },
          { kind: "int", value: 2n },
        ],
      ],
    });
  });

  it("str.strip() keeps a byte order mark and removes U+001C-U+001F, unlike String.trim (FC line 211)", () => {
    expect(pythonStrip("\uFEFFx\u001c\u001f ")).toBe("\uFEFFx");
    expect("\uFEFFx\u001c".trim()).toBe("x\u001c");
    expect(cleanFcAnswer("\u001fParis\u001e")).toEqual(["Paris"]);
    expect(cleanFcAnswer("\uFEFFParis")).toEqual(["\uFEFFParis"]);
    expect(gradeFcAnswer("\uFEFFParis", ["Paris"])).toBe(false);
  });
});
