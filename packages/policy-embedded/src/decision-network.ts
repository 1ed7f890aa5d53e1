import { createRandom } from "@hs/harness";
import { tf } from "./backend.js";
import type { DecisionRows } from "./decision-rows.js";

/** Shape of the option-scoring network. */
export interface DecisionNetworkConfig {
  /** Features per option (from the grammar). */
  featureCount: number;
  /** Size of the decision-name embedding table (names are hashed into it). */
  decisionBuckets: number;
  /** Hidden layer sizes of the scoring MLP. */
  hiddenSizes: number[];
  /** Seed of the initial weights. */
  seed: number;
  /** Initial weights of the linear term (the grammar's prior); zeros when absent. */
  prior?: number[];
}

/** Parameters as plain arrays, for files and comparisons. */
export type ParameterValues = Record<string, { shape: number[]; values: number[] }>;

const paddingScore = -1e9;

/**
 * `tf.gatherND` with a gradient: tfjs has no gradient for GatherNd and its Gather gradient needs a
 * kernel the wasm backend lacks (UnsortedSegmentSum), so the gradient is a ScatterNd (which sums
 * duplicate indices), available on wasm.
 */
export function gatherWithGradient(input: tf.Tensor, indices: tf.Tensor): tf.Tensor {
  const gather = tf.customGrad((...inputs: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const source = inputs[0] as tf.Tensor;
    const save = inputs[1] as tf.GradSaveFunc;
    save([indices]);
    return {
      value: tf.gatherND(source, indices),
      gradFunc: (upstream: tf.Tensor, saved: tf.Tensor[]) =>
        tf.scatterND(saved[0] as tf.Tensor, upstream, source.shape),
    };
  });
  return gather(input);
}

/**
 * Scores every option of a decision: `score = MLP([features, embedding(decision)]) + w·features`,
 * then a log-softmax per decision. The parameters are tfjs variables, so gradients come from tfjs.
 */
export class DecisionNetwork {
  readonly config: DecisionNetworkConfig;
  /** Variables by name, in a stable order. */
  readonly variables: Map<string, tf.Variable>;

  constructor(config: DecisionNetworkConfig, trainable = true) {
    this.config = config;
    this.variables = new Map();
    const random = createRandom(config.seed);
    const uniform = (shape: number[], limit: number): tf.Tensor => {
      const size = shape.reduce((product, dimension) => product * dimension, 1);
      const values = new Float32Array(size);
      for (let index = 0; index < size; index++) values[index] = (random() * 2 - 1) * limit;
      return tf.tensor(values, shape);
    };
    const add = (name: string, initial: tf.Tensor) => {
      this.variables.set(name, tf.variable(initial, trainable, `${name}_${variableCounter++}`));
      initial.dispose();
    };
    let inputSize = config.featureCount;
    config.hiddenSizes.forEach((size, layer) => {
      const limit = Math.sqrt(6 / (inputSize + size));
      add(`dense${layer}.kernel`, uniform([inputSize, size], limit));
      add(`dense${layer}.bias`, tf.zeros([size]));
      if (layer === 0) add("decision.embedding", uniform([config.decisionBuckets, size], 0.1));
      inputSize = size;
    });
    // the MLP's output starts at zero, so the untrained policy scores exactly by the linear term (the prior)
    add("output.kernel", tf.zeros([inputSize, 1]));
    const prior = config.prior;
    if (prior !== undefined && prior.length !== config.featureCount) {
      throw new Error(`the prior has ${prior.length} weights for ${config.featureCount} features`);
    }
    add(
      "linear.kernel",
      prior === undefined ? tf.zeros([config.featureCount, 1]) : tf.tensor2d(prior, [prior.length, 1]),
    );
  }

  private get(name: string): tf.Variable {
    const variable = this.variables.get(name);
    if (variable === undefined) throw new Error(`network has no parameter "${name}"`);
    return variable;
  }

  /** Raw option scores, shape `[options]`. Call inside `tf.tidy` or a gradient function. */
  scores(rows: DecisionRows): tf.Tensor1D {
    const { featureCount } = this.config;
    const optionTotal = rows.features.length / featureCount;
    const input = tf.tensor2d(rows.features, [optionTotal, featureCount]);
    const decisionOfOption = new Int32Array(optionTotal);
    let row = 0;
    rows.optionCounts.forEach((count, decision) => {
      decisionOfOption.fill(rows.buckets[decision] ?? 0, row, row + count);
      row += count;
    });
    let hidden: tf.Tensor2D = input;
    this.config.hiddenSizes.forEach((_, layer) => {
      let preActivation = hidden.matMul(this.get(`dense${layer}.kernel`) as tf.Tensor2D);
      preActivation = preActivation.add(this.get(`dense${layer}.bias`));
      if (layer === 0) {
        const embedding = gatherWithGradient(
          this.get("decision.embedding"),
          tf.tensor2d(decisionOfOption, [optionTotal, 1], "int32"),
        );
        preActivation = preActivation.add(embedding);
      }
      hidden = tf.tanh(preActivation) as tf.Tensor2D;
    });
    const output = hidden.matMul(this.get("output.kernel") as tf.Tensor2D);
    const linear = input.matMul(this.get("linear.kernel") as tf.Tensor2D);
    return output.add(linear).reshape([optionTotal]);
  }

