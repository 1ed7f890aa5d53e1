import { createChatPolicy } from "@hs/chat-policy";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupTextHarness,
  startChatServer,
} from "@hs/harness/test-environments";
import { afterAll, describe, expect, it } from "vitest";
import { evolvePool } from "./evolve.js";
import { createLlmProposer } from "./proposer.js";

describe("evolvePool with an LLM proposer over HTTP", async () => {
  const server = await startChatServer((request) => {
    const system = request.messages[0]?.content ?? "";
    if (system.includes("Fix direction: budget")) {
      return {
        content: JSON.stringify({
          sectionName: "budget",
          section: { maxSteps: 8, maxOutputChars: null },
          rationale: "runs out of steps",
        }),
      };
    }
    return {
      content: JSON.stringify({ sectionName: "budget", section: { maxSteps: 50, maxOutputChars: null } }),
    };
  });
  afterAll(() => server.close());
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const proposer = createLlmProposer({
    model: createChatPolicy({ baseURL: server.baseURL, model: "proposer", maxRetries: 0 }),
    timeoutMs: 5000,
  });
  const { pool, report } = await evolvePool({
    benchmark,
    policy: createLookupSensitivePolicy(),
    tasks,
    base: lookupTextHarness,
    rolloutsPerTask: 4,
    generations: 1,
    // the proposer's candidates alone: no operator children, and no first generation of every entry
    candidatesPerGeneration: 0,
    firstGeneration: "sampled",
    directions: ["budget", "verification"],
    proposer,
    measureProperties: false,
  });

  it("validates accepted proposals like operator candidates and logs rejected ones with the reason", () => {
    expect(report.proposals).toEqual([
      {
        proposerId: "llm-proposer:openai-compatible:proposer",
        direction: "budget",
        accepted: true,
        detail: "runs out of steps",
      },
      expect.objectContaining({
        direction: "verification",
        accepted: false,
        detail: expect.stringContaining('may change only "verification"'),
      }),
    ]);
    const sibling = pool.siblings.find((entry) => entry.direction === "budget");
    expect(sibling?.config.budget.maxSteps).toBe(8);
    expect(report.directions.find((entry) => entry.direction === "budget")?.candidates[0]?.edits).toEqual([
      "llm-proposer:openai-compatible:proposer",
    ]);
    expect(pool.siblings.some((entry) => entry.direction === "verification")).toBe(false);
  });
});
