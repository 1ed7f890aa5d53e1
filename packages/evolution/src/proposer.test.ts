import { createChatPolicy } from "@hs/chat-policy";
import { observeTrajectory } from "@hs/harness";
import {
  type ChatServerReply,
  lookupEpisode,
  lookupTextHarness,
  startChatServer,
} from "@hs/harness/test-environments";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmProposer, type ProposalLogEntry } from "./proposer.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function proposerAnswering(reply: ChatServerReply, timeoutMs = 5000) {
  const server = await startChatServer(() => reply);
  close = server.close;
  const log: ProposalLogEntry[] = [];
  const model = createChatPolicy({ baseURL: server.baseURL, model: "proposer-test", maxRetries: 0 });
  const proposer = createLlmProposer({ model, timeoutMs, onLog: (entry) => log.push(entry) });
  const failures = [observeTrajectory(await lookupEpisode(["lookup: france"]))];
  return { proposer, log, failures, server };
}

describe("LLM proposer over HTTP", () => {
  it("accepts a valid edit of the direction's section and shows the failures in the prompt", async () => {
    const answer = {
      sectionName: "budget",
      section: { maxSteps: 12, maxOutputChars: null },
      rationale: "episodes run out of steps",
    };
    const { proposer, log, failures, server } = await proposerAnswering({
      content: `Here:\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``,
    });
    const result = await proposer.propose({
      direction: "budget",
      config: lookupTextHarness,
      failures,
      seed: 1,
    });
    expect(result.accepted).toBe(true);
    if (result.accepted) {
      expect(result.config.budget.maxSteps).toBe(12);
      expect(result.config.prompt).toEqual(lookupTextHarness.prompt);
    }
    expect(log).toEqual([
      {
        proposerId: "llm-proposer:openai-compatible:proposer-test",
        direction: "budget",
        accepted: true,
        detail: "episodes run out of steps",
      },
    ]);
    expect(server.requests[0]?.messages[1]?.content).toContain("step budget of 6 used");
  });

  it("rejects an edit that fails the HarnessConfig schema, with the field, and logs it", async () => {
    const answer = { sectionName: "budget", section: { maxSteps: -3, maxOutputChars: null } };
    const { proposer, log, failures } = await proposerAnswering({ content: JSON.stringify(answer) });
    const result = await proposer.propose({
      direction: "budget",
      config: lookupTextHarness,
      failures,
      seed: 1,
    });
    expect(result.accepted).toBe(false);
    if (!result.accepted) expect(result.reason).toMatch(/invalid harness config at "budget\.maxSteps"/);
    expect(log[0]?.accepted).toBe(false);
    expect(log[0]?.detail).toMatch(/budget\.maxSteps/);
  });

  it("rejects an edit of another direction's section", async () => {
    const answer = {
      sectionName: "verification",
      section: { enabled: true, prompt: "{answer}?", maxChecks: 1 },
    };
    const { proposer, log, failures } = await proposerAnswering({ content: JSON.stringify(answer) });
    const result = await proposer.propose({
      direction: "budget",
      config: lookupTextHarness,
      failures,
      seed: 1,
    });
    expect(result.accepted).toBe(false);
    if (!result.accepted) expect(result.reason).toContain('may change only "budget"');
    expect(log).toHaveLength(1);
  });

  it("rejects an invalid regular expression in an action-format edit", async () => {
    const section = {
      kind: "text",
      rules: [{ tool: "submit", pattern: "answer: ((", flags: "", arguments: { answer: 1 } }],
    };
    const { proposer, failures } = await proposerAnswering({
      content: JSON.stringify({ sectionName: "actionFormat", section }),
    });
    const result = await proposer.propose({
      direction: "action-format",
      config: lookupTextHarness,
      failures,
      seed: 1,
    });
    expect(result.accepted).toBe(false);
    if (!result.accepted) expect(result.reason).toMatch(/actionFormat\.rules\.0\.pattern/);
  });

  it("rejects a reply that is not JSON, one that changes nothing, and one that is late", async () => {
    const garbage = await proposerAnswering({ content: "I would raise the budget." });
    const first = await garbage.proposer.propose({
      direction: "budget",
      config: lookupTextHarness,
      failures: garbage.failures,
      seed: 1,
    });
    expect(first.accepted ? "" : first.reason).toMatch(/no JSON object/);
    await close?.();
    const same = await proposerAnswering({
      content: JSON.stringify({ sectionName: "budget", section: lookupTextHarness.budget }),
    });
    const second = await same.proposer.propose({
      direction: "budget",
      config: lookupTextHarness,
      failures: same.failures,
      seed: 1,
    });
    expect(second.accepted ? "" : second.reason).toBe("proposal changes nothing");
    await close?.();
    const late = await proposerAnswering({ content: "{}", delayMs: 2000 }, 150);
    const third = await late.proposer.propose({
      direction: "budget",
      config: lookupTextHarness,
      failures: late.failures,
      seed: 1,
    });
    expect(third.accepted ? "" : third.reason).toBe("timeout after 150 ms");
  });
});