  /**
   * `scores` for one decision without gradients: the decision's embedding row is sliced once and
   * broadcast (the same additions, so the same values) instead of gathered per option.
   */
  private singleScores(rows: DecisionRows): tf.Tensor1D {
    const { featureCount } = this.config;
    const optionTotal = rows.features.length / featureCount;
    const input = tf.tensor2d(rows.features, [optionTotal, featureCount]);
    let hidden: tf.Tensor2D = input;
    this.config.hiddenSizes.forEach((size, layer) => {
      let preActivation = hidden.matMul(this.get(`dense${layer}.kernel`) as tf.Tensor2D);
      preActivation = preActivation.add(this.get(`dense${layer}.bias`));
      if (layer === 0) {
        const row = tf.slice(this.get("decision.embedding"), [rows.buckets[0] ?? 0, 0], [1, size]);
        preActivation = preActivation.add(row);
      }
      hidden = tf.tanh(preActivation) as tf.Tensor2D;
    });
    const output = hidden.matMul(this.get("output.kernel") as tf.Tensor2D);
    const linear = input.matMul(this.get("linear.kernel") as tf.Tensor2D);
    return output.add(linear).reshape([optionTotal]);
  }

  /** Log-probabilities of every option, padded to `[decisions, maxOptions]` (padding ~ -1e9). */
  logSoftmax(rows: DecisionRows): tf.Tensor2D {
    const scores = this.scores(rows);
    const optionTotal = scores.shape[0];
    const maxOptions = Math.max(...rows.optionCounts);
    const decisions = rows.optionCounts.length;
    const indices = new Int32Array(decisions * maxOptions).fill(optionTotal);
    const mask = new Float32Array(decisions * maxOptions).fill(paddingScore);
    let offset = 0;
    rows.optionCounts.forEach((count, decision) => {
      for (let option = 0; option < count; option++) {
        indices[decision * maxOptions + option] = offset + option;
        mask[decision * maxOptions + option] = 0;
      }
      offset += count;
    });
    const extended = tf.concat([scores, tf.zeros([1])]);
    const padded = gatherWithGradient(
      extended,
      tf.tensor3d(indices, [decisions, maxOptions, 1], "int32"),
    ).add(tf.tensor2d(mask, [decisions, maxOptions]));
    return tf.logSoftmax(padded as tf.Tensor2D, 1);
  }

  /**
   * Log-probabilities of the options of one decision, shape `[options]`: the same values as row 0 of
   * `logSoftmax` for that decision alone, without the padding gather (fewer kernels per sampled decision).
   */
  singleLogSoftmax(rows: DecisionRows): tf.Tensor1D {
    if (rows.optionCounts.length !== 1) throw new Error("singleLogSoftmax takes exactly one decision");
    const scores = this.singleScores(rows);
    return tf
      .logSoftmax(scores.reshape([1, scores.shape[0]]) as tf.Tensor2D, 1)
      .reshape([scores.shape[0]]) as tf.Tensor1D;
  }

  /** Log-probability of each decision's chosen option, shape `[decisions]`. */
  chosenLogprobs(rows: DecisionRows): tf.Tensor1D {
    const table = this.logSoftmax(rows);
    const [decisions, maxOptions] = table.shape;
    const pairs = new Int32Array(decisions * 2);
    rows.chosen.forEach((option, decision) => {
      if (option < 0 || option >= (rows.optionCounts[decision] ?? 0)) {
        throw new Error(`decision ${decision} has no chosen option (index ${option})`);
      }
      pairs[decision * 2] = decision;
      pairs[decision * 2 + 1] = option;
    });
    if (maxOptions === 0) throw new Error("no options");
    return gatherWithGradient(table, tf.tensor2d(pairs, [decisions, 2], "int32")) as tf.Tensor1D;
  }

  /** Trainable variables, for an optimiser. */
  trainableVariables(): tf.Variable[] {
    return [...this.variables.values()];
  }

  /** Copies the parameter values out. */
  read(): ParameterValues {
    const result: ParameterValues = {};
    for (const [name, variable] of this.variables) {
      result[name] = { shape: [...variable.shape], values: Array.from(variable.dataSync()) };
    }
    return result;
  }

  /** Overwrites the parameters with `values` (same names and shapes). */
  write(values: ParameterValues): void {
    for (const [name, variable] of this.variables) {
      const entry = values[name];
      if (entry === undefined) throw new Error(`parameter "${name}" is missing`);
      if (entry.shape.join("x") !== variable.shape.join("x")) {
        throw new Error(
          `parameter "${name}" has shape ${entry.shape.join("x")}, expected ${variable.shape.join("x")}`,
        );
      }
      tf.tidy(() => variable.assign(tf.tensor(entry.values, entry.shape)));
    }
  }

  /** A frozen copy (e.g. the reference policy of a KL term). */
  frozenCopy(): DecisionNetwork {
    const copy = new DecisionNetwork(this.config, false);
    for (const [name, variable] of this.variables) copy.variables.get(name)?.assign(variable);
    return copy;
  }

  /** Releases the variables. */
  dispose(): void {
    for (const variable of this.variables.values()) variable.dispose();
  }
}

let variableCounter = 0;
