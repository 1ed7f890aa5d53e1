import { createChatPolicy } from "@hs/chat-policy";
import { observeTrajectory } from "@hs/harness";
import { lookupEpisode, startChatServer } from "@hs/harness/test-environments";
import { afterEach, describe, expect, it } from "vitest";
import { classifyFailure } from "./failure-classifier.js";
import { createLlmClassifier } from "./llm-classifier.js";
import { createRuleClassifier } from "./rule-classifier.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("LLM failure classifier over HTTP", () => {
  it("parses labels with evidence and drops unknown modes", async () => {
    const server = await startChatServer(() => ({
      content: JSON.stringify({
        labels: [
          { mode: "premature-answer", step: 0, evidence: "answered Paris without looking anything up" },
          { mode: "made-up-mode", step: 0, evidence: "x" },
          { mode: "wrong-target", step: 99, evidence: "Paris is France's capital" },
        ],
      }),
    }));
    close = server.close;
    const classifier = createLlmClassifier({
      model: createChatPolicy({ baseURL: server.baseURL, model: "judge", maxRetries: 0 }),
      timeoutMs: 5000,
    });
    const trajectory = await lookupEpisode(["answer: Paris"]);
    const labels = await classifier.classify(observeTrajectory(trajectory));
    expect(labels).toEqual([
      {
        mode: "premature-answer",
        step: 0,
        evidence: "answered Paris without looking anything up",
        source: "llm:openai-compatible:judge",
      },
      { mode: "wrong-target", evidence: "Paris is France's capital", source: "llm:openai-compatible:judge" },
    ]);
    expect(server.requests[0]?.messages[1]?.content).toContain("step 0 action: answer: Paris");
  });

  it("a garbage answer is reported and the rule labels remain", async () => {
    const server = await startChatServer(() => ({ content: "it failed because it was wrong" }));
    close = server.close;
    const classifier = createLlmClassifier({
      model: createChatPolicy({ baseURL: server.baseURL, model: "judge", maxRetries: 0 }),
      timeoutMs: 5000,
    });
    const errors: string[] = [];
    const labels = await classifyFailure(
      await lookupEpisode(["answer: Paris"]),
      [createRuleClassifier(), classifier],
      {
        onError: (_, error) => errors.push(String(error)),
      },
    );
    expect(labels.map((label) => label.source)).toEqual(["rules"]);
    expect(errors[0]).toMatch(/no JSON object/);
  });
});
