import { createHarnessConfig, genericConventions, observeTrajectory } from "@hs/harness";
import { lookupEpisode, lookupTextHarness } from "@hs/harness/test-environments";
import type { Trajectory } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { listAnswerConventions } from "./__fixtures__/list-answer-conventions.js";
import { shortContextHarness } from "./__fixtures__/lookup-trajectories.js";
import { classifyFailure } from "./failure-classifier.js";
import { parseFailureConventions } from "./failure-conventions.js";
import { classifyByRules, createRuleClassifier } from "./rule-classifier.js";

const generic = createRuleClassifier();
const modes = async (trajectory: Trajectory) =>
  (await generic.classify(observeTrajectory(trajectory))).map((label) => label.mode).sort();

describe("rule classifier", () => {
  it("labels a success with nothing", async () => {
    const trajectory = await lookupEpisode(["lookup: peru", "answer: Lima"]);
    expect(trajectory.success).toBe(true);
    expect(await generic.classify(observeTrajectory(trajectory))).toEqual([]);
  });

  it("labels budget exhaustion with the step it happened at", async () => {
    const trajectory = await lookupEpisode(["lookup: france"]);
    const labels = await generic.classify(observeTrajectory(trajectory));
    const budget = labels.find((label) => label.mode === "budget-exhausted");
    expect(budget?.step).toBe(5);
    expect(budget?.evidence).toContain("step budget of 6");
    expect(budget?.source).toBe("rules");
  });

  it("labels an unparsable action with the reply as evidence", async () => {
    const trajectory = await lookupEpisode(["I think the capital is Lima"]);
    const labels = await generic.classify(observeTrajectory(trajectory));
    expect(labels.map((label) => label.mode)).toContain("malformed-action");
    expect(labels[0]?.evidence).toContain("I think the capital is Lima");
    expect(labels[0]?.step).toBe(0);
  });

  it("labels a guess without any successful call as a premature answer", async () => {
    expect(await modes(await lookupEpisode(["answer: Paris"]))).toEqual(["premature-answer"]);
  });

  it("labels a tool error never recovered from", async () => {
    const trajectory = await lookupEpisode(["lookup: atlantis", "answer: Lima?"]);
    const labels = await generic.classify(observeTrajectory(trajectory));
    const error = labels.find((label) => label.mode === "unrecovered-tool-error");
    expect(error?.step).toBe(0);
    expect(error?.evidence).toContain("no such key: atlantis");
  });

  it("does not call a recovered tool error unrecovered", async () => {
    const trajectory = await lookupEpisode(["lookup: atlantis", "lookup: france", "answer: Paris"]);
    expect(await modes(trajectory)).toEqual(["wrong-target"]);
  });

  it("labels a wrong answer after a good lookup as the wrong target, quoting the answer", async () => {
    const trajectory = await lookupEpisode(["lookup: france", "answer: Paris"]);
    const [label] = await generic.classify(observeTrajectory(trajectory));
    expect(label?.mode).toBe("wrong-target");
    expect(label?.evidence).toContain('"Paris"');
    expect(label?.step).toBe(1);
  });

  it("labels context cut before the end", async () => {
    const trajectory = await lookupEpisode(["dump", "answer: Lima!"], shortContextHarness);
    expect(await modes(trajectory)).toContain("context-lost");
  });

  it("reads a query protocol's conventions: an empty result answered anyway, and an answer that is not a list", async () => {
    const harness = createHarnessConfig({ ...lookupTextHarness });
    const trajectory = await lookupEpisode(["lookup: france", "answer: Paris"], harness);
    const emptied: Trajectory = {
      ...trajectory,
      steps: trajectory.steps.map((step) =>
        step.index === 0
          ? {
              ...step,
              executed: step.executed.map((entry) => ({
                ...entry,
                result: { ...entry.result, content: "[]" },
              })),
            }
          : step,
      ),
    };
    const labels = classifyByRules(observeTrajectory(emptied), listAnswerConventions).map(
      (label) => label.mode,
    );
    expect(labels).toContain("empty-result-misread");
    expect(labels).toContain("wrong-answer-format");
    const listAnswer = await lookupEpisode(["lookup: france", 'answer: ["Paris"]']);
    expect(
      classifyByRules(observeTrajectory(listAnswer), listAnswerConventions).map((label) => label.mode),
    ).toEqual(["wrong-target"]);
  });

  it("labels an empty result that no later read recovered from", async () => {
    // the capital of France stands in for an empty result
    const conventions = { ...genericConventions, id: "empty-test", emptyResultPattern: "^.*paris.*$" };
    const gaveUp = await lookupEpisode(["lookup: france", "answer: Quito"]);
    const label = classifyByRules(observeTrajectory(gaveUp), conventions).find(
      (entry) => entry.mode === "unrecovered-empty-result",
    );
    expect(label?.step).toBe(0);
    expect(label?.evidence).toContain("france");
    const recovered = await lookupEpisode(["lookup: france", "lookup: peru", "answer: Quito"]);
    expect(
      classifyByRules(observeTrajectory(recovered), conventions).map((entry) => entry.mode),
    ).not.toContain("unrecovered-empty-result");
  });

  it("labels a state change that nothing read back before a wrong answer", async () => {
    // the lookup of "france" stands in for a change (an UPDATE whose reply says nothing)
    const conventions = { ...genericConventions, id: "change-test", changePattern: "^france$" };
    const unread = await lookupEpisode(["lookup: france", "answer: Paris"]);
    const label = classifyByRules(observeTrajectory(unread), conventions).find(
      (entry) => entry.mode === "unchecked-change",
    );
    expect(label?.step).toBe(0);
    expect(label?.evidence).toContain("france");
    const readBack = await lookupEpisode(["lookup: france", "lookup: peru", "answer: Paris"]);
    expect(
      classifyByRules(observeTrajectory(readBack), conventions).map((entry) => entry.mode),
    ).not.toContain("unchecked-change");
    expect(classifyByRules(observeTrajectory(unread), genericConventions).map((entry) => entry.mode)).toEqual(
      ["wrong-target"],
    );
  });

  it("rejects conventions with an invalid pattern, naming the field", () => {
    expect(() => parseFailureConventions({ ...listAnswerConventions, emptyResultPattern: "([" })).toThrow(
      /emptyResultPattern/,
    );
  });

  it("merges classifiers and reports one that throws", async () => {
    const errors: string[] = [];
    const broken = {
      specificationVersion: "v1" as const,
      id: "broken",
      classify: async () => Promise.reject(new Error("boom")),
    };
    const trajectory = await lookupEpisode(["answer: Paris"]);
    const labels = await classifyFailure(trajectory, [broken, generic, generic], {
      onError: (id) => errors.push(id),
    });
    expect(labels.map((label) => label.mode)).toEqual(["premature-answer"]);
    expect(errors).toEqual(["broken"]);
  });
});
