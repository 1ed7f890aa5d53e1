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

/** Whether each of `labels` is offered in turn under the view and, all taken, they finish an action. */
function offered(policy: EmbeddedPolicy, view: Parameters<ReplayAction>[0], labels: readonly string[]) {
  return labels.every((label, index) => {
    const step = policy.grammar.next(view, labels.slice(0, index));
    return !step.done && step.decision.options.some((option) => option.label === label);
  });
}

/** The reply and tool calls an action writes, for comparing two actions. */
const written = (action: PolicyAction) => JSON.stringify([action.content, action.toolCalls ?? []]);

/**
 * How the embedded policy writes a replayed action under another harness's view: the same decisions,
 * when the grammar offers each of them there and they write the same reply (and tool calls), with the
 * policy's current log-probabilities under that view (`actionOf`); otherwise null.
 */
export function embeddedReplayAction(policy: EmbeddedPolicy): ReplayAction {
  return (view, action) => {
    const labels = labelsOf(action);
    if (labels === null || !offered(policy, view, labels)) return null;
    if (!policy.grammar.next(view, labels).done) return null;
    const replayed = actionOf(policy, policy.grammar, view, labels);
    return written(replayed) === written(action) ? replayed : null;
  };
}
