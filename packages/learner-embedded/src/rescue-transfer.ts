import { createEmbeddedPolicy, type EmbeddedPolicy, tf } from "@hs/policy-embedded";
import type { ActionGrammarV1, PolicyAction, PolicyView, TrainingStep } from "@hs/spec";
import { EmbeddedGrpoLearner } from "./embedded-learner.js";

/** The probability the embedded policy gives `label` at the decision the grammar asks after `chosen`. */
export function decisionProbability(
  policy: EmbeddedPolicy,
  grammar: ActionGrammarV1,
  view: PolicyView,
  chosen: readonly string[],
  label: string,
): number {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error(`no decision after ${chosen.join(", ")}`);
  const index = step.decision.options.findIndex((option) => option.label === label);
  if (index < 0) throw new Error(`${label} is not offered after ${chosen.join(", ")}`);
  const logprobs = tf.tidy(() =>
    policy.network.singleLogSoftmax(policy.rows([step.decision], [-1])).dataSync(),
  );
  return Math.exp(logprobs[index] ?? Number.NaN);
}

/**
 * The action whose decisions are `labels`, with the policy's log-probabilities (as if it had sampled
 * them), and its tool calls under a native-tools view (as the embedded policy writes them).
 */
export function actionOf(
  policy: EmbeddedPolicy,
  grammar: ActionGrammarV1,
  view: PolicyView,
  labels: readonly string[],
): PolicyAction {
  const tokens = labels.map((label, index) => ({
    text: label,
    logprob: Math.log(decisionProbability(policy, grammar, view, labels.slice(0, index), label)),
  }));
  const step = grammar.next(view, labels);
  if (!step.done) throw new Error(`the decisions ${labels.join(", ")} do not finish an action`);
  return {
    content: step.content,
    ...(view.actionFormat === "tool-calls" ? { toolCalls: step.toolCalls } : {}),
    logprob: tokens.reduce((sum, token) => sum + token.logprob, 0),
    tokens,
    trace: { kind: "embedded-decisions", labels: [...labels] },
  };
}

/** One sample of a group: the view it acted on, its decisions, its advantage. */
export interface GroupSample {
  /** The view (a sibling's view for rescued samples). */
  view: PolicyView;
  /** The decisions taken. */
  labels: readonly string[];
  /** Its advantage in the group. */
  advantage: number;
}

/** `prefix` completed with each later decision's first option: a finished action's decisions. */
export function firstOptionsAfter(
  grammar: ActionGrammarV1,
  view: PolicyView,
  prefix: readonly string[],
): string[] {
  const chosen = [...prefix];
  for (let next = grammar.next(view, chosen); !next.done; next = grammar.next(view, chosen))
    chosen.push(next.decision.options[0]?.label ?? "");
  return chosen;
}

/** Options of `rescueUpdate`. */
export interface RescueUpdateOptions {
  /** Seed of both policies' weights (default 3). */
  seed?: number;
  /** Start from the grammar's prior (default true) or from zero weights. */
  usePrior?: boolean;
  /** Extra steps of the first sample with a positive advantage (harness-call credit), from the policy to update. */
  creditedSteps?: (policy: EmbeddedPolicy) => TrainingStep[];
}

/**
 * Whether a rescue can teach the base harness: one GRPO update of the embedded learner on a rescued group (the sibling's rollouts, their
 * group-normalised advantages). Returns the policy before and after the update, from the same seed.
 */
export async function rescueUpdate(
  grammar: ActionGrammarV1,
  group: readonly GroupSample[],
  options: RescueUpdateOptions = {},
): Promise<{ before: EmbeddedPolicy; after: EmbeddedPolicy }> {
  const { seed = 3, usePrior = true, creditedSteps } = options;
  const before = await createEmbeddedPolicy({ grammar, seed, usePrior });
  const after = await createEmbeddedPolicy({ grammar, seed, usePrior });
  const learner = new EmbeddedGrpoLearner({ policy: after, learningRate: 0.05 });
  const credited = creditedSteps?.(after) ?? [];
  const creditedIndex = group.findIndex((sample) => sample.advantage > 0);
  await learner.update({
    samples: group.map((sample, index) => ({
      trajectoryId: `sample-${index}`,
      harnessId: "sibling",
      advantage: sample.advantage,
      steps: [
        { view: sample.view, action: actionOf(after, grammar, sample.view, sample.labels) },
        ...(index === creditedIndex ? credited : []),
      ],
    })),
  });
  return { before, after };
}
