import type { GrammarStep } from "@hs/spec";
import type { CodeFormat } from "./read-view.js";

/** The tool that runs code natively (the AppWorld adapter's `execute`). */
export const executeToolName = "execute";

/** The finished action in the view's format: a ```python block, `<think>`/`<code>` tags, or an `execute` call. */
export function renderAction(
  format: CodeFormat,
  thought: string,
  code: string,
  callIndex: number,
): GrammarStep {
  if (format === "native") {
    return {
      done: true,
      content: thought,
      toolCalls: [{ id: `execute-${callIndex}`, name: executeToolName, arguments: { code } }],
    };
  }
  const content =
    format === "think-code"
      ? `<think>${thought}</think>\n<code>\n${code}\n</code>`
      : `${thought}\n\`\`\`python\n${code}\n\`\`\``;
  return { done: true, content, toolCalls: [] };
}
