import type { ChatMessage, ToolSpec, Trajectory } from "@hs/spec";
import { trajectoryDatums } from "../learner/trajectory-datums.js";
import { tinkerTraceSchema } from "../policy/tinker-policy.js";

/** A chat message as TRL and verl read it (OpenAI style). */
export interface ExportMessage {
  /** Speaker. */
  role: string;
  /** Text. */
  content: string;
  /** Tool calls of an assistant message. */
  tool_calls?: {
    type: "function";
    id: string;
    function: { name: string; arguments: Record<string, unknown> };
  }[];
  /** Tool name of a tool message. */
  name?: string;
  /** Call answered by a tool message. */
  tool_call_id?: string;
}

/** A tool as TRL reads it (OpenAI function schema). */
export interface ExportTool {
  /** Always `function`. */
  type: "function";
  /** The function. */
  function: { name: string; description: string; parameters: unknown };
}

/** What the export knows about one trajectory. */
export interface TrajectoryRecord {
  /** The trajectory. */
  trajectory: Trajectory;
  /** Group-relative advantage, as the trainer computed it (GRPO: (r - mean) / (sample std + 1e-6)). */
  advantage: number;
  /** Group key: policy version and task. */
  group: string;
}

/** Converts a harness message to the OpenAI shape. */
export function exportMessage(message: ChatMessage): ExportMessage {
  const shaped: ExportMessage = { role: message.role, content: message.content };
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
    shaped.tool_calls = message.toolCalls.map((call) => ({
      type: "function",
      id: call.id,
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (message.name !== undefined) shaped.name = message.name;
  if (message.toolCallId !== undefined) shaped.tool_call_id = message.toolCallId;
  return shaped;
}

/** Converts a harness tool to the OpenAI function schema. */
export function exportTool(tool: ToolSpec): ExportTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** The prompt of a trajectory: the messages of its first view. */
export function promptMessages(trajectory: Trajectory): ExportMessage[] {
  return (trajectory.steps[0]?.view.messages ?? []).map(exportMessage);
}

/** The whole conversation: the last view and the last reply. */
export function conversationMessages(trajectory: Trajectory): ExportMessage[] {
  const last = trajectory.steps[trajectory.steps.length - 1];
  if (last === undefined) return [];
  const reply: ChatMessage = {
    role: "assistant",
    content: last.action.content,
    ...(last.action.toolCalls === undefined ? {} : { toolCalls: last.action.toolCalls }),
  };
  return [...last.view.messages, reply].map(exportMessage);
}

/** Token ids and action masks of a trajectory, when its steps carry Tinker token traces. */
export function trajectoryTokens(
  trajectory: Trajectory,
): { input_ids: number[]; action_mask: number[] }[] | null {
  const transitions = [];
  for (const step of trajectory.steps) {
    const trace = tinkerTraceSchema.safeParse(step.action.trace);
    if (!trace.success) return null;
    transitions.push({
      observation: trace.data.promptTokens,
      action: trace.data.completionTokens,
      logprobs: (step.action.tokens ?? []).map((token) => token.logprob),
    });
  }
  if (transitions.length === 0) return null;
  return trajectoryDatums(transitions, 1).map((built) => {
    const input = built.datum.model_input.chunks.flatMap((chunk) => chunk.tokens);
    const targets = built.datum.loss_fn_inputs.target_tokens?.data ?? [];
    return { input_ids: [...input.slice(0, 1), ...targets], action_mask: [0, ...built.mask] };
  });
}

/** Advantages of one group's rewards, in order (the trainer's `groupAdvantages`). */
export type GroupAdvantages = (rewards: readonly number[]) => number[];

/**
 * GRPO's advantages as `@hs/rescue-grpo` computes them: (r - mean) / (sample std + 1e-6), 0 for a
 * group of one. `hs export` passes the trainer's own function instead (this package may not import it).
 */
export const grpoAdvantages: GroupAdvantages = (rewards) => {
  if (rewards.length < 2) return rewards.map(() => 0);
  const mean = rewards.reduce((sum, value) => sum + value, 0) / rewards.length;
  const variance = rewards.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (rewards.length - 1);
  return rewards.map((reward) => (reward - mean) / (Math.sqrt(variance) + 1e-6));
};

/** Group-relative advantages over trajectories grouped by policy version and task. */
export function withAdvantages(
  trajectories: readonly Trajectory[],
  advantages: GroupAdvantages = grpoAdvantages,
): TrajectoryRecord[] {
  const groups = new Map<string, Trajectory[]>();
  for (const trajectory of trajectories) {
    const key = `${trajectory.policyVersion}|${trajectory.taskId}`;
    groups.set(key, [...(groups.get(key) ?? []), trajectory]);
  }
  const byTrajectory = new Map<Trajectory, number>();
  for (const members of groups.values()) {
    const values = advantages(members.map((member) => member.reward));
    for (const [index, member] of members.entries()) byTrajectory.set(member, values[index] ?? 0);
  }
  return trajectories.map((trajectory) => ({
    trajectory,
    advantage: byTrajectory.get(trajectory) ?? 0,
    group: `${trajectory.policyVersion}|${trajectory.taskId}`,
  }));
}
