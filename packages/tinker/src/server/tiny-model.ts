/**
 * The test server's language model: next-token logits = B[previous token] + mean of U[t] over every
 * token so far (a bigram plus a bag of the context), so the reply can depend on the prompt. Small
 * enough for exact gradients in plain JS; it really learns from forward_backward + optim_step.
 */

/** Weights and Adam state of one tiny model. */
export interface TinyWeights {
  /** Vocabulary size V. */
  vocabSize: number;
  /** B (V x V) then U (V x V), row-major. */
  parameters: Float64Array;
  /** Accumulated gradient since the last optimiser step. */
  gradient: Float64Array;
  /** Adam first moment. */
  firstMoment: Float64Array;
  /** Adam second moment. */
  secondMoment: Float64Array;
  /** Adam steps taken. */
  steps: number;
}

/** Fresh weights: small seeded noise. */
export function createTinyWeights(vocabSize: number, seed: number): TinyWeights {
  const size = 2 * vocabSize * vocabSize;
  const parameters = new Float64Array(size);
  const random = seededRandom(seed);
  for (let index = 0; index < size; index++) parameters[index] = (random() - 0.5) * 0.02;
  return {
    vocabSize,
    parameters,
    gradient: new Float64Array(size),
    firstMoment: new Float64Array(size),
    secondMoment: new Float64Array(size),
    steps: 0,
  };
}

/** A deep copy (checkpoints never share buffers with the live model). */
export function copyTinyWeights(weights: TinyWeights): TinyWeights {
  return {
    vocabSize: weights.vocabSize,
    parameters: weights.parameters.slice(),
    gradient: weights.gradient.slice(),
    firstMoment: weights.firstMoment.slice(),
    secondMoment: weights.secondMoment.slice(),
    steps: weights.steps,
  };
}

/** Mulberry32: a small seeded generator in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Log-softmax of the next token after `context` (which must not be empty). */
export function nextLogprobs(weights: TinyWeights, context: readonly number[]): Float64Array {
  const size = weights.vocabSize;
  const logits = new Float64Array(size);
  const previous = context[context.length - 1] ?? 0;
  const bagOffset = size * size;
  for (let column = 0; column < size; column++)
    logits[column] = weights.parameters[previous * size + column] ?? 0;
  for (const token of context) {
    const row = bagOffset + token * size;
    for (let column = 0; column < size; column++) {
      logits[column] = (logits[column] ?? 0) + (weights.parameters[row + column] ?? 0) / context.length;
    }
  }
  let max = Number.NEGATIVE_INFINITY;
  for (const value of logits) max = Math.max(max, value);
  let sum = 0;
  for (const value of logits) sum += Math.exp(value - max);
  const logSum = max + Math.log(sum);
  for (let column = 0; column < size; column++) logits[column] = (logits[column] ?? 0) - logSum;
  return logits;
}

/**
 * Adds `scale * d(logprob of target)/d(parameters)` at one position to the gradient buffer:
 * d logprob / d logits = onehot(target) - softmax.
 */
export function addLogprobGradient(
  weights: TinyWeights,
  context: readonly number[],
  logprobs: Float64Array,
  target: number,
  scale: number,
): void {
  if (scale === 0) return;
  const size = weights.vocabSize;
  const previous = context[context.length - 1] ?? 0;
  const bagOffset = size * size;
  for (let column = 0; column < size; column++) {
    const derivative = scale * ((column === target ? 1 : 0) - Math.exp(logprobs[column] ?? 0));
    const bigramIndex = previous * size + column;
    weights.gradient[bigramIndex] = (weights.gradient[bigramIndex] ?? 0) + derivative;
    for (const token of context) {
      const index = bagOffset + token * size + column;
      weights.gradient[index] = (weights.gradient[index] ?? 0) + derivative / context.length;
    }
  }
}

/** Adam settings the server applies. */
export interface TinyAdam {
  /** Learning rate. */
  learningRate: number;
  /** First-moment decay. */
  beta1: number;
  /** Second-moment decay. */
  beta2: number;
  /** Epsilon. */
  eps: number;
  /** Decoupled weight decay. */
  weightDecay: number;
  /** Global gradient-norm clip (0: none). */
  gradClipNorm: number;
}

/** One Adam step on the accumulated gradient, which is then cleared. Returns the gradient norm. */
export function adamStep(weights: TinyWeights, adam: TinyAdam): number {
  let squares = 0;
  for (const value of weights.gradient) squares += value * value;
  const norm = Math.sqrt(squares);
  const clip = adam.gradClipNorm > 0 && norm > adam.gradClipNorm ? adam.gradClipNorm / norm : 1;
  weights.steps++;
  const correction1 = 1 - adam.beta1 ** weights.steps;
  const correction2 = 1 - adam.beta2 ** weights.steps;
  for (let index = 0; index < weights.parameters.length; index++) {
    const gradient = (weights.gradient[index] ?? 0) * clip;
    const first = adam.beta1 * (weights.firstMoment[index] ?? 0) + (1 - adam.beta1) * gradient;
    const second = adam.beta2 * (weights.secondMoment[index] ?? 0) + (1 - adam.beta2) * gradient * gradient;
    weights.firstMoment[index] = first;
    weights.secondMoment[index] = second;
    const parameter = (weights.parameters[index] ?? 0) * (1 - adam.learningRate * adam.weightDecay);
    weights.parameters[index] =
      parameter - (adam.learningRate * (first / correction1)) / (Math.sqrt(second / correction2) + adam.eps);
  }
  weights.gradient.fill(0);
  return norm;
}
