import type { GrammarStep, ToolCall } from "@hs/spec";
import type { ReadView } from "./read-view.js";

/** The finished step that runs `sql`: the v0.2 text action and, where the view has one, the SQL tool call. */
export function sqlAction(read: ReadView, sql: string): GrammarStep {
  const tool = read.sqlTool;
  const argumentName =
    Object.keys((tool?.parameters.properties as Record<string, unknown> | undefined) ?? {})[0] ?? "sql";
  const toolCalls: ToolCall[] =
    tool === undefined ? [] : [{ id: "call-sql", name: tool.name, arguments: { [argumentName]: sql } }];
  return { done: true, content: `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``, toolCalls };
}

/** The finished step that commits `answers`: the v0.2 text action and, where the view has one, the answer tool call. */
export function answerAction(read: ReadView, answers: string[]): GrammarStep {
  const tool = read.answerTool;
  const properties = (tool?.parameters.properties as Record<string, { type?: unknown }> | undefined) ?? {};
  const argumentName = Object.keys(properties)[0] ?? "answers";
  const isArray = properties[argumentName]?.type === "array";
  const toolCalls: ToolCall[] =
    tool === undefined
      ? []
      : [
          {
            id: "call-answer",
            name: tool.name,
            arguments: { [argumentName]: isArray ? answers : JSON.stringify(answers) },
          },
        ];
  return { done: true, content: `Action: Answer\nFinal Answer: ${JSON.stringify(answers)}`, toolCalls };
}
