import { type Datum, flattenModelInput, type LossFunction } from "../protocol/datum.js";
import { addLogprobGradient, nextLogprobs, seededRandom, type TinyWeights } from "./tiny-model.js";

/** What forward_backward computed for one datum. */
export interface DatumLoss {
  /** Summed loss of the datum. */
  loss: number;
  /** Log-probability of each target under the weights before the step. */
  logprobs: number[];
}

function inputValues(datum: Datum, name: string, length: number, fallback: number): number[] {
  const tensor = datum.loss_fn_inputs[name];
  if (tensor === undefined) return new Array<number>(length).fill(fallback);
  if (tensor.data.length !== length) {
    throw new LossInputError(`loss_fn_inputs.${name} has ${tensor.data.length} values for ${length} targets`);
  }
  return tensor.data;
}

/** Bad loss inputs: the future fails with category `user`. */
export class LossInputError extends Error {}

/**
 * Per-token loss and its derivative with respect to the token's log-probability, as Tinker defines
 * the losses (sums over tokens; see thinking-machines-lab/tinker-cookbook docs on losses):
 * cross_entropy -w*lp; importance_sampling -exp(lp-q)*A; ppo -min(r*A, clip(r)*A).
 */
function tokenTerm(
  lossFunction: LossFunction,
  logprob: number,
  inputs: { weight: number; sampling: number; advantage: number },
  config: Record<string, number>,
): { loss: number; derivative: number } {
  if (lossFunction === "cross_entropy") return { loss: -inputs.weight * logprob, derivative: -inputs.weight };
  const ratio = Math.exp(logprob - inputs.sampling);
  if (lossFunction === "importance_sampling") {
    return { loss: -ratio * inputs.advantage, derivative: -ratio * inputs.advantage };
  }
  if (lossFunction === "ppo") {
    const low = 1 - (config.clip_low_threshold ?? 0.2);
    const high = 1 + (config.clip_high_threshold ?? 0.2);
    const clipped = Math.min(high, Math.max(low, ratio));
    const unclippedTerm = ratio * inputs.advantage;
    const clippedTerm = clipped * inputs.advantage;
    if (unclippedTerm <= clippedTerm) return { loss: -unclippedTerm, derivative: -unclippedTerm };
    return { loss: -clippedTerm, derivative: 0 };
  }
  throw new LossInputError(`loss_fn ${lossFunction} is not served by the test server`);
}

/** Runs forward and backward on one datum, adding to the gradient buffer. */
export function forwardBackwardDatum(
  weights: TinyWeights,
  datum: Datum,
  lossFunction: LossFunction,
  config: Record<string, number>,
): DatumLoss {
  const input = flattenModelInput(datum.model_input);
  const targets = datum.loss_fn_inputs.target_tokens?.data;
  if (targets === undefined) throw new LossInputError("loss_fn_inputs.target_tokens is missing");
  if (targets.length !== input.length) {
    throw new LossInputError(`${targets.length} target_tokens for ${input.length} input tokens`);
  }
  const weightsIn = inputValues(datum, "weights", targets.length, 1);
  const sampling = inputValues(datum, "logprobs", targets.length, 0);
  const advantages = inputValues(datum, "advantages", targets.length, 0);
  let loss = 0;
  const logprobs: number[] = [];
  for (let position = 0; position < input.length; position++) {
    const target = targets[position] ?? 0;
    if (!Number.isInteger(target) || target < 0 || target >= weights.vocabSize) {
      throw new LossInputError(`target token ${target} outside the vocabulary of ${weights.vocabSize}`);
    }
    const context = input.slice(0, position + 1);
    const distribution = nextLogprobs(weights, context);
    const logprob = distribution[target] ?? 0;
    logprobs.push(logprob);
    const term = tokenTerm(
      lossFunction,
      logprob,
      {
        weight: weightsIn[position] ?? 0,
        sampling: sampling[position] ?? 0,
        advantage: advantages[position] ?? 0,
      },
      config,
    );
    loss += term.loss;
    addLogprobGradient(weights, context, distribution, target, term.derivative);
  }
  return { loss, logprobs };
}

/** Sampling settings as the server reads them. */
export interface TinySampling {
  /** Most tokens. */
  maxTokens: number;
  /** Seed. */
  seed: number;
  /** Stop token ids. */
  stopTokens: readonly number[];
  /** Temperature (0: greedy). */
  temperature: number;
  /** Top-k (-1: all). */
  topK: number;
}

/** One continuation: tokens with their log-probabilities under the model (temperature 1). */
export function sampleContinuation(
  weights: TinyWeights,
  prompt: readonly number[],
  settings: TinySampling,
): { tokens: number[]; logprobs: number[]; stop_reason: "stop" | "length" } {
  const random = seededRandom(settings.seed);
  const context = [...prompt];
  const tokens: number[] = [];
  const logprobs: number[] = [];
  while (tokens.length < settings.maxTokens) {
    const distribution = nextLogprobs(weights, context);
    const token = drawToken(distribution, settings, random);
    tokens.push(token);
    logprobs.push(distribution[token] ?? 0);
    context.push(token);
    if (settings.stopTokens.includes(token)) return { tokens, logprobs, stop_reason: "stop" };
  }
  return { tokens, logprobs, stop_reason: "length" };
}

function drawToken(distribution: Float64Array, settings: TinySampling, random: () => number): number {
  const order = Array.from(distribution.keys()).sort(
    (left, right) => (distribution[right] ?? 0) - (distribution[left] ?? 0),
  );
  if (settings.temperature === 0) return order[0] ?? 0;
  const kept = settings.topK > 0 ? order.slice(0, settings.topK) : order;
  const scaled = kept.map((token) => Math.exp((distribution[token] ?? 0) / settings.temperature));
  const total = scaled.reduce((sum, value) => sum + value, 0);
  let draw = random() * total;
  for (let index = 0; index < kept.length; index++) {
    draw -= scaled[index] ?? 0;
    if (draw <= 0) return kept[index] ?? 0;
  }
  return kept[kept.length - 1] ?? 0;
}
