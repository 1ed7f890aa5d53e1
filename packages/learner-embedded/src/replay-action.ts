import type { ReplayAction } from "@hs/harness";
import type { EmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyAction } from "@hs/spec";
import { actionOf } from "./rescue-transfer.js";

/** The decisions an embedded action recorded (`trace.labels`), or null for another policy's action. */
function labelsOf(action: PolicyAction): string[] | null {
  const trace = action.trace as { kind?: string; labels?: unknown } | undefined;
  if (trace?.kind !== "embedded-decisions" || !Array.isArray(trace.labels)) return null;
  return trace.labels.map(String);
}

/** Whether each of `labels` is offered in turn under the view and they finish an action there. */
function offered(policy: EmbeddedPolicy, view: Parameters<ReplayAction>[0], labels: readonly string[]) {
  for (let index = 0; index <= labels.length; index++) {
    const step = policy.grammar.next(view, labels.slice(0, index));
    if (index === labels.length) return step.done;
    if (step.done || !step.decision.options.some((option) => option.label === labels[index])) return false;
  }
  return false;
}

/**
 * How the embedded policy writes a replayed action under another harness's view: the same decisions,
 * when the grammar offers each of them there and they write the same reply (and tool calls), with the
 * policy's current log-probabilities under that view (`actionOf`); otherwise null.
 */
export function embeddedReplayAction(policy: EmbeddedPolicy): ReplayAction {
  return (view, action) => {
    const labels = labelsOf(action);
    if (labels === null || !offered(policy, view, labels)) return null;
    const written = actionOf(policy, policy.grammar, view, labels);
    const step = policy.grammar.next(view, labels);
    const toolCalls = step.done && view.actionFormat === "tool-calls" ? step.toolCalls : undefined;
    const same =
      written.content === action.content &&
      JSON.stringify(toolCalls ?? []) === JSON.stringify(action.toolCalls ?? []);
    if (!same) return null;
    return toolCalls === undefined ? written : { ...written, toolCalls };
  };
}
