import type { FailureConventions, ObservedTrajectory, ToolCall } from "@hs/spec";

/** Cuts text for evidence. */
export function excerpt(text: string, limit = 240): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit)}...`;
}

/** One environment call of an episode, with where it happened. */
export interface CallFact {
  /** Step index. */
  step: number;
  /** The call. */
  call: ToolCall;
  /** Result text. */
  content: string;
  /** Whether the environment reported an error. */
  isError: boolean;
  /** Whether this call ended the episode (a submit). */
  done: boolean;
}

/** Every executed environment call, in order. */
export function callsOf(trajectory: ObservedTrajectory): CallFact[] {
  return trajectory.steps.flatMap((step) =>
    step.executed.map((entry) => ({
      step: step.index,
      call: entry.call,
      content: entry.result.content,
      isError: entry.result.isError,
      done: entry.result.done,
    })),
  );
}

/** The call that submitted the answer, when the episode submitted. */
export function submitCallOf(
  trajectory: ObservedTrajectory,
  conventions: FailureConventions,
  calls: readonly CallFact[] = callsOf(trajectory),
): CallFact | undefined {
  const done = calls.filter((fact) => fact.done);
  if (done.length > 0) return done[done.length - 1];
  const named = calls.filter((fact) => conventions.submitTools.includes(fact.call.name));
  return named[named.length - 1];
}

/** The answer text of a submit call. */
export function answerOf(call: ToolCall, conventions: FailureConventions): string {
  const values = call.arguments;
  const value =
    conventions.answerArgument !== null
      ? values[conventions.answerArgument]
      : Object.keys(values).length === 1
        ? Object.values(values)[0]
        : values;
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Whether text matches a conventions pattern (case-insensitive, trimmed). */
export function matches(pattern: string, text: string): boolean {
  return new RegExp(pattern, "i").test(text.trim());
}

/** The string arguments of a call, one per line (the code, the query, the command). */
export function callText(call: ToolCall): string {
  return Object.values(call.arguments)
    .filter((value): value is string => typeof value === "string")
    .join("\n");
}

/** A regular expression from a conventions pattern, case-insensitive unless told otherwise. */
export function patternOf(source: string, flags = "i"): RegExp {
  return new RegExp(source, flags);
}
