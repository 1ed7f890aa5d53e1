import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readJsonFile } from "@hs/harness";
import {
  concatDecisionRows,
  type DecisionNetwork,
  type DecisionRows,
  type EmbeddedPolicy,
  tf,
} from "@hs/policy-embedded";
import { type ClipRange, type LossAggregation, tokenLoss, tokenWeights } from "@hs/rescue-grpo";
import type { LearnerStats, LearnerV1, TrainingBatch } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";

/** Options of the embedded-policy learner. */
export interface EmbeddedLearnerOptions {
  /** The policy whose network is trained in place. */
  policy: EmbeddedPolicy;
  /** Adam learning rate (default 0.01). */
  learningRate?: number;
  /** Surrogate clip range (default eps_low 0.2, eps_high 0.2). */
  clip?: ClipRange;
  /** Weight of the k3 KL to the reference policy (default 0: no reference is kept). */
  klCoefficient?: number;
  /** Loss aggregation (default `token-mean`). */
  aggregation?: LossAggregation;
  /** Constant of `seq-mean-token-sum-norm` (default: the longest sequence of each batch). */
  tokenSumNormalizer?: number;
  /** Gradient steps per batch (default 1); the ratio leaves 1 from the second on. */
  epochs?: number;
  /** Global gradient-norm clip (default 1). */
  maxGradNorm?: number;
  /**
   * Which parameters the optimiser moves: `all`, or `linear` (only the linear term that starts at the
   * grammar's prior; the MLP keeps its initial output of zero). Default `all`.
   */
  trainable?: "all" | "linear";
  /**
   * Adam's epsilon (default 1e-3; tfjs uses 1e-8). A value near the typical gradient size (global norms
   * are about 0.01 on DBBench) makes Adam take small steps on parameters whose gradient is tiny noise,
   * instead of a full learning-rate step in its sign.
   */
  adamEpsilon?: number;
}

/** A batch replayed into network rows, with what the loss needs per token. */
export interface ReplayedBatch {
  /** Every decision of every step of every sample. */
  rows: DecisionRows;
  /** Sampling log-probability per token (decision). */
  oldLogprobs: number[];
  /** Advantage per token. */
  advantages: number[];
  /** Aggregation weight per token. */
  weights: number[];
  /** Tokens per sample. */
  tokenCounts: number[];
}

const optimizerFileName = "optimizer.json";

/**
 * GRPO learner for the embedded policy (LearnerV1). It replays every step's decisions from the stored
 * view and trace, recomputes their log-probabilities with the current network, and minimises the
 * clipped surrogate (+ optional k3 KL) with Adam from tfjs.
 */
export class EmbeddedGrpoLearner implements LearnerV1 {
  readonly specificationVersion = "v1" as const;
  readonly policy: EmbeddedPolicy;
  readonly clip: ClipRange;
  readonly klCoefficient: number;
  readonly aggregation: LossAggregation;
  readonly epochs: number;
  readonly maxGradNorm: number;
  readonly learningRate: number;
  readonly trainable: "all" | "linear";
  readonly adamEpsilon: number;
  private readonly tokenSumNormalizer: number | undefined;
  private readonly reference: DecisionNetwork | undefined;
  private readonly optimizer: tf.AdamOptimizer;

  constructor(options: EmbeddedLearnerOptions) {
    this.policy = options.policy;
    this.learningRate = options.learningRate ?? 0.01;
    this.clip = options.clip ?? { low: 0.2, high: 0.2 };
    this.klCoefficient = options.klCoefficient ?? 0;
    this.aggregation = options.aggregation ?? "token-mean";
    this.tokenSumNormalizer = options.tokenSumNormalizer;
    this.epochs = options.epochs ?? 1;
    this.maxGradNorm = options.maxGradNorm ?? 1;
    this.trainable = options.trainable ?? "all";
    this.reference = this.klCoefficient > 0 ? this.policy.network.frozenCopy() : undefined;
    this.adamEpsilon = options.adamEpsilon ?? 1e-3;
    this.optimizer = tf.train.adam(this.learningRate, 0.9, 0.999, this.adamEpsilon);
  }

