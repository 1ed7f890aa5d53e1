import type { HarnessConfig, ToolCall, ToolSpec } from "@hs/spec";
import { fillTemplate } from "./template.js";

/** Whether a non-terminal call counts as a submit (`verification.submitMatch`). */
export function matchesSubmit(section: HarnessConfig["verification"], call: ToolCall): boolean {
  const match = section.submitMatch;
  if (!match || match.tool !== call.name) return false;
  const value = call.arguments[match.argument];
  return typeof value === "string" && new RegExp(match.pattern, match.flags).test(value);
}

/**
 * Verification (section `verification`): holds back a submit for a check, at most
 * `maxChecks` times per episode. Returns the text to show instead, or null to let the submit through.
 */
export function holdSubmitForCheck(
  section: HarnessConfig["verification"],
  call: ToolCall,
  tools: readonly ToolSpec[],
  checksSoFar: number,
): string | null {
  if (!section.enabled || checksSoFar >= section.maxChecks) return null;
  const terminal = tools.some((tool) => tool.name === call.name && tool.terminal === true);
  if (!terminal && !matchesSubmit(section, call)) return null;
  const values = Object.values(call.arguments);
  const answer =
    values.length === 1 && typeof values[0] === "string" ? values[0] : JSON.stringify(call.arguments);
  return fillTemplate(section.prompt, { answer });
}
