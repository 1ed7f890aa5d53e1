import { createChatPolicy } from "@hs/chat-policy";
import { type ChatServerReply, startChatServer } from "@hs/harness/test-environments";
import { afterEach, describe, expect, it } from "vitest";
import { createCombinedRouter } from "./combined-router.js";
import { conformanceFixtures } from "./conformance.js";
import { createLlmJudge } from "./llm-judge.js";
import { defaultProfileJudges } from "./profile-judges.js";
import { createProfileRouter } from "./profile-router.js";
import { createVotingRouter } from "./voting-router.js";

const fixtures = conformanceFixtures();
const input = {
  task: fixtures.task,
  failedGroup: fixtures.failedGroup,
  pool: fixtures.pool,
  profiles: fixtures.profiles,
  k: 2,
  seed: 1,
};
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function judgeServer(byModel: Record<string, ChatServerReply>) {
  const server = await startChatServer((request) => byModel[request.model] ?? { status: 404, body: "{}" });
  closers.push(server.close);
  const judge = (model: string, timeoutMs = 5000) =>
    createLlmJudge({ model: createChatPolicy({ baseURL: server.baseURL, model, maxRetries: 0 }), timeoutMs });
  return { server, judge };
}

const goodAnswer = JSON.stringify({
  ranking: [
    { harnessId: "sibling-verification", reason: "the group answered too early" },
    { harnessId: "sibling-budget", reason: "two attempts ran out of steps" },
  ],
});

describe("LLM judges over HTTP", () => {
  it("parses a ranking, ranks omitted siblings last, and sends profiles and the failed group", async () => {
    const { server, judge } = await judgeServer({ good: { content: `Ranking:\n${goodAnswer}` } });
    const vote = await judge("good").vote(input);
    expect(vote.judgeId).toBe("llm:openai-compatible:good");
    expect(vote.ranking.map((entry) => [entry.harnessId, entry.score])).toEqual([
      ["sibling-verification", 4],
      ["sibling-budget", 3],
      ["sibling-guidance", 0],
      ["sibling-context", 0],
    ]);
    expect(vote.ranking[0]?.reasons).toEqual(["the group answered too early"]);
    const prompt = server.requests[0]?.messages.map((message) => message.content).join("\n") ?? "";
    expect(prompt).toContain("sibling-budget (direction budget)");
    expect(prompt).toContain("budget-exhausted 6/8");
    expect(prompt).toContain("All 3 attempts under the base harness failed");
  });

  it("a garbage judge and a late judge are dropped with their reasons; the vote still decides", async () => {
    const { judge } = await judgeServer({
      good: { content: goodAnswer },
      garbage: { content: "I like sibling-budget best!" },
      outside: { content: JSON.stringify({ ranking: [{ harnessId: "sibling-imaginary", reason: "x" }] }) },
      late: { content: goodAnswer, delayMs: 3000 },
    });
    const router = createVotingRouter({
      judges: [
        judge("good"),
        judge("garbage"),
        judge("outside"),
        judge("late", 200),
        ...defaultProfileJudges(),
      ],
      aggregation: "borda",
    });
    const started = Date.now();
    const decision = await router.route(input);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(decision.votes?.map((vote) => vote.judgeId)).toEqual([
      "llm:openai-compatible:good",
      "rescue-matrix",
      "category",
      "direction",
    ]);
    const reasons = Object.fromEntries(
      (decision.dropped ?? []).map((entry) => [entry.judgeId, entry.reason]),
    );
    expect(reasons["llm:openai-compatible:garbage"]).toMatch(/no JSON object in the reply/);
    expect(reasons["llm:openai-compatible:outside"]).toMatch(/"sibling-imaginary", which is not in the pool/);
    expect(reasons["llm:openai-compatible:late"]).toMatch(/timeout after 200 ms/);
    expect(decision.selected).toHaveLength(2);
    expect(decision.selected[0]).toBe("sibling-budget");
  });

  it("an LLM voting router combines with the profile router", async () => {
    const { judge } = await judgeServer({ good: { content: goodAnswer } });
    const router = createCombinedRouter({
      parts: [{ router: createProfileRouter() }, { router: createVotingRouter({ judges: [judge("good")] }) }],
    });
    const decision = await router.route(input);
    expect(decision.votes).toHaveLength(1);
    expect(
      decision.ranking
        .map((entry) => entry.harnessId)
        .slice(0, 2)
        .sort(),
    ).toEqual(["sibling-budget", "sibling-verification"]);
  });
});
