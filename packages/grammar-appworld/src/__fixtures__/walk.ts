import type { ActionGrammarV1, Decision, GrammarStep, PolicyView } from "@hs/spec";

/** A finished walk through the grammar: the decisions met, the labels taken and the action. */
export interface Walk {
  /** Decisions in order. */
  decisions: Decision[];
  /** Labels taken. */
  labels: string[];
  /** The finished action. */
  action: Extract<GrammarStep, { done: true }>;
}

/** Walks the grammar on a view, taking the option `pick` names at each decision (at most 64). */
export function walk(
  grammar: ActionGrammarV1,
  view: PolicyView,
  pick: (decision: Decision, at: number) => number,
): Walk {
  const decisions: Decision[] = [];
  const labels: string[] = [];
  for (let at = 0; at < 64; at += 1) {
    const step = grammar.next(view, labels);
    if (step.done) return { decisions, labels, action: step };
    decisions.push(step.decision);
    const option = step.decision.options[pick(step.decision, at) % step.decision.options.length];
    if (option === undefined) throw new Error(`decision ${step.decision.name} has no options`);
    labels.push(option.label);
  }
  throw new Error(`no action after 64 decisions: ${labels.join(" ")}`);
}

/** A seeded pseudo-random index source for walks. */
export function seededPick(seed: number): (decision: Decision) => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state >>> 8;
  };
}

/** The option the grammar's prior scores highest. */
export function priorPick(grammar: ActionGrammarV1): (decision: Decision) => number {
  const prior = grammar.prior ?? [];
  return (decision) => {
    const scores = decision.options.map((option) =>
      option.features.reduce((sum, value, index) => sum + value * (prior[index] ?? 0), 0),
    );
    return scores.indexOf(Math.max(...scores));
  };
}
