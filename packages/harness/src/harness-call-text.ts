/** Prefix of every harness call's rendering; grammars find harness calls by it. */
export const harnessCallMarker = "[harness ran ";

/** What a harness call shows: `[harness ran TOOL: ARGUMENT]` and the result on the next lines. */
export function renderHarnessCall(
  tool: string,
  argumentsValue: Readonly<Record<string, unknown>>,
  result: string,
): string {
  const values = Object.values(argumentsValue);
  const shown =
    values.length === 1 && typeof values[0] === "string" ? values[0] : JSON.stringify(argumentsValue);
  return `${harnessCallMarker}${tool}: ${shown.replace(/\n/g, " ")}]\n${result}`;
}

/** One harness call read back from a rendered text. */
export interface ShownHarnessCall {
  /** The tool. */
  tool: string;
  /** The single argument, or the JSON of the arguments. */
  argument: string;
  /** The result text shown. */
  result: string;
}

/**
 * Splits a text into what comes before its first harness call and the harness calls it shows (the
 * inverse of `renderHarnessCall` joined with blank lines).
 */
export function readHarnessCalls(text: string): { before: string; calls: ShownHarnessCall[] } {
  const parts = text.split(harnessCallMarker);
  const before = (parts.shift() ?? "").replace(/\n+$/, "");
  const calls: ShownHarnessCall[] = [];
  for (const part of parts) {
    const newline = part.indexOf("\n");
    const head = newline < 0 ? part : part.slice(0, newline);
    const end = head.lastIndexOf("]");
    const colon = head.indexOf(": ");
    if (end < 0 || colon < 0) continue;
    calls.push({
      tool: head.slice(0, colon),
      argument: head.slice(colon + 2, end),
      result: newline < 0 ? "" : part.slice(newline + 1).replace(/\n+$/, ""),
    });
  }
  return { before, calls };
}
