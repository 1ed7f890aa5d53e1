import { observationLimitChars } from "@hs/benchmarks-swegym";
import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
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

/**
 * The lines `probe` offers: the unprobed shown lines while fewer than `maxProbes` were probed; past
 * that, those a ranked trace listed (a ranking that came later is worth probing whatever was before it).
 */
export function probeCandidates(context: ViewContext): EditLine[] {
  const lines = unprobedLines(context);
  if (context.read.probes.size < grammarTuning.maxProbes) return lines;
  return lines.filter((entry) => context.read.ranked.has(`${entry.file}:${entry.line}`));
}

/** Whether `probe` has options: expressions to run, a package to import, a line to probe, no live edit. */
export function probeAvailable(context: ViewContext): boolean {
  const { read } = context;
  return (
    read.terms.expressions.length > 0 &&
    context.packages.length > 0 &&
    context.liveEdits.length === 0 &&
    !expressionsUnusable(context) &&
    probeCandidates(context).length > 0
  );
}

/** Whether a probe found a rewrite that shows a statement value (or cures an error) and breaks nothing. */
export function probeFoundFix(context: ViewContext): boolean {
  return promisingRewrites(context.read).length > 0;
}

/** Whether probing has run its course: the most lines probed (and no ranked line left), or the expressions cannot run. */
export function probesSpent(context: ViewContext): boolean {
  const budgetSpent =
    context.read.probes.size >= grammarTuning.maxProbes && probeCandidates(context).length === 0;
  return !probeFoundFix(context) && (budgetSpent || expressionsUnusable(context));
}

/** Probe commands run since the latest step that showed lines (`nl -ba`). */
export function probesSinceShow(context: ViewContext): number {
  const { read } = context;
  const shows = read.steps.flatMap((step, index) => (/^nl -ba /.test(step.command ?? "") ? [index] : []));
  const latest = Math.max(-1, ...shows);
  return new Set([...read.probes.values()].filter((probe) => probe.step > latest).map((probe) => probe.step))
    .size;
}

/**
 * The grammar's fit of `probe`: before any edit, once lines are shown, until a probe finds a fix; after
 * `probesPerRegion` probes of one region, looking elsewhere comes first.
 */
export function probeFit(context: ViewContext): number {
  if (probeFoundFix(context)) return -3;
  if (context.read.shownRanges.size === 0) return -1;
  return probesSinceShow(context) >= grammarTuning.probesPerRegion ? -0.5 : 2.2;
}

/** Characters a probe's output may fill: mini-swe-agent's observation limit, less the calls' echo at its top. */
const probeOutputBudget = observationLimitChars - 1_000;

/** The most characters a probed line adds to the output: its header, then each result of the original and of every rewrite. */
function probeOutputSize(entry: EditLine, calls: number): number {
  const block = (text: string) => text.length + 12 + calls * 105;
  return 40 + block(entry.text) + entry.rewrites.reduce((total, rewrite) => total + block(rewrite.text), 0);
}

/**
 * The chosen line first, then the unprobed lines within `probeWindow` of it in the same file, nearest
 * first, as long as the output stays within the observation limit (a longer one is cut in its middle,
 * and the verdicts printed there are lost).
 */
export function probeWindow(lines: readonly EditLine[], target: EditLine, calls: number): EditLine[] {
  const near = lines
    .filter(
      (entry) =>
        entry !== target &&
        entry.file === target.file &&
        Math.abs(entry.line - target.line) <= grammarTuning.probeWindow,
    )
    .sort((left, right) => Math.abs(left.line - target.line) - Math.abs(right.line - target.line));
  const window = [target];
  let size = probeOutputSize(target, calls);
  for (const entry of near) {
    size += probeOutputSize(entry, calls);
    if (size > probeOutputBudget) break;
    window.push(entry);
  }
  return window;
}

/** `probe`: which shown line to try every rewrite of against the statement's expressions. */
export function probeStep(
  walk: DecisionWalk,
  context: ViewContext,
  lineValues: (context: ViewContext, entry: EditLine) => Record<string, number>,
): GrammarStep {
  const lines = probeCandidates(context);
  const chosen = walk.take();
  if (chosen === null) {
    return ask(
      "probe-line",
      lines.map((entry) => option(`line:${entry.file}:${entry.line}`, lineValues(context, entry), context)),
    );
  }
  const label = labelValue(chosen);
  const target = (lines.find((candidate) => `${candidate.file}:${candidate.line}` === label) ??
    lines[0]) as EditLine;
  const window = probeWindow(lines, target, context.read.terms.expressions.length);
  return bashAction(
    context.read,
    `Let me try the candidate changes of lines near ${target.line} of ${target.file} against the calls the issue shows.`,
    probeCommand(
      context.packages,
      context.read.terms.expressions,
      target.file,
      window.map((entry) => ({
        line: entry.line,
        original: entry.text,
        rewrites: entry.rewrites.map((rewrite) => rewrite.text),
      })),
    ),
  );
}
