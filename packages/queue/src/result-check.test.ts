import { harnessHash, runEpisode } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { Trajectory } from "@hs/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { queuePackageVersion } from "./queue-version.js";
import { resultProblem } from "./result-check.js";
import { type RolloutJob, rolloutJobSchema } from "./rollout-job.js";

let job: RolloutJob;
let trajectory: Trajectory;
beforeAll(async () => {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const task = tasks[0];
  if (task === undefined) throw new Error("no lookup task");
  const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 1 });
  trajectory = await runEpisode({ task, benchmark, harness: lookupTextHarness, policy, seed: 7 });
  job = {
    formatVersion: 1,
    queueVersion: queuePackageVersion,
    key: {
      run: "r",
      phase: "train",
      policyVersion: policy.version,
      taskId: task.id,
      harnessHash: harnessHash(lookupTextHarness),
      seed: 7,
      mode: "sample",
    },
    task,
    benchmark: { specifier: "lookup", options: {}, tasks: {} },
    harness: lookupTextHarness,
    policy: {
      kind: "embedded",
      id: policy.id,
      version: policy.version,
      weightsKey: "k",
      weightsSha256: "0".repeat(64),
    },
    timeLimitMs: 1000,
  };
});

const result = (changes: Record<string, unknown> = {}) => ({
  formatVersion: 1,
  jobId: "j1",
  queueVersion: queuePackageVersion,
  worker: "w",
  trajectory,
  ...changes,
});

describe("resultProblem", () => {
  it("accepts the job's own trajectory", () => {
    expect(rolloutJobSchema.safeParse(job).success).toBe(true);
    expect(resultProblem("j1", job, result()).problem).toBeNull();
  });

  it("names the field of a result that is not one", () => {
    expect(resultProblem("j1", job, { hello: 1 }).problem).toMatch(/^not a rollout result \(/);
    expect(resultProblem("j1", job, result({ trajectory: { ...trajectory, reward: 2 } })).problem).toMatch(
      /trajectory\.reward/,
    );
  });

  it("refuses another job's answer, another version's and another rollout's trajectory", () => {
    expect(resultProblem("j1", job, result({ jobId: "j2" })).problem).toBe("answers job j2, not j1");
    expect(resultProblem("j1", job, result({ queueVersion: "9.9.9" })).problem).toMatch(/@hs\/queue 9\.9\.9/);
    expect(resultProblem("j1", job, result({ trajectory: { ...trajectory, seed: 8 } })).problem).toBe(
      "its trajectory has seed 8, the job 7",
    );
    expect(
      resultProblem("j1", job, result({ trajectory: { ...trajectory, policyVersion: "seed1-u9" } })).problem,
    ).toMatch(/policyVersion "seed1-u9"/);
  });
});