  get updates(): number {
    return this.policy.updates;
  }

  /** Replays a batch into rows and per-token inputs of the loss. */
  replay(batch: TrainingBatch): ReplayedBatch {
    const parts: DecisionRows[] = [];
    const oldLogprobs: number[] = [];
    const advantages: number[] = [];
    const tokenCounts: number[] = [];
    batch.samples.forEach((sample, sampleIndex) => {
      let count = 0;
      sample.steps.forEach((step, stepIndex) => {
        const field = `samples.${sampleIndex}.steps.${stepIndex}`;
        const tokens = step.action.tokens;
        if (tokens === undefined) {
          throw new InvalidInputError("a step without per-decision log-probabilities", {
            field: `${field}.action.tokens`,
          });
        }
        const replayed = this.policy.replay(step.view, step.action.trace);
        if (replayed.decisions.length !== tokens.length) {
          throw new InvalidInputError(
            `${tokens.length} token log-probabilities for ${replayed.decisions.length} decisions`,
            { field: `${field}.action.tokens` },
          );
        }
        if (replayed.decisions.length === 0) return;
        parts.push(this.policy.rows(replayed.decisions, replayed.chosen));
        for (const token of tokens) {
          oldLogprobs.push(token.logprob);
          advantages.push(sample.advantage);
        }
        count += tokens.length;
      });
      tokenCounts.push(count);
    });
    const weights = tokenWeights(tokenCounts, this.aggregation, this.tokenSumNormalizer).flat();
    return {
      rows: concatDecisionRows(parts, this.policy.network.config.featureCount),
      oldLogprobs,
      advantages,
      weights,
      tokenCounts,
    };
  }

  /** Current log-probability of every token of a replayed batch (no gradient). */
  currentLogprobs(replayed: ReplayedBatch): number[] {
    if (replayed.oldLogprobs.length === 0) return [];
    return tf.tidy(() => Array.from(this.policy.network.chosenLogprobs(replayed.rows).dataSync()));
  }

  /** The loss as a tfjs scalar (call inside `tf.tidy` or a gradient function). */
  loss(replayed: ReplayedBatch, referenceLogprobs: number[] | undefined): tf.Scalar {
    const logprobs = this.policy.network.chosenLogprobs(replayed.rows);
    const old = tf.tensor1d(replayed.oldLogprobs);
    const advantages = tf.tensor1d(replayed.advantages);
    const ratio = tf.exp(logprobs.sub(old));
    const clipped = tf.clipByValue(ratio, 1 - this.clip.low, 1 + this.clip.high);
    let perToken = tf.neg(tf.minimum(ratio.mul(advantages), clipped.mul(advantages)));
    if (referenceLogprobs !== undefined && this.klCoefficient > 0) {
      const logRatio = tf.tensor1d(referenceLogprobs).sub(logprobs);
      const kl = tf.exp(logRatio).sub(logRatio).sub(1);
      perToken = perToken.add(kl.mul(this.klCoefficient));
    }
    return perToken.mul(tf.tensor1d(replayed.weights)).sum() as tf.Scalar;
  }

  /** Loss statistics of a replayed batch under the current network, from the scalar formulas. */
  statistics(replayed: ReplayedBatch): LearnerStats {
    const logprobs = this.currentLogprobs(replayed);
    const reference = this.referenceLogprobs(replayed);
    let loss = 0;
    let kl = 0;
    let clippedTokens = 0;
    let ratioSum = 0;
    let ratioMax = 0;
    logprobs.forEach((logprob, index) => {
      const token = tokenLoss(
        logprob,
        replayed.oldLogprobs[index] ?? 0,
        replayed.advantages[index] ?? 0,
        this.clip,
        this.klCoefficient,
        reference?.[index],
      );
      loss += token.loss * (replayed.weights[index] ?? 0);
      kl += token.kl;
      if (token.clipped) clippedTokens++;
      ratioSum += token.ratio;
      ratioMax = Math.max(ratioMax, Math.abs(token.ratio - 1));
    });
    const tokens = Math.max(1, logprobs.length);
    return {
      loss,
      kl: kl / tokens,
      clipFraction: clippedTokens / tokens,
      ratioMean: ratioSum / tokens,
      ratioMaxDeviation: ratioMax,
      tokens: logprobs.length,
    };
  }

