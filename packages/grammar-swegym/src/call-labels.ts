import { rankedLinesHeader, valuesLinesHeader } from "@hs/benchmarks-swegym";
import type { ToolCall } from "@hs/spec";

const shownAround = /^nl -ba '([^']+)' \| sed -n "\$\(\( (\d+) > 8 \?/;

function traceKindOf(command: string): "ranked" | "values" | "plain" {
  if (command.includes(rankedLinesHeader)) return "ranked";
  return command.includes(valuesLinesHeader) ? "values" : "plain";
}

/**
 * The grammar's decisions for a harness call's bash command: a pytest run of the whole suite (the
 * test-run check or macro), the trace of the statement's calls (ranked against the repository's tests,
 * with the module-level values they read, or plain: the plain one and the one before and after an
 * edit), or the lines around a traceback frame.
 * Any other command (a grep, a `git diff`) is none of them.
 */
export function sweGymCallLabels(call: ToolCall): string[][] {
  const command = call.arguments.command;
  if (call.name !== "bash" || typeof command !== "string") return [];
  if (/<<'HS_TRACE'/.test(command)) return [["kind:trace", `trace:${traceKindOf(command)}`]];
  if (/\bpython3 -m pytest\b/.test(command) && !/\.py\b/.test(command)) return [["kind:test", "tests:all"]];
  const shown = shownAround.exec(command);
  if (shown !== null) return [["kind:show", `at:${shown[1]}:${shown[2]}`]];
  return [];
}
