import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createRandom, readJsonFile } from "@hs/harness";
import type {
  ActionGrammarV1,
  Decision,
  GrammarStep,
  PolicyAction,
  PolicyActOptions,
  PolicyV1,
  PolicyView,
} from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { z } from "zod";
import { initializeBackend, tf } from "./backend.js";
import { DecisionNetwork, type DecisionNetworkConfig } from "./decision-network.js";
import { type DecisionRows, toDecisionRows } from "./decision-rows.js";

/** What the embedded policy stores in `PolicyAction.trace`: enough to replay its decisions. */
export const embeddedTraceSchema = z.object({
  /** Trace format. */
  kind: z.literal("embedded-decisions"),
  /** Labels of the chosen options, in decision order. */
  labels: z.array(z.string()),
});
/** The embedded policy's trace of one action. */
export type EmbeddedTrace = z.infer<typeof embeddedTraceSchema>;

/** Options of `createEmbeddedPolicy`. */
export interface EmbeddedPolicyOptions {
  /** The benchmark's action grammar. */
  grammar: ActionGrammarV1;
  /** Seed of the initial weights (and part of the policy id). */
  seed: number;
  /** Hidden layer sizes of the scoring network (default `[32]`). */
  hiddenSizes?: number[];
  /** Size of the decision-name embedding table (default 64). */
  decisionBuckets?: number;
  /** Most decisions one action may take before the grammar is judged to loop (default 64). */
  maxDecisions?: number;
  /** Policy id (default `embedded`). */
  id?: string;
  /** Start the linear term from the grammar's prior when it has one (default true). */
  usePrior?: boolean;
  /**
   * Factor on the prior (default 2): an inverse sampling temperature for the untrained policy. Greedy
   * choices do not depend on it; sampled ones concentrate on what the prior prefers as it grows.
   */
  priorScale?: number;
}

/** One decision replayed from a stored trace. */
export interface ReplayedAction {
  /** The decisions in order. */
  decisions: Decision[];
  /** Index of the chosen option of each decision. */
  chosen: number[];
}

const policyFileSchema = z.object({
  format: z.literal("hs-embedded-policy"),
  formatVersion: z.literal(1),
  id: z.string(),
  origin: z.string(),
  updates: z.number().int().nonnegative(),
  config: z.object({
    featureCount: z.number().int().positive(),
    decisionBuckets: z.number().int().positive(),
    hiddenSizes: z.array(z.number().int().positive()),
    seed: z.number().int(),
  }),
  parameters: z.record(
    z.string(),
    z.object({ shape: z.array(z.number().int()), values: z.array(z.number()) }),
  ),
});

const scoreCacheSize = 4096;

/** File name of the parameters inside a checkpoint directory. */
export const policyFileName = "policy.json";

/**
 * The embedded policy: builds each action as a sequence of grammar decisions, each sampled from a
 * softmax over the network's option scores. The action's log-probability is the sum over decisions,
 * and `tokens` holds one entry per decision.
 */
export class EmbeddedPolicy implements PolicyV1 {
  readonly specificationVersion = "v1" as const;
  readonly id: string;
  readonly grammar: ActionGrammarV1;
  readonly network: DecisionNetwork;
  readonly maxDecisions: number;
  /** Learner updates applied to these weights. */
  updates = 0;
  /** Where the weights started (the initial seed, or the origin recorded in a loaded file). */
  origin: string;

  constructor(options: EmbeddedPolicyOptions) {
    this.id = options.id ?? "embedded";
    this.grammar = options.grammar;
    this.maxDecisions = options.maxDecisions ?? 64;
    const config: DecisionNetworkConfig = {
      featureCount: options.grammar.featureCount,
      decisionBuckets: options.decisionBuckets ?? 64,
      hiddenSizes: options.hiddenSizes ?? [32],
      seed: options.seed,
    };
    if (options.usePrior !== false && options.grammar.prior !== undefined)
      config.prior = options.grammar.prior.map((weight) => weight * (options.priorScale ?? 2));
    this.network = new DecisionNetwork(config);
    this.origin = `seed${options.seed}`;
  }

  /** Version of the weights: their origin and number of updates. */
  get version(): string {
    return `${this.origin}-u${this.updates}`;
  }

