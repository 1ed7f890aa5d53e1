import { askForJson, summarizeTrajectory } from "@hs/failure-analysis";
import { InvalidInputError, type JudgeV1, type PolicyV1, type RoutingInput, TimeoutError } from "@hs/spec";
import { z } from "zod";

/** Options of `createLlmJudge`. */
export interface LlmJudgeOptions {
  /** The chat model, e.g. `createChatPolicy({ baseURL, model })` from `@hs/chat-policy`. */
  model: PolicyV1;
  /** Judge id (default `llm:<model id>`). */
  id?: string;
  /** Time limit of one vote in milliseconds (default 60000). */
  timeoutMs?: number;
  /** Failed trajectories summarised in the prompt (default 3). */
  maxTrajectories?: number;
}

const answerSchema = z.object({
  ranking: z.array(z.object({ harnessId: z.string(), reason: z.string().default("") })).min(1),
});

/** The prompt an LLM judge sends: the siblings with their profiles, and the failed group. */
export function judgeMessages(input: RoutingInput, maxTrajectories: number) {
  const siblings = input.pool.siblings.map((sibling) => {
    const profile = input.profiles?.profiles[sibling.id];
    const rescue =
      profile === undefined
        ? "no profile"
        : Object.entries(profile.rescueByMode)
            .map(([mode, cell]) => `${mode} ${cell.rescued}/${cell.attempts}`)
            .join(", ") || "no rescue data";
    const success = profile === undefined ? "-" : `${(profile.successRate * 100).toFixed(0)}%`;
    return `- ${sibling.id} (direction ${sibling.direction}): ${sibling.config.description || "no description"}; success ${success}; rescues by failure mode: ${rescue}`;
  });
  const group = input.failedGroup
    .slice(0, maxTrajectories)
    .map(
      (trajectory, index) => `--- attempt ${index + 1}\n${summarizeTrajectory(trajectory, { maxSteps: 6 })}`,
    );
  return [
    {
      role: "system" as const,
      content: [
        "You route a failed AI-agent task to sibling harnesses (runtime shells) that are most likely to make the same agent succeed.",
        "Siblings and their behaviour profiles:",
        ...siblings,
        'Answer with JSON only: {"ranking":[{"harnessId":"<id>","reason":"<why>"}, ...]}, best first, using only the ids above.',
      ].join("\n"),
    },
    {
      role: "user" as const,
      content: `Task ${input.task.id}${input.task.category === undefined ? "" : ` (${input.task.category})`}. ${input.failedGroup.length === 0 ? "No attempt yet: pick the harness most likely to succeed." : `All ${input.failedGroup.length} attempts under the base harness failed:`}\n${group.join("\n")}`,
    },
  ];
}

/**
 * A judge that asks an OpenAI-compatible chat model for a ranking. A late answer throws `TimeoutError`;
 * an answer that is not JSON, has the wrong shape, names a harness outside the pool or repeats one
 * throws `InvalidInputError`. A voting router drops such a judge from that vote with the reason.
 * Siblings the model leaves out are ranked last, tied.
 */
export function createLlmJudge(options: LlmJudgeOptions): JudgeV1 {
  const id = options.id ?? `llm:${options.model.id}`;
  return {
    specificationVersion: "v1",
    id,
    async vote(input) {
      const answer = await askForJson({
        model: options.model,
        messages: judgeMessages(input, options.maxTrajectories ?? 3),
        schema: answerSchema,
        timeoutMs: options.timeoutMs ?? 60_000,
        seed: input.seed,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      if (!answer.ok) {
        if (answer.timedOut) throw new TimeoutError(`judge ${id}: ${answer.reason}`);
        throw new InvalidInputError(`judge ${id}: ${answer.reason}`);
      }
      const members = new Set(input.pool.siblings.map((sibling) => sibling.id));
      const seen = new Set<string>();
      for (const entry of answer.value.ranking) {
        if (!members.has(entry.harnessId))
          throw new InvalidInputError(`judge ${id}: ranked "${entry.harnessId}", which is not in the pool`);
        if (seen.has(entry.harnessId))
          throw new InvalidInputError(`judge ${id}: ranked "${entry.harnessId}" twice`);
        seen.add(entry.harnessId);
      }
      const total = input.pool.siblings.length;
      const ranking = answer.value.ranking.map((entry, index) => ({
        harnessId: entry.harnessId,
        score: total - index,
        reasons: [entry.reason || "ranked by the model"],
      }));
      for (const sibling of input.pool.siblings) {
        if (!seen.has(sibling.id))
          ranking.push({ harnessId: sibling.id, score: 0, reasons: ["not ranked by the model"] });
      }
      return { judgeId: id, ranking };
    },
  };
}
