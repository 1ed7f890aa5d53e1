import { commonFailureModes, type FailureLabel, type PolicyV1 } from "@hs/spec";
import { z } from "zod";
import { askForJson } from "./ask-json.js";
import type { FailureClassifierV1 } from "./failure-classifier.js";
import { summarizeTrajectory } from "./summarize-trajectory.js";

/** Options of `createLlmClassifier`. */
export interface LlmClassifierOptions {
  /** The chat model, e.g. `createChatPolicy({ baseURL, model })` from `@hs/chat-policy`. */
  model: PolicyV1;
  /** Failure modes it may use (default: the common modes). */
  modes?: readonly string[];
  /** Time limit per trajectory in milliseconds (default 60000). */
  timeoutMs?: number;
  /** Seed of the model calls (default 0). */
  seed?: number;
}

const answerSchema = z.object({
  labels: z.array(
    z.object({
      mode: z.string(),
      step: z.number().int().nonnegative().nullable().optional(),
      evidence: z.string().min(1),
    }),
  ),
});

/** The prompt the LLM classifier sends for one trajectory. */
export function llmClassifierMessages(summary: string, modes: readonly string[]) {
  return [
    {
      role: "system" as const,
      content: [
        "You analyse why an AI agent failed a task. Label the failure with one or more failure modes from this list:",
        ...modes.map((mode) => `- ${mode}`),
        'Answer with JSON only: {"labels":[{"mode":"<mode>","step":<step index or null>,"evidence":"<quote or short explanation from the trajectory>"}]}',
      ].join("\n"),
    },
    { role: "user" as const, content: summary },
  ];
}

/**
 * A failure classifier that asks an OpenAI-compatible chat model. Labels with unknown modes are dropped;
 * an answer that is late, not JSON or of the wrong shape makes `classify` throw an `Error` carrying the
 * reason, so `classifyFailure` reports it and keeps the rule labels.
 */
export function createLlmClassifier(options: LlmClassifierOptions): FailureClassifierV1 {
  const modes = options.modes ?? commonFailureModes;
  const id = `llm:${options.model.id}`;
  return {
    specificationVersion: "v1",
    id,
    async classify(trajectory, callOptions = {}) {
      const answer = await askForJson({
        model: options.model,
        messages: llmClassifierMessages(summarizeTrajectory(trajectory), modes),
        schema: answerSchema,
        timeoutMs: options.timeoutMs ?? 60_000,
        seed: options.seed ?? 0,
        ...(callOptions.signal === undefined ? {} : { signal: callOptions.signal }),
      });
      if (!answer.ok) throw new Error(`LLM classifier ${id}: ${answer.reason}`);
      const labels: FailureLabel[] = [];
      for (const entry of answer.value.labels) {
        if (!modes.includes(entry.mode)) continue;
        const step = entry.step ?? undefined;
        const valid = step !== undefined && step < trajectory.steps.length ? step : undefined;
        labels.push({
          mode: entry.mode,
          evidence: entry.evidence,
          source: id,
          ...(valid === undefined ? {} : { step: valid }),
        });
      }
      return labels;
    },
  };
}
