import type { ChatMessage, HarnessConfig, Task, ToolSpec } from "@hs/spec";
import { fillTemplate, metadataValues } from "./template.js";

/** Describes tools in plain text for the `{tools}` template field of the system prompt. */
export function describeTools(tools: readonly ToolSpec[]): string {
  return tools
    .map((tool) => {
      const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
      const argumentsText = Object.keys(properties).join(", ");
      return `- ${tool.name}(${argumentsText}): ${tool.description}`;
    })
    .join("\n");
}

/**
 * Prompt and hints (section `prompt`): renders the system message, the few-shot
 * examples and the task message (an empty system message is left out, as AgentBench v0.2 sends
 * none). These are the pinned messages of the episode.
 */
export function renderInitialMessages(
  prompt: HarnessConfig["prompt"],
  task: Task,
  tools: readonly ToolSpec[],
): ChatMessage[] {
  const hints =
    prompt.hints.length === 0 ? "" : `\n\nHints:\n${prompt.hints.map((hint) => `- ${hint}`).join("\n")}`;
  const values = {
    tools: describeTools(tools),
    instruction: task.instruction,
    ...metadataValues(task.metadata),
  };
  const system = fillTemplate(prompt.system, values, "prompt.system");
  const taskText = fillTemplate(prompt.taskTemplate, values, "prompt.taskTemplate");
  const systemText = prompt.hintPlacement === "system" ? `${system}${hints}` : system;
  return [
    ...(systemText === "" ? [] : [{ role: "system" as const, content: systemText }]),
    ...prompt.examples.map((example) => ({ role: example.role, content: example.content })),
    { role: "user", content: prompt.hintPlacement === "task" ? `${taskText}${hints}` : taskText },
  ];
}
