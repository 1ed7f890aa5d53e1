import { type Datum, floatTensor, intTensor, tokensInput } from "../protocol/datum.js";

/** One step of a trajectory in tokens: what the policy read and what it sampled. */
export interface TokenTransition {
  /** Prompt token ids of the step (the whole rendered view). */
  observation: readonly number[];
  /** Sampled token ids. */
  action: readonly number[];
  /** Sampling log-probability of each sampled token. */
  logprobs: readonly number[];
}

/** A Datum with the mask it was built with (the mask is kept client-side, not sent). */
export interface BuiltDatum {
  /** What forward_backward receives. */
  datum: Datum;
  /** 1 on action targets, 0 on observation targets. */
  mask: number[];
}

function isPrefix(prefix: readonly number[], sequence: readonly number[]): boolean {
  if (prefix.length > sequence.length) return false;
  for (let index = 0; index < prefix.length; index++) if (prefix[index] !== sequence[index]) return false;
  return true;
}

/**
 * The Datums of one trajectory, as thinking-machines-lab/tinker-cookbook
 * `tinker_cookbook/rl/data_processing.py` (`trajectory_to_data`) builds them: while each observation
 * extends the sequence so far (previous observation + action), the steps share one Datum; otherwise a
 * new Datum starts. Over the full sequence, input = tokens[:-1] and every per-token list is shifted
 * by one (targets = tokens[1:]); sampling log-probabilities and the advantage sit on action tokens,
 * 0 on observation tokens. The cookbook drops the `mask` before sending; so does this.
 */
export function trajectoryDatums(transitions: readonly TokenTransition[], advantage: number): BuiltDatum[] {
  const built: BuiltDatum[] = [];
  let sequence: number[] = [];
  let logprobs: number[] = [];
  let advantages: number[] = [];
  let mask: number[] = [];
  const flush = () => {
    if (sequence.length >= 2) built.push(makeDatum(sequence, logprobs, advantages, mask));
    sequence = [];
    logprobs = [];
    advantages = [];
    mask = [];
  };
  for (const transition of transitions) {
    if (transition.logprobs.length !== transition.action.length) {
      throw new RangeError(
        `${transition.logprobs.length} log-probabilities for ${transition.action.length} tokens`,
      );
    }
    if (sequence.length > 0 && !isPrefix(sequence, transition.observation)) flush();
    const delta = transition.observation.slice(sequence.length);
    sequence.push(...delta, ...transition.action);
    logprobs.push(...delta.map(() => 0), ...transition.logprobs);
    advantages.push(...delta.map(() => 0), ...transition.action.map(() => advantage));
    mask.push(...delta.map(() => 0), ...transition.action.map(() => 1));
  }
  flush();
  return built;
}

function makeDatum(sequence: number[], logprobs: number[], advantages: number[], mask: number[]): BuiltDatum {
  return {
    datum: {
      model_input: tokensInput(sequence.slice(0, -1)),
      loss_fn_inputs: {
        target_tokens: intTensor(sequence.slice(1)),
        logprobs: floatTensor(logprobs.slice(1)),
        advantages: floatTensor(advantages.slice(1)),
      },
    },
    mask: mask.slice(1),
  };
}