  private referenceLogprobs(replayed: ReplayedBatch): number[] | undefined {
    if (this.reference === undefined || replayed.oldLogprobs.length === 0) return undefined;
    const reference = this.reference;
    return tf.tidy(() => Array.from(reference.chosenLogprobs(replayed.rows).dataSync()));
  }

  async update(batch: TrainingBatch, options: { signal?: AbortSignal } = {}): Promise<LearnerStats> {
    const replayed = this.replay(batch);
    const before = this.statistics(replayed);
    const trainable = replayed.advantages.some((advantage) => advantage !== 0) || this.klCoefficient > 0;
    let gradNorm = 0;
    if (trainable && replayed.oldLogprobs.length > 0) {
      const reference = this.referenceLogprobs(replayed);
      const variables = this.policy.network
        .trainableVariables()
        .filter((variable) => this.trainable === "all" || variable.name.startsWith("linear.kernel"));
      for (let epoch = 0; epoch < this.epochs; epoch++) {
        options.signal?.throwIfAborted();
        gradNorm = tf.tidy(() => {
          const { grads } = tf.variableGrads(() => this.loss(replayed, reference), variables);
          const names = Object.keys(grads);
          const squares = names.map((name) => tf.sum(tf.square(grads[name] as tf.Tensor)));
          const value = Math.sqrt(tf.addN(squares).dataSync()[0] ?? 0);
          const scale = value > this.maxGradNorm ? this.maxGradNorm / value : 1;
          this.optimizer.applyGradients(
            names.map((name) => ({ name, tensor: (grads[name] as tf.Tensor).mul(scale) })),
          );
          return value;
        });
      }
    }
    this.policy.updates += 1;
    const after = this.statistics(replayed);
    return {
      loss: before.loss ?? 0,
      kl: before.kl ?? 0,
      clipFraction: after.clipFraction ?? 0,
      ratioMaxDeviationBefore: before.ratioMaxDeviation ?? 0,
      ratioMaxDeviationAfter: after.ratioMaxDeviation ?? 0,
      gradNorm,
      tokens: replayed.oldLogprobs.length,
      samples: batch.samples.length,
    };
  }

  async save(directory: string): Promise<void> {
    await mkdir(directory, { recursive: true });
    await this.policy.save(directory);
    const weights = await this.optimizer.getWeights();
    const optimizer = {
      format: "hs-adam",
      formatVersion: 1,
      weights: weights.map(({ name, tensor }) => ({
        name,
        shape: tensor.shape,
        values: Array.from(tensor.dataSync()),
      })),
    };
    await writeFile(join(directory, optimizerFileName), `${JSON.stringify(optimizer)}\n`);
  }

  async load(directory: string): Promise<void> {
    await this.policy.load(directory);
    const path = join(directory, optimizerFileName);
    const raw = (await readJsonFile(path, "the optimizer state of a checkpoint (optimizer.json)")) as {
      format?: unknown;
      weights?: { name: string; shape: number[]; values: number[] }[];
    };
    if (raw.format !== "hs-adam" || !Array.isArray(raw.weights)) {
      throw new InvalidInputError("not an optimizer state written by EmbeddedGrpoLearner", { file: path });
    }
    await this.optimizer.setWeights(
      raw.weights.map((entry) => ({ name: entry.name, tensor: tf.tensor(entry.values, entry.shape) })),
    );
  }

  /** Releases the optimiser state and the reference network (not the policy). */
  dispose(): void {
    this.optimizer.dispose();
    this.reference?.dispose();
  }
}
