import { askForJson, summarizeTrajectory } from "@hs/failure-analysis";
import { describeZodIssue } from "@hs/harness";
import {
  directionSection,
  type FixDirection,
  type HarnessConfig,
  harnessConfigSchema,
  type ObservedTrajectory,
  type PolicyV1,
} from "@hs/spec";
import { z } from "zod";
import { assertDirectionalEdit, changedSections } from "./operators.js";

/** What a proposer is asked. */
export interface ProposalRequest {
  /** Direction of the edit; only its section may change. */
  direction: FixDirection;
  /** The config to edit (the base harness or a parent candidate). */
  config: HarnessConfig;
  /** Failed base trajectories of this direction, observed (no grading details, no dataset category). */
  failures: readonly ObservedTrajectory[];
  /** Seed of the call. */
  seed: number;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** A proposer's outcome: a validated config, or the reason the proposal was rejected. */
export type ProposalResult =
  | { accepted: true; config: HarnessConfig; rationale: string }
  | { accepted: false; reason: string; raw: string | null };

/** One logged proposal (accepted or rejected). */
export interface ProposalLogEntry {
  /** Proposer id. */
  proposerId: string;
  /** Direction asked for. */
  direction: FixDirection;
  /** Whether it was accepted. */
  accepted: boolean;
  /** The rationale (accepted) or the rejection reason. */
  detail: string;
}

/** A config-edit proposer (version 1). */
export interface ProposerV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Proposer id. */
  readonly id: string;
  /** Proposes an edit of the direction's section. */
  propose(request: ProposalRequest): Promise<ProposalResult>;
}

/** Options of `createLlmProposer`. */
export interface LlmProposerOptions {
  /** The chat model, e.g. `createChatPolicy({ baseURL, model })` from `@hs/chat-policy`. */
  model: PolicyV1;
  /** Time limit per proposal in milliseconds (default 120000). */
  timeoutMs?: number;
  /** Failed trajectories shown per proposal (default 4). */
  maxExamples?: number;
  /** Receives every proposal, accepted or rejected, with its reason. */
  onLog?: (entry: ProposalLogEntry) => void;
}

const answerSchema = z.object({
  sectionName: z.string(),
  section: z.unknown(),
  rationale: z.string().default(""),
});

/** The prompt the LLM proposer sends. */
export function proposerMessages(request: ProposalRequest, maxExamples: number) {
  const section = directionSection[request.direction];
  const examples = request.failures
    .slice(0, maxExamples)
    .map(
      (trajectory, index) => `--- failure ${index + 1}\n${summarizeTrajectory(trajectory, { maxSteps: 8 })}`,
    );
  return [
    {
      role: "system" as const,
      content: [
        "You improve the harness (the runtime shell) around an AI agent. The harness is JSON; you may edit exactly one section.",
        `Fix direction: ${request.direction}. Section you may edit: "${section}".`,
        `Current value of "${section}":`,
        JSON.stringify(request.config[section], null, 2),
        `Answer with JSON only: {"sectionName":"${section}","section":<the complete new value of the section>,"rationale":"<one sentence>"}`,
      ].join("\n"),
    },
    {
      role: "user" as const,
      content: `The agent failed these tasks under this harness:\n${examples.join("\n")}`,
    },
  ];
}

/**
 * A proposer that asks an OpenAI-compatible chat model for a new value of the direction's section.
 * The proposal is rejected, with its reason logged, when the reply is late or not JSON, names another
 * section, fails the HarnessConfig schema, or changes nothing.
 */
export function createLlmProposer(options: LlmProposerOptions): ProposerV1 {
  const id = `llm-proposer:${options.model.id}`;
  const maxExamples = options.maxExamples ?? 4;
  const log = (direction: FixDirection, accepted: boolean, detail: string) =>
    options.onLog?.({ proposerId: id, direction, accepted, detail });
  return {
    specificationVersion: "v1",
    id,
    async propose(request) {
      const section = directionSection[request.direction];
      const reject = (reason: string, raw: string | null): ProposalResult => {
        log(request.direction, false, reason);
        return { accepted: false, reason, raw };
      };
      const answer = await askForJson({
        model: options.model,
        messages: proposerMessages(request, maxExamples),
        schema: answerSchema,
        timeoutMs: options.timeoutMs ?? 120_000,
        seed: request.seed,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (!answer.ok) return reject(answer.reason, answer.raw);
      if (answer.value.sectionName !== section) {
        return reject(
          `proposal edits section "${answer.value.sectionName}" but direction "${request.direction}" may change only "${section}"`,
          answer.raw,
        );
      }
      const candidate = { ...request.config, [section]: answer.value.section };
      const parsed = harnessConfigSchema.safeParse(candidate);
      if (!parsed.success) {
        const { field, message } = describeZodIssue(parsed.error);
        return reject(`invalid harness config at "${field}": ${message}`, answer.raw);
      }
      let config: HarnessConfig;
      try {
        config = assertDirectionalEdit(request.config, parsed.data, request.direction, id);
      } catch (error) {
        return reject(error instanceof Error ? error.message : String(error), answer.raw);
      }
      if (changedSections(request.config, config).length === 0)
        return reject("proposal changes nothing", answer.raw);
      log(request.direction, true, answer.value.rationale);
      return { accepted: true, config, rationale: answer.value.rationale };
    },
  };
}
