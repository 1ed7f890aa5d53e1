import type { HarnessConfig } from "@hs/spec";
import { fillTemplate } from "./template.js";

/** Renders (section `errorRecovery`) how a tool error is shown. */
export function renderToolError(
  section: HarnessConfig["errorRecovery"],
  tool: string,
  error: string,
): string {
  return `${fillTemplate(section.toolErrorTemplate, { error, tool })}${section.toolErrorSuffix}`;
}

/** Renders (section `errorRecovery`) the re-prompt after an unparsable action. */
export function renderMalformedAction(
  section: HarnessConfig["errorRecovery"],
  reason: string,
  reply: string,
): string {
  return fillTemplate(section.malformedActionTemplate, { reason, reply });
}

/** Renders (section `errorRecovery`) a successful tool result, with the empty-result note when it matches. */
export function renderToolResult(section: HarnessConfig["errorRecovery"], content: string): string {
  const note = section.emptyResult;
  if (note === undefined || !new RegExp(note.pattern).test(content)) return content;
  return `${content}${note.suffix}`;
}
