import type { PolicyView } from "@hs/spec";
import { createSweGymGrammar } from "../swegym-grammar.js";

const grammar = createSweGymGrammar();

/** The command the grammar writes for `labels` in `view`. */
export function commandFor(view: PolicyView, labels: readonly string[]): string {
  const step = grammar.next(view, labels);
  if (!step.done) throw new Error(`"${labels.join(" ")}" is not a whole action`);
  return String(step.toolCalls?.[0]?.arguments.command ?? "");
}

/** The options of the decision after `chosen` in `view` (none once the action is whole). */
export function optionsOf(view: PolicyView, chosen: readonly string[]) {
  const step = grammar.next(view, chosen);
  return step.done ? [] : step.decision.options;
}

/** The labels of those options. */
export function labelsOf(view: PolicyView, chosen: readonly string[]): string[] {
  return optionsOf(view, chosen).map((entry) => entry.label);
}
