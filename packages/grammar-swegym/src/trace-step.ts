import {
  isRankedTraceCommand,
  rankedLineCap,
  rankedLinesHeader,
  rankedTraceCommand,
  readTraceOutput,
  traceStatementCommand,
  valuesLinesHeader,
  valuesTraceCommand,
} from "@hs/benchmarks-swegym";
import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { ask, bashAction, option } from "./decision-options.js";
import { grammarTuning } from "./features.js";
import { fruitlessProbe } from "./probe-verdict.js";
import type { ReadView } from "./read-view.js";
import { submitFit } from "./submit-fit.js";
import type { ViewContext } from "./view-context.js";

/**
 * Folds a trace of the statement's calls into the view, whoever ran it (the policy's `trace`, or the
 * harness's prelude, follow-up, check or `trace_statement` macro): each executed line is a shown line,
 * and the first line of each cluster (lines of one file within `regionRadius` of each other, most
 * relevant first) is a `trace` location that `show` offers a region around. The packages it imported
 * are known packages (`NAME/__init__.py`), as a listing would show them. A ranked trace counts as run
 * from its command, even when its calls executed no repository line and so no ranking was printed.
 */
export function readTrace(
  read: ReadView,
  command: string,
  output: string,
  step: number,
  showLine: (file: string, line: number, text: string) => void,
): void {
  const reading = readTraceOutput(output);
  if (reading === null) return;
  read.traceSteps.push(step);
  const ranked = output.includes(rankedLinesHeader) || isRankedTraceCommand(command);
  if (ranked) read.rankedTraceSteps.push(step);
  if (isValuesTrace(command, output)) read.valuesTraceSteps.push(step);
  // a trace that ran no repository line tells nothing of where to look: the files are still to be listed
  if (reading.lines.length === 0) return;
  for (const name of reading.packages) {
    if (!read.files.includes(`${name}/__init__.py`)) read.files.push(`${name}/__init__.py`);
  }
  const anchors: { file: string; line: number }[] = [];
  for (const [index, traced] of reading.lines.entries()) {
    showLine(traced.file, traced.line, traced.text);
    const key = `${traced.file}:${traced.line}`;
    read.traced.add(key);
    if (ranked) read.ranked.set(key, Math.max(read.ranked.get(key) ?? 0, 1 - index / rankedLineCap));
    const near = anchors.some(
      (anchor) =>
        anchor.file === traced.file && Math.abs(anchor.line - traced.line) <= grammarTuning.regionRadius,
    );
    if (near) continue;
    anchors.push(traced);
    read.locations.push({ file: traced.file, line: traced.line, source: "trace", step });
  }
}

/** Whether the statement's calls changed since the latest trace: none ran yet, or an edit came after it. */
function traceIsNew(context: ViewContext): boolean {
  const { read } = context;
  const latestTrace = Math.max(-2, ...read.traceSteps);
  const latestEdit = Math.max(-1, ...context.liveEdits.map((edit) => edit.step));
  return latestTrace < latestEdit || read.traceSteps.length === 0;
}

/**
 * Whether the latest probe was fruitless (`fruitlessProbe`), with no live edit and no ranked trace yet:
 * the probed lines are not where the calls' values come from, and the ranked trace is where to look
 * next (the decision the error-recovery sibling's follow-up makes for the policy, offered under the
 * base harness too).
 */
export function rankedTraceAfterFruitless(context: ViewContext): boolean {
  const { read } = context;
  if (context.liveEdits.length > 0 || read.rankedTraceSteps.length > 0) return false;
  const probes = [...read.probes.values()];
  const latest = Math.max(-1, ...probes.map((probe) => probe.step));
  const lastProbed = probes.filter((probe) => probe.step === latest);
  return lastProbed.length > 0 && lastProbed.every(fruitlessProbe);
}

/** Whether a trace listed the module-level values its calls read (told by its command or its output). */
function isValuesTrace(command: string, output: string): boolean {
  return command.includes(valuesLinesHeader) || output.includes(valuesLinesHeader);
}

/**
 * Whether the prior would submit the empty patch (nothing edited, a submit's fit at least 3) and no
 * values trace ran: the values trace (what the verification sibling's values check runs before a
 * submit) may show a table or constant no trace could, and is then worked on as a check's result is.
 */
export function valuesTraceBeforeSubmit(context: ViewContext): boolean {
  const { read } = context;
  return read.valuesTraceSteps.length === 0 && context.liveEdits.length === 0 && submitFit(context) >= 3;
}

/**
 * Whether `trace` has something to show: the statement writes a call, and it changed, a probe was
 * fruitless or the empty patch is about to be submitted (`valuesTraceBeforeSubmit`).
 */
export function traceAvailable(context: ViewContext): boolean {
  if (context.read.terms.expressions.length === 0) return false;
  return traceIsNew(context) || rankedTraceAfterFruitless(context) || valuesTraceBeforeSubmit(context);
}

/**
 * The grammar's fit of `trace`: low, so the untrained policy keeps its order of work under the base
 * harness (list, search, show, probe), but not so low that training never meets it (1 once listed: a
 * trace in a few percent of episodes; at 0, about one in 10,000); 2 after a fruitless probe
 * (`rankedTraceAfterFruitless`), above `show`'s 1.5 and below a submit's 3. Before the empty patch is
 * submitted (`valuesTraceBeforeSubmit`) `kindFit` puts it one below the submit's fit, pressure included
 * (the untrained policy then traces about once in 20 and submits otherwise).
 */
export function traceFit(context: ViewContext): number {
  if (rankedTraceAfterFruitless(context)) return 2;
  return context.read.explored && context.read.traceSteps.length === 0 ? 1 : -2;
}

/**
 * `trace`: runs the statement's calls under a line tracer (the harness's own trace command), either
 * alone (`trace:plain`, every executed line in order) or with the executed lines ranked against the
 * repository's passing tests (`trace:ranked`, the command of the ranked-trace prelude and follow-up), or,
 * before the empty patch is submitted, with the module-level values the calls read (`trace:values`, the command
 * of the values check), so that what a sibling's trace rescued is a decision the policy can make under
 * the base harness.
 */
export function traceStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const chosen = walk.take();
  // after a fruitless probe the ranked trace is the place to look next, the plain one shows nothing new
  const plainOffered = traceIsNew(context) && !rankedTraceAfterFruitless(context);
  const rankedOffered = traceIsNew(context) || rankedTraceAfterFruitless(context);
  if (chosen === null)
    return ask("trace-kind", [
      ...(plainOffered ? [option("trace:plain", {}, context)] : []),
      ...(rankedOffered ? [option("trace:ranked", { "trace-ranked": 1 }, context)] : []),
      ...(valuesTraceBeforeSubmit(context) ? [option("trace:values", { "trace-values": 1 }, context)] : []),
    ]);
  const calls = JSON.stringify(context.read.terms.expressions);
  if (labelValue(chosen) === "values")
    return bashAction(
      context.read,
      "Before I submit, let me list the module-level tables and constants the issue's calls read: they are built at import, so no trace shows them.",
      valuesTraceCommand(calls),
    );
  if (labelValue(chosen) === "ranked")
    return bashAction(
      context.read,
      "Let me run the calls the issue shows under a line tracer and rank the lines they run against the repository's tests, to see where to look first.",
      rankedTraceCommand(calls),
    );
  return bashAction(
    context.read,
    "Let me run the calls the issue shows under a line tracer, to see which lines of the repository they run.",
    traceStatementCommand(calls),
  );
}
