import { type DecisionWalk, type GrammarStep, labelValue } from "@hs/harness";
import { probeCommand } from "./commands.js";
import { ask, bashAction, option } from "./decision-options.js";
import { grammarTuning } from "./features.js";
import { promisingRewrites } from "./probe-verdict.js";
import type { EditLine, ViewContext } from "./view-context.js";

/** Whether every expression raised `NameError` in a probe (the statement's calls need objects it does not build). */
function expressionsUnusable(context: ViewContext): boolean {
  const probes = [...context.read.probes.values()];
  return probes.some((probe) => probe.original.every((result) => result.startsWith("raised NameError")));
}

/** Shown lines no probe has tried yet. */
export function unprobedLines(context: ViewContext): EditLine[] {
  return context.editLines().filter((entry) => !context.read.probes.has(`${entry.file}:${entry.line}`));
}

/** Whether `probe` has options: expressions to run, a package to import, an unprobed line, no live edit. */
export function probeAvailable(context: ViewContext): boolean {
  const { read } = context;
  return (
    read.terms.expressions.length > 0 &&
    context.packages.length > 0 &&
    context.liveEdits.length === 0 &&
    read.probes.size < grammarTuning.maxProbes &&
    !expressionsUnusable(context) &&
    unprobedLines(context).length > 0
  );
}

/** Whether a probe found a rewrite that shows a statement value (or cures an error) and breaks nothing. */
export function probeFoundFix(context: ViewContext): boolean {
  return promisingRewrites(context.read).length > 0;
}

/** Whether probing has run its course: the most lines probed, or the expressions cannot run. */
export function probesSpent(context: ViewContext): boolean {
  return (
    !probeFoundFix(context) &&
    (context.read.probes.size >= grammarTuning.maxProbes || expressionsUnusable(context))
  );
}

/** The grammar's fit of `probe`: before any edit, once lines are shown, until a probe finds a fix. */
export function probeFit(context: ViewContext): number {
  if (probeFoundFix(context)) return -3;
  return context.read.shownRanges.size > 0 ? 2.2 : -1;
}

/** `probe`: which shown line to try every rewrite of against the statement's expressions. */
export function probeStep(
  walk: DecisionWalk,
  context: ViewContext,
  lineValues: (context: ViewContext, entry: EditLine) => Record<string, number>,
): GrammarStep {
  const lines = unprobedLines(context);
  const chosen = walk.take();
  if (chosen === null) {
    return ask(
      "probe-line",
      lines.map((entry) => option(`line:${entry.file}:${entry.line}`, lineValues(context, entry), context)),
    );
  }
  const label = labelValue(chosen);
  const entry = lines.find((candidate) => `${candidate.file}:${candidate.line}` === label) ?? lines[0];
  const target = entry as EditLine;
  return bashAction(
    context.read,
    `Let me try every candidate change of line ${target.line} of ${target.file} against the calls the issue shows.`,
    probeCommand(
      context.packages,
      context.read.terms.expressions,
      target.file,
      target.line,
      target.text,
      target.rewrites.map((rewrite) => rewrite.text),
    ),
  );
}
