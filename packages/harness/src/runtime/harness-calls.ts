import type { CaptureSource, FollowUp, HarnessCall, HarnessConfig, ToolCall, ToolSpec } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";

const templateField = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\}/g;

/** The id prefix of the calls of follow-up `rule` after the policy call `callId` (each adds `.N`). */
export const followUpCallPrefix = (callId: string, rule: number) => `${callId}.follow-up-${rule}`;

/** The id prefix of a check's calls on the held submit `callId` (each adds `.N`). */
export const checkCallPrefix = (callId: string) => `${callId}.check`;

/** What made a harness call, read from the id its prefix gave it: a follow-up, a check, or neither. */
export function harnessCallTrigger(id: string): "follow-up" | "check" | null {
  if (/\.follow-up-\d+\.\d+$/.test(id)) return "follow-up";
  return /\.check\.\d+$/.test(id) ? "check" : null;
}

/** Template values of a harness call: `metadata.KEY`, captures and `item`. */
export type CallValues = Readonly<Record<string, string>>;

function namedGroups(pattern: string): string[] {
  return [...pattern.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((match) => match[1] as string);
}

/**
 * Fills the template fields of a string; null when a field the harness promises (a capture, `item`
 * or `metadata.KEY`) has no value, so a call never goes out with a literal `{column}` in it.
 */
export function fillCallText(text: string, values: CallValues, promised: ReadonlySet<string>): string | null {
  let missing = false;
  const filled = text.replace(templateField, (whole, name: string) => {
    const value = values[name];
    if (value !== undefined) return value;
    if (promised.has(name) || name.startsWith("metadata.")) missing = true;
    return whole;
  });
  return missing ? null : filled;
}

/** The named captures of a capture source against a call and its result; null when it does not match. */
export function captureValues(
  source: CaptureSource | undefined,
  call: ToolCall,
  resultText: string,
): Record<string, string> | null {
  if (source === undefined) return {};
  const value = source.source === "result" ? resultText : call.arguments[source.argument ?? ""];
  if (typeof value !== "string") return null;
  const match = new RegExp(source.pattern, source.flags).exec(value);
  if (match === null) return null;
  const values: Record<string, string> = {};
  for (const [name, captured] of Object.entries(match.groups ?? {})) {
    if (captured !== undefined) values[name] = captured.trim();
  }
  return values;
}

/**
 * The environment calls of harness calls with their templates filled: one per call, or one per element
 * of the `each` list. Calls whose promised fields have no value are left out.
 */
export function expandHarnessCalls(
  calls: readonly HarnessCall[],
  values: CallValues,
  metadata: Readonly<Record<string, unknown>>,
  capture: CaptureSource | undefined,
  idPrefix: string,
): ToolCall[] {
  const promised = new Set([...namedGroups(capture?.pattern ?? ""), "item"]);
  const expanded: ToolCall[] = [];
  for (const call of calls) {
    const list = call.each === undefined ? [undefined] : metadata[call.each];
    if (!Array.isArray(list)) continue;
    for (const item of list.slice(0, call.maxEach ?? list.length)) {
      const itemValues = item === undefined ? values : { ...values, item: String(item) };
      const filled: Record<string, unknown> = {};
      let complete = true;
      for (const [key, value] of Object.entries(call.arguments)) {
        const text = typeof value === "string" ? fillCallText(value, itemValues, promised) : value;
        if (text === null) complete = false;
        filled[key] = text;
      }
      if (complete) {
        expanded.push({ id: `${idPrefix}.${expanded.length}`, name: call.tool, arguments: filled });
      }
    }
  }
  return expanded;
}

/**
 * The follow-ups that fire after a policy call and its result, given how often each fired before;
 * `matched` holds how many results each matched before and is counted up for this one.
 */
export function firingFollowUps(
  followUps: readonly FollowUp[],
  call: ToolCall,
  resultText: string,
  fired: readonly number[],
  matched: number[],
): { index: number; followUp: FollowUp; captures: Record<string, string> }[] {
  const firing: { index: number; followUp: FollowUp; captures: Record<string, string> }[] = [];
  followUps.forEach((followUp, index) => {
    if ((fired[index] ?? 0) >= followUp.maxPerEpisode) return;
    if (followUp.tools !== undefined && !followUp.tools.includes(call.name)) return;
    if (!new RegExp(followUp.resultPattern, followUp.resultFlags).test(resultText)) return;
    matched[index] = (matched[index] ?? 0) + 1;
    if (matched[index] < (followUp.fromMatch ?? 1)) return;
    const captures = captureValues(followUp.capture, call, resultText);
    if (captures !== null) firing.push({ index, followUp, captures });
  });
  return firing;
}

/**
 * Checks up front that every harness call of a config names an environment tool that is not terminal
 * (a harness call never submits for the policy). Throws `InvalidInputError` naming the field.
 */
export function assertHarnessCallTools(harness: HarnessConfig, tools: readonly ToolSpec[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const check = (calls: readonly HarnessCall[], field: string) => {
    calls.forEach((call, index) => {
      const tool = byName.get(call.tool);
      if (tool === undefined || tool.terminal === true) {
        throw new InvalidInputError(
          `harness call "${call.tool}" ${tool === undefined ? "is not an environment tool" : "is terminal (a harness call never submits)"} (the environment has ${[...byName.keys()].join(", ")})`,
          { field: `${field}.${index}.tool` },
        );
      }
    });
  };
  if (harness.context.prelude) check(harness.context.prelude.calls, "context.prelude.calls");
  (harness.errorRecovery.followUps ?? []).forEach((followUp, index) => {
    check(followUp.calls, `errorRecovery.followUps.${index}.calls`);
  });
  if (harness.verification.calls) check(harness.verification.calls.calls, "verification.calls.calls");
}
