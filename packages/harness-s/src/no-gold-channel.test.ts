import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChatPolicy } from "@hs/chat-policy";
import { createLlmProposer, evolvePool, type ProposerV1 } from "@hs/evolution";
import { createLlmClassifier, createRuleClassifier, type FailureClassifierV1 } from "@hs/failure-analysis";
import {
  createLookupSensitivePolicy,
  createRecordingLearner,
  lookupPool,
  lookupTextHarness,
  startChatServer,
} from "@hs/harness/test-environments";
import { buildProfile, type ProfileBuilder, profilePool } from "@hs/profiles";
import { defaultTrainerConfig } from "@hs/rescue-grpo";
import {
  createCombinedRouter,
  createLlmJudge,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
} from "@hs/router";
import type { JudgeV1, RouterV1 } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import {
  createGoldMarkedBenchmark,
  goldMarker,
  observableCategory,
  secretCategory,
} from "./__fixtures__/gold-marked-benchmark.js";
import { trainMethod } from "./train-method.js";

/** Every input a component received, serialised as it arrived. */
const seen: { component: string; text: string }[] = [];
const record = (component: string, value: unknown) => seen.push({ component, text: JSON.stringify(value) });

const server = await startChatServer(() => ({ content: "not json" }));
const directories: string[] = [];
afterAll(async () => {
  await server.close();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});
const model = (name: string) => createChatPolicy({ baseURL: server.baseURL, model: name, maxRetries: 0 });

function recordingClassifier(inner: FailureClassifierV1): FailureClassifierV1 {
  return {
    ...inner,
    classify: (trajectory, options) => {
      record(`classifier ${inner.id}`, { trajectory, options });
      return inner.classify(trajectory, options);
    },
  };
}
function recordingJudge(inner: JudgeV1): JudgeV1 {
  return {
    ...inner,
    vote: (input) => {
      record(`judge ${inner.id}`, input);
      return inner.vote(input);
    },
  };
}
function recordingRouter(inner: RouterV1): RouterV1 {
  return {
    ...inner,
    route: (input) => {
      record(`router ${inner.id}`, input);
      return inner.route(input);
    },
  };
}
const recordingBuilder: ProfileBuilder = (input) => {
  record("profile builder", input);
  return buildProfile(input);
};

function leaks(): string[] {
  return seen
    .filter(({ text }) => text.includes(goldMarker) || text.includes(secretCategory))
    .map(({ component }) => component);
}

describe("no gold channel", () => {
  const benchmark = createGoldMarkedBenchmark();
  const classifiers = [
    recordingClassifier(createRuleClassifier()),
    recordingClassifier(createLlmClassifier({ model: model("classifier"), timeoutMs: 2000 })),
  ];

  it("the grader really writes the marker, so the check below can fail", async () => {
    const { tasks } = await benchmark.loadTasks({});
    const { baseTrajectories } = await profilePool({
      benchmark,
      policy: createLookupSensitivePolicy(),
      pool: lookupPool,
      tasks,
      rolloutsPerTask: 1,
    });
    const raw = JSON.stringify(baseTrajectories);
    expect(raw).toContain(goldMarker);
    expect(raw).toContain(secretCategory);
  });

  it("a Harness-S training step with re-anchoring, and an evolve generation, show neither to any component", async () => {
    const { tasks } = await benchmark.loadTasks({});
    const policy = createLookupSensitivePolicy();
    const { profiles } = await profilePool({
      benchmark,
      policy,
      pool: lookupPool,
      tasks,
      rolloutsPerTask: 2,
      classifiers,
      profileBuilder: recordingBuilder,
    });
    expect(Object.keys(profiles.profiles[lookupPool.base.id]?.perCategory ?? {})).toEqual([
      observableCategory,
    ]);
    const judges = [
      ...defaultProfileJudges(),
      createLlmJudge({ model: model("judge"), timeoutMs: 2000 }),
    ].map(recordingJudge);
    const router = recordingRouter(
      createCombinedRouter({
        id: "harness-s",
        parts: [
          { router: recordingRouter(createProfileRouter()) },
          {
            router: recordingRouter(
              createVotingRouter({ judges, aggregation: "borda", judgeTimeoutMs: 3000 }),
            ),
          },
        ],
      }),
    );
    const outDirectory = await mkdtemp(join(tmpdir(), "hs-no-gold-"));
    directories.push(outDirectory);
    const config = {
      ...defaultTrainerConfig("harness-s", 2),
      groupSize: 2,
      promptsPerStep: 2,
      rolloutBudget: 24,
      rescue: { k: 2, budget: 4, keepBaseNegative: true, reanchorEvery: 1 },
    };
    const result = await trainMethod({
      benchmark,
      harness: lookupTextHarness,
      tasks,
      policy,
      learner: createRecordingLearner(),
      config,
      outDirectory,
      pool: lookupPool,
      profiles,
      router,
      classifiers,
      profileBuilder: recordingBuilder,
    });
    expect(result.profiles?.history.length ?? 0).toBeGreaterThan(1);

    const proposer = createLlmProposer({ model: model("proposer"), timeoutMs: 2000 });
    const recordingProposer: ProposerV1 = {
      ...proposer,
      propose: (request) => {
        record("proposer", request);
        return proposer.propose(request);
      },
    };
    await evolvePool({
      benchmark,
      policy,
      tasks,
      base: lookupTextHarness,
      rolloutsPerTask: 1,
      generations: 1,
      candidatesPerGeneration: 1,
      directions: ["guidance", "budget"],
      classifiers,
      proposer: recordingProposer,
      measureProperties: false,
    });

    const components = new Set(seen.map(({ component }) => component.split(" ")[0]));
    for (const kind of ["router", "judge", "classifier", "proposer", "profile"])
      expect(components).toContain(kind);
    for (const request of server.requests) record(`LLM request ${request.model}`, request);
    expect(new Set(server.requests.map((request) => request.model))).toEqual(
      new Set(["classifier", "judge", "proposer"]),
    );
    expect(seen.some(({ text }) => text.includes(observableCategory))).toBe(true);
    expect(leaks()).toEqual([]);
  });
});