  /** Network rows of some decisions with the given choices. */
  rows(decisions: readonly Decision[], chosen: readonly number[]): DecisionRows {
    return toDecisionRows(
      decisions,
      chosen,
      this.network.config.featureCount,
      this.network.config.decisionBuckets,
    );
  }

  async act(view: PolicyView, options: PolicyActOptions): Promise<PolicyAction> {
    await initializeBackend();
    const greedy = options.mode === "greedy";
    const messagesJson = JSON.stringify(view.messages);
    // the draws depend on the seed alone, not on the view: under two harnesses the same seed draws the
    // same numbers, so an episode changes only where the harness changes the scores (paired comparison)
    const random = createRandom(options.seed);
    const viewKey = `${view.actionFormat}\u0001${JSON.stringify(view.tools)}\u0001${messagesJson}`;
    this.checkScoreCache();
    const labels: string[] = [];
    const tokens: { text: string; logprob: number }[] = [];
    let logprob = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const scoreKey = `${viewKey}\u0001${labels.join("\u0000")}`;
      const known = this.scoreCache.get(scoreKey);
      const step: GrammarStep = known === undefined ? this.grammar.next(view, labels) : known.step;
      if (!step.done) this.remember(view, labels, step.decision);
      if (step.done) {
        const action: PolicyAction = {
          content: step.content,
          logprob,
          tokens,
          trace: { kind: "embedded-decisions", labels: [...labels] } satisfies EmbeddedTrace,
        };
        if (view.actionFormat === "tool-calls") action.toolCalls = step.toolCalls;
        return action;
      }
      if (labels.length >= this.maxDecisions) {
        throw new InvalidInputError(
          `the action grammar asked for more than ${this.maxDecisions} decisions (last: "${step.decision.name}")`,
        );
      }
      const decision = step.decision;
      let logprobs = known?.logprobs;
      if (logprobs === undefined) {
        logprobs = tf.tidy(() => this.network.singleLogSoftmax(this.rows([decision], [-1])).dataSync());
        if (this.scoreCache.size >= scoreCacheSize) this.scoreCache.clear();
        this.scoreCache.set(scoreKey, { step, logprobs });
      }
      const index = greedy
        ? argmax(logprobs, decision.options.length)
        : sample(logprobs, decision.options.length, random());
      const option = decision.options[index];
      if (option === undefined) throw new Error("sampled an option index outside the decision");
      const value = logprobs[index] ?? Number.NaN;
      labels.push(option.label);
      tokens.push({ text: `${decision.name}=${option.label}`, logprob: value });
      logprob += value;
    }
  }

  /**
   * Decisions the grammar offered while acting, by view and label prefix, so that replaying a stored
   * action (the learner) does not ask the grammar again. The grammar is a pure function of the view and
   * the labels, so a remembered decision is the one it would return.
   */
  private readonly decisionCache = new WeakMap<PolicyView, Map<string, Decision>>();

  private remember(view: PolicyView, labels: readonly string[], decision: Decision): void {
    let byPrefix = this.decisionCache.get(view);
    if (byPrefix === undefined) {
      byPrefix = new Map();
      this.decisionCache.set(view, byPrefix);
    }
    byPrefix.set(labels.join("\u0000"), decision);
  }

  /**
   * Decisions and their log-probabilities by view content and label prefix, valid while the weights
   * are unchanged: the G rollouts of a prompt start from the same view and often take the same first
   * decisions, which are then scored once. The grammar and the network are deterministic, so a cached
   * entry holds exactly what recomputing would give.
   */
  private readonly scoreCache = new Map<
    string,
    { step: GrammarStep; logprobs: Float32Array | Int32Array | Uint8Array }
  >();
  private scoreCacheWeights: object[] = [];

  private checkScoreCache(): void {
    const current = this.network.trainableVariables().map((variable) => variable.dataId);
    const same =
      current.length === this.scoreCacheWeights.length &&
      current.every((dataId, index) => dataId === this.scoreCacheWeights[index]);
    if (!same) {
      this.scoreCache.clear();
      this.scoreCacheWeights = current;
    }
  }

  /** Re-derives the decisions of a stored action from its view and trace. */
  replay(view: PolicyView, trace: unknown): ReplayedAction {
    const parsed = embeddedTraceSchema.safeParse(trace);
    if (!parsed.success) {
      throw new InvalidInputError(`not an embedded-policy trace: ${parsed.error.message}`, {
        field: "action.trace",
      });
    }
    const decisions: Decision[] = [];
    const chosen: number[] = [];
    const labels = parsed.data.labels;
    const remembered = this.decisionCache.get(view);
    for (let position = 0; position < labels.length; position++) {
      const prefix = labels.slice(0, position);
      const known = remembered?.get(prefix.join("\u0000"));
      const step: GrammarStep =
        known === undefined ? this.grammar.next(view, prefix) : { done: false, decision: known };
      if (step.done) {
        throw new InvalidInputError(
          `the grammar finished after ${position} of ${labels.length} traced decisions`,
          {
            field: "action.trace.labels",
          },
        );
      }
      const index = step.decision.options.findIndex((option) => option.label === labels[position]);
      if (index < 0) {
        throw new InvalidInputError(
          `traced label "${labels[position]}" is not an option of decision "${step.decision.name}"`,
          { field: `action.trace.labels.${position}` },
        );
      }
      decisions.push(step.decision);
      chosen.push(index);
    }
    return { decisions, chosen };
  }

  /** Writes the parameters (JSON) to `directory/policy.json`. */
  async save(directory: string): Promise<void> {
    await mkdir(directory, { recursive: true });
    const { prior: _prior, ...config } = this.network.config;
    const file: z.infer<typeof policyFileSchema> = {
      format: "hs-embedded-policy",
      formatVersion: 1,
      id: this.id,
      origin: this.origin,
      updates: this.updates,
      config,
      parameters: this.network.read(),
    };
    await writeFile(join(directory, policyFileName), `${JSON.stringify(file)}\n`);
  }

  /** Loads parameters written by `save`; the network shape must match. */
  async load(directory: string): Promise<void> {
    await initializeBackend();
    const path = join(directory, policyFileName);
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
      throw new InvalidInputError(
        `cannot read the policy parameters: ${String(error)}`,
        { file: path },
        { cause: error },
      );
    }
    const parsed = policyFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInputError(issue?.message ?? "invalid policy file", {
        file: path,
        field: issue?.path.join(".") ?? "",
      });
    }
    const config = this.network.config;
    const saved = parsed.data.config;
    if (
      saved.featureCount !== config.featureCount ||
      saved.decisionBuckets !== config.decisionBuckets ||
      saved.hiddenSizes.join(",") !== config.hiddenSizes.join(",")
    ) {
      const shape = (of: typeof saved) =>
        `${of.featureCount} features, ${of.decisionBuckets} decision buckets, hidden ${JSON.stringify(of.hiddenSizes)}`;
      const grammarChanged =
        saved.featureCount !== config.featureCount
          ? " (the grammar's features changed since it was saved)"
          : "";
      throw new InvalidInputError(
        `the saved network has ${shape(saved)}; this policy has ${shape(config)}${grammarChanged}`,
        { file: path, field: "config" },
      );
    }
    this.network.write(parsed.data.parameters);
    this.updates = parsed.data.updates;
    this.origin = parsed.data.origin;
  }

  /** Releases the network's tensors. */
  dispose(): void {
    this.network.dispose();
  }
}

