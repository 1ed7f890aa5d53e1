import type { ObservedTrajectory } from "@hs/spec";
import { excerpt } from "./trajectory-facts.js";

/** The task instruction as the policy saw it (the last pinned user message of the first view). */
export function instructionOf(trajectory: ObservedTrajectory): string {
  const first = trajectory.steps[0];
  if (first === undefined) return "";
  const users = first.view.messages.filter((message) => message.role === "user");
  return users[users.length - 1]?.content ?? "";
}

/**
 * A compact text account of a trajectory for an LLM: instruction, each step's action, feedback and
 * harness events, the end reason and the outcome. Long texts are cut.
 */
export function summarizeTrajectory(
  trajectory: ObservedTrajectory,
  options: { maxSteps?: number } = {},
): string {
  const maxSteps = options.maxSteps ?? 12;
  const lines = [
    `task ${trajectory.taskId}${trajectory.category === undefined ? "" : ` (${trajectory.category})`} under harness ${trajectory.harnessId}`,
    `instruction: ${excerpt(instructionOf(trajectory), 400)}`,
  ];
  const steps = trajectory.steps.slice(-maxSteps);
  if (steps.length < trajectory.steps.length)
    lines.push(`(first ${trajectory.steps.length - steps.length} steps omitted)`);
  for (const step of steps) {
    lines.push(
      `step ${step.index} action: ${excerpt(step.action.content || JSON.stringify(step.action.toolCalls ?? []), 240)}`,
    );
    if (step.feedback !== "") lines.push(`step ${step.index} feedback: ${excerpt(step.feedback, 240)}`);
    for (const event of step.events)
      lines.push(`step ${step.index} event ${event.type}: ${excerpt(event.detail, 160)}`);
  }
  lines.push(`ended: ${trajectory.endReason}; success: ${trajectory.success}; reward: ${trajectory.reward}`);
  if (trajectory.failureModes.length > 0) {
    lines.push(
      `labels: ${trajectory.failureModes.map((entry) => `${entry.mode}@${entry.step ?? "-"}`).join(", ")}`,
    );
  }
  return lines.join("\n");
}
