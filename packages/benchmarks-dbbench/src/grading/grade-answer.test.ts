import { describe, expect, it } from "vitest";
import { cleanFcAnswer, gradeFcAnswer, gradeV02Answer, hashFromAnswerMd5 } from "./grade-answer.js";

describe("v0.2 grading (AgentBench v0.2 metrics)", () => {
  it("compares one element as floats when both parse, exactly", () => {
    expect(gradeV02Answer(' ["12"]', ["12.0"])).toBe(true);
    expect(gradeV02Answer(" [12]", ["12.0"])).toBe(true);
    expect(gradeV02Answer(' ["12.001"]', ["12.0"])).toBe(false);
  });
  it("falls back to exact strings for one non-numeric element", () => {
    expect(gradeV02Answer(' ["March 19, 1998"]', ["March 19, 1998"])).toBe(true);
    expect(gradeV02Answer(' ["march 19, 1998"]', ["March 19, 1998"])).toBe(false);
  });
  it("turns a bare quoted string into its characters, as list(eval(...)) does", () => {
    expect(gradeV02Answer(' "Paris"', ["Paris"])).toBe(false);
    expect(gradeV02Answer(' "P"', ["P"])).toBe(true);
  });
  it("uses the raw text as one element when eval fails", () => {
    expect(gradeV02Answer(" Paris", ["Paris"])).toBe(false);
    expect(gradeV02Answer(" 5", ["5"])).toBe(true);
  });
  it("compares several elements as sets (duplicates collapse, types matter)", () => {
    expect(gradeV02Answer(' ["a", "a", "b"]', ["b", "a"])).toBe(true);
    expect(gradeV02Answer(" [1, 2]", ["1", "2"])).toBe(false);
    expect(gradeV02Answer(' ["a"]', ["a", "b"])).toBe(false);
  });
  it("keeps accents and case exact", () => {
    expect(gradeV02Answer(' ["Montreal"]', ["Montréal"])).toBe(false);
    expect(gradeV02Answer(' ["Montréal"]', ["Montréal"])).toBe(true);
  });
});

describe("FC grading (AgentBench result_processor.py)", () => {
  it("normalises quotes, thousands commas, percent and None/null/empty", () => {
    expect(cleanFcAnswer(["'12,000'", "45%", "None", "", null])).toEqual(["12000", "45", "0", "0", "0"]);
    expect(gradeFcAnswer([null], ["null"])).toBe(true);
  });
  it("accepts numbers within 0.01 for one value", () => {
    expect(gradeFcAnswer(["12"], ["12.0"])).toBe(true);
    expect(gradeFcAnswer(["12.009"], ["12"])).toBe(true);
    expect(gradeFcAnswer(["12.02"], ["12"])).toBe(false);
  });
  it("matches several numbers one to one", () => {
    expect(gradeFcAnswer(["1", "2"], ["2.0", "1.0"])).toBe(true);
    expect(gradeFcAnswer(["1", "1"], ["1", "2"])).toBe(false);
    expect(gradeFcAnswer(["1", "1", "2"], ["1", "2"])).toBe(false);
  });
  it("compares several texts as sets, duplicates collapsing", () => {
    expect(gradeFcAnswer(["a", "a", "b"], ["b", "a"])).toBe(true);
    expect(gradeFcAnswer(["Montreal"], ["Montréal"])).toBe(false);
  });
  it("reads the connector's tuple-list text as an answer", () => {
    expect(cleanFcAnswer("[('x',), (3,)]")).toEqual(["x", "3"]);
    expect(gradeFcAnswer("[('March 19, 1998',)]", ["March 19, 1998"])).toBe(true);
  });
  it("extracts the hash from answer_md5", () => {
    expect(hashFromAnswerMd5("[('e63818ea2e715870f6b76d69d94d6143',)]")).toBe(
      "e63818ea2e715870f6b76d69d94d6143",
    );
    expect(hashFromAnswerMd5("[(None,)]")).toBeNull();
  });
});