/** Reads the network configuration saved in a checkpoint directory (to build a matching policy). */
export async function readPolicyConfig(
  directory: string,
): Promise<DecisionNetworkConfig & { updates: number }> {
  const path = join(directory, policyFileName);
  const parsed = policyFileSchema.safeParse(
    await readJsonFile(path, "embedded policy weights (policy.json)"),
  );
  if (!parsed.success) throw new InvalidInputError(parsed.error.message, { file: path });
  return { ...parsed.data.config, updates: parsed.data.updates };
}

function argmax(values: Float32Array | Int32Array | Uint8Array, count: number): number {
  let best = 0;
  for (let index = 1; index < count; index++)
    if ((values[index] ?? -Infinity) > (values[best] ?? -Infinity)) best = index;
  return best;
}

function sample(logprobs: Float32Array | Int32Array | Uint8Array, count: number, uniform: number): number {
  let cumulative = 0;
  for (let index = 0; index < count; index++) {
    cumulative += Math.exp(logprobs[index] ?? -Infinity);
    if (uniform < cumulative) return index;
  }
  return count - 1;
}

/** Creates the embedded policy and starts the tfjs backend. */
export async function createEmbeddedPolicy(options: EmbeddedPolicyOptions): Promise<EmbeddedPolicy> {
  await initializeBackend();
  return new EmbeddedPolicy(options);
}
