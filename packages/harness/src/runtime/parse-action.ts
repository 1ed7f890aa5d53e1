import type { HarnessConfig, PolicyAction, ToolCall } from "@hs/spec";

/** The result of reading an action: tool calls, or why none could be read. */
export type ParsedAction = { ok: true; calls: ToolCall[] } | { ok: false; reason: string };

function parseTextAction(
  rules: Extract<HarnessConfig["actionFormat"], { kind: "text" }>["rules"],
  content: string,
  callId: string,
): ParsedAction {
  for (const rule of rules) {
    const match = new RegExp(rule.pattern, rule.flags.replace("g", "")).exec(content);
    if (match === null) continue;
    const args: Record<string, unknown> = {};
    for (const [name, group] of Object.entries(rule.arguments)) {
      const value = typeof group === "number" ? match[group] : match.groups?.[group];
      if (value === undefined) return { ok: false, reason: `the action for ${rule.tool} has no ${name}` };
      args[name] = rule.trim === false ? value : value.trim();
    }
    return { ok: true, calls: [{ id: callId, name: rule.tool, arguments: args }] };
  }
  return { ok: false, reason: "no action in the expected format was found" };
}

/**
 * Action parsing (section `actionFormat`): turns a policy action into tool calls, with
 * native tool calls or with the rules of a text protocol.
 */
export function parseAction(
  format: HarnessConfig["actionFormat"],
  action: PolicyAction,
  callId: string,
): ParsedAction {
  if (action.malformed !== undefined) return { ok: false, reason: action.malformed };
  if (format.kind === "text") return parseTextAction(format.rules, action.content, callId);
  const calls = action.toolCalls ?? [];
  if (calls.length === 0) return { ok: false, reason: "the reply contains no tool call" };
  return { ok: true, calls };
}
