import { askInOrder } from "@hs/grammar-kit";
import type { DecisionOption, GrammarStep, ToolCall } from "@hs/spec";
import { type FeatureName, featureIndex, featureVectorOver } from "./features.js";
import type { ReadView } from "./read-view.js";
import type { ViewContext } from "./view-context.js";

const orderFeature = featureIndex.get("option-order") ?? -1;

/** An option: the view's context vector with `values` written over it. */
export function option(
  label: string,
  values: Partial<Record<FeatureName, number>>,
  context: ViewContext,
): DecisionOption {
  return { label, features: featureVectorOver(context.contextVector, values) };
}

/** The step that asks `name` over `options` (never empty), each marked with where it stands. */
export function ask(name: string, options: readonly DecisionOption[]): GrammarStep {
  if (options.length === 0) throw new Error(`the grammar built decision "${name}" without options`);
  return askInOrder({ name, options }, orderFeature);
}

/** The finished step that runs `command`: a THOUGHT and one bash block, and the bash tool call. */
export function bashAction(read: ReadView, thought: string, command: string): GrammarStep {
  const toolCalls: ToolCall[] = [
    { id: "call-bash", name: read.bashTool?.name ?? "bash", arguments: { command } },
  ];
  const content = read.nativeTools
    ? `THOUGHT: ${thought}`
    : `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;
  return { done: true, content, toolCalls };
}
