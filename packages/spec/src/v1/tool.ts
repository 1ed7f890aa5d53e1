import { z } from "zod";

/** A JSON Schema object describing tool parameters (kept as plain JSON). */
export const jsonSchemaSchema = z.record(z.string(), z.unknown());

/** A tool an environment (or a harness macro) offers to the policy. */
export const toolSpecSchema = z.object({
  /** Name the policy calls it by, e.g. `execute_sql`. */
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, "a tool name: letters, digits, _ or -"),
  /** What the tool does, shown to the policy. */
  description: z.string(),
  /** JSON Schema of the arguments object. */
  parameters: jsonSchemaSchema,
  /** True when calling this tool ends the episode (e.g. `commit_final_answer`). */
  terminal: z.boolean().optional(),
});
/** A tool an environment (or a harness macro) offers to the policy. */
export type ToolSpec = z.infer<typeof toolSpecSchema>;

/** One call of a tool, as parsed from the policy's output. */
export const toolCallSchema = z.object({
  /** Call id, echoed back in the tool message (OpenAI `tool_call_id`). */
  id: z.string(),
  /** Tool name. */
  name: z.string(),
  /** Arguments object. */
  arguments: z.record(z.string(), z.unknown()),
  /**
   * The arguments exactly as the policy wrote them, when they came as JSON text (an OpenAI-style tool
   * call). An environment whose grader reads that text itself (AgentBench FC's `json.loads`) uses it.
   */
  argumentsText: z.string().optional(),
});
/** One call of a tool, as parsed from the policy's output. */
export type ToolCall = z.infer<typeof toolCallSchema>;

/** What an environment returns for one tool call. */
export const toolResultSchema = z.object({
  /** Text the policy will see (before the harness's context policy is applied). */
  content: z.string(),
  /** True when the tool failed (SQL error, non-zero exit, exception in the app server). */
  isError: z.boolean(),
  /** True when this call ended the episode (a final answer was committed). */
  done: z.boolean(),
  /** Structured payload for the harness and graders, never shown to the policy as such. */
  data: z.unknown().optional(),
  /** Wall time the environment spent on the call, in milliseconds. */
  elapsedMs: z.number().nonnegative().optional(),
});
/** What an environment returns for one tool call. */
export type ToolResult = z.infer<typeof toolResultSchema>;
