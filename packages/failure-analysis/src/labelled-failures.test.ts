import { readFile } from "node:fs/promises";
import type { FailureConventions, FailureLabel, ObservedTrajectory, Trajectory } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { classifyFailure, type FailureClassifierV1 } from "./failure-classifier.js";
import { parseFailureConventions } from "./failure-conventions.js";
import { defaultModeDirections } from "./failure-modes.js";
import { coverageThreshold, measureAgreement, readLabelledFailures } from "./labelled-failures.js";
import { createRuleClassifier } from "./rule-classifier.js";

const fixtures = new URL("./__fixtures__/labelled-failures/", import.meta.url);

// Each benchmark owns its conventions; the test reads them from the benchmark's source file (data with a
// type-only import) so that this package takes no dependency on a benchmark.
async function conventionsOf(directory: string, name: string): Promise<FailureConventions> {
  const source = new URL(`../../${directory}/src/failure-conventions.ts`, import.meta.url).href;
  const module = (await import(source)) as Record<string, unknown>;
  return parseFailureConventions(module[name]);
}

const benchmarks = [
  { fixture: "dbbench", directory: "benchmarks-dbbench", name: "dbbenchConventions" },
  { fixture: "appworld", directory: "benchmarks-appworld", name: "appworldConventions" },
  { fixture: "swegym", directory: "benchmarks-swegym", name: "sweGymConventions" },
];

describe.each(benchmarks)("hand-labelled $fixture base failures", ({ fixture, directory, name }) => {
  const excerpts = new URL(`${fixture}.jsonl`, fixtures);
  const labels = new URL(`${fixture}-labels.jsonl`, fixtures);

  it("holds at least 60 failures, none carrying grading details, a category or tool-result data", async () => {
    const text = await readFile(excerpts, "utf8");
    for (const key of ["gradeDetails", "category", "data", "label", "gold"])
      expect(text).not.toContain(`"${key}":`);
    const failures = await readLabelledFailures(excerpts, labels);
    expect(failures.length).toBeGreaterThanOrEqual(60);
    expect(failures.every((failure) => !failure.trajectory.success)).toBe(true);
  });

  it("agrees with the hand labels on at least 80% of primary modes, with at least 5 modes over 5%", async () => {
    const conventions = await conventionsOf(directory, name);
    const report = await measureAgreement(await readLabelledFailures(excerpts, labels), conventions);
    expect(report.agreement).toBeGreaterThanOrEqual(0.8);
    expect(report.modesOverFivePercent).toBeGreaterThanOrEqual(5);
    const covering = report.modes.filter((row) => row.classifierShare >= coverageThreshold);
    // every mode evolution may see has fix directions to work on
    for (const row of covering) expect(defaultModeDirections[row.mode]?.length ?? 0).toBeGreaterThan(0);
    // the first test to import a benchmark's conventions pays for transforming its source
  }, 120_000);

  it("falls below 80% agreement without the benchmark's own rules (the modes come from them)", async () => {
    const conventions = await conventionsOf(directory, name);
    const failures = await readLabelledFailures(excerpts, labels);
    const before = await measureAgreement(failures, { ...conventions, modeRules: [], modePriority: [] });
    // without the benchmark's own rules the classifier cannot tell these failures apart
    expect(before.agreement).toBeLessThan(0.8);
  }, 120_000);
});

describe("classifier input", () => {
  it("excludes grading details, the dataset category and tool-result data, and the rules do not need them", async () => {
    const conventions = await conventionsOf("benchmarks-dbbench", "dbbenchConventions");
    const [failure] = await readLabelledFailures(
      new URL("dbbench.jsonl", fixtures),
      new URL("dbbench-labels.jsonl", fixtures),
    );
    if (failure === undefined) throw new Error("empty fixture");
    const secret = "SECRET-GOLD-7f3a";
    const full: Trajectory = {
      ...(failure.trajectory as ObservedTrajectory),
      category: secret,
      gradeDetails: { label: [secret], expectedHash: secret },
      steps: failure.trajectory.steps.map((step) => ({
        ...step,
        executed: step.executed.map((entry) => ({
          ...entry,
          result: { ...entry.result, data: { affectedRows: 0, answer: secret } },
        })),
      })),
    } as Trajectory;
    const seen: string[] = [];
    const recording: FailureClassifierV1 = {
      specificationVersion: "v1",
      id: "recording",
      async classify(trajectory, options) {
        seen.push(JSON.stringify({ trajectory, options }));
        return [];
      },
    };
    const rules = createRuleClassifier(conventions);
    const withHidden = await classifyFailure(full, [recording, rules]);
    const withoutHidden = await classifyFailure(failure.trajectory, [rules]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(secret);
    expect(seen[0]).not.toContain("affectedRows");
    expect(seen[0]).not.toContain("gradeDetails");
    const modes = (labels: FailureLabel[]) => labels.map((label) => label.mode);
    expect(modes(withHidden)).toEqual(modes(withoutHidden));
  });
});
