import type { DecisionWalk } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { showCommand } from "./commands.js";
import { ask, bashAction, option } from "./decision-options.js";
import { type FeatureName, grammarTuning } from "./features.js";
import { definedName, type ViewContext } from "./view-context.js";

/** A region the `show` action may print. */
export interface ShowTarget {
  /** Option label (`at:FILE:LINE`, `top:FILE`, `next:FILE:FIRST`, `previous:FILE:LAST`). */
  label: string;
  /** Repository-relative path. */
  file: string;
  /** First line shown. */
  first: number;
  /** Last line shown. */
  last: number;
  /** Whether it is centred on a location no earlier region showed (false for a file's top or next page). */
  fresh: boolean;
  /** Its own features. */
  values: Partial<Record<FeatureName, number>>;
}

const maxTargets = 40;

function inRanges(ranges: readonly [number, number][] | undefined, line: number): boolean {
  return (ranges ?? []).some(([first, last]) => line >= first && line <= last);
}

function fileValues(context: ViewContext, file: string): Partial<Record<FeatureName, number>> {
  const { read } = context;
  const stem = (file.split("/").at(-1) ?? file).replace(/\.py$/, "").toLowerCase();
  return {
    "file-in-traceback": read.locations.some((entry) => entry.file === file && entry.source === "traceback")
      ? 1
      : 0,
    "file-in-search": read.locations.some((entry) => entry.file === file && entry.source === "search")
      ? 1
      : 0,
    "file-named": read.terms.words.has(stem) ? 1 : 0,
    "file-shown": read.shownRanges.has(file) ? 1 : 0,
    "file-edited": context.liveEdits.some((edit) => edit.file === file) ? 1 : 0,
  };
}

/** Features of the line a region is centred on: a definition (of a name the statement writes), an import. */
function lineKindValues(context: ViewContext, text: string): Partial<Record<FeatureName, number>> {
  const name = definedName(text);
  return {
    "region-definition": name === undefined ? 0 : 1,
    "region-named-definition": name !== undefined && context.read.terms.identifiers.includes(name) ? 1 : 0,
    "region-import": /^\s*(from|import)\s/.test(text) ? 1 : 0,
  };
}

const targetCache = new WeakMap<ViewContext, ShowTarget[]>();

/** The regions `show` offers: around each location in a source file, each file's top, the next page of a shown file. */
export function showTargets(context: ViewContext): ShowTarget[] {
  const cached = targetCache.get(context);
  if (cached !== undefined) return cached;
  const { read } = context;
  const radius = grammarTuning.regionRadius;
  const targets: ShowTarget[] = [];
  const seen = new Set<string>();
  const push = (target: ShowTarget) => {
    if (seen.has(target.label) || targets.length >= maxTargets) return;
    seen.add(target.label);
    targets.push(target);
  };
  const latestFirst = [...read.locations].sort((left, right) => right.step - left.step);
  const innermost = new Set<object>();
  for (const location of read.locations) {
    if (location.source === "search" || location.source === "trace") continue;
    if (!context.sourceFiles.includes(location.file)) continue;
    const frames = read.locations.filter(
      (entry) =>
        entry.step === location.step &&
        entry.source === location.source &&
        context.sourceFiles.includes(entry.file),
    );
    if (frames.at(-1) === location) innermost.add(location);
  }
  for (const location of latestFirst) {
    if (!context.sourceFiles.includes(location.file)) continue;
    const ranges = read.shownRanges.get(location.file);
    const kindValues = lineKindValues(context, read.shown.get(location.file)?.get(location.line)?.text ?? "");
    // a definition is shown from its line on, so that the body of the function is in view
    const definition = kindValues["region-definition"] === 1;
    push({
      label: `at:${location.file}:${location.line}`,
      file: location.file,
      first: definition ? location.line : Math.max(1, location.line - radius),
      last: location.line + (definition ? grammarTuning.definitionLines : radius),
      fresh: !inRanges(ranges, location.line),
      values: {
        ...fileValues(context, location.file),
        "region-traceback": location.source === "traceback" ? 1 : 0,
        "region-search": location.source === "search" ? 1 : 0,
        "region-shown": inRanges(ranges, location.line) ? 1 : 0,
        "region-innermost": innermost.has(location) ? 1 : 0,
        "region-traced": location.source === "trace" ? 1 : 0,
        "region-ranked":
          location.source === "trace" ? (read.ranked.get(`${location.file}:${location.line}`) ?? 0) : 0,
        ...kindValues,
      },
    });
  }
  for (const file of context.sourceFiles.slice(0, grammarTuning.maxFiles)) {
    const ranges = read.shownRanges.get(file);
    const end = Math.max(0, ...(ranges ?? []).map(([, last]) => last));
    const top = { file, first: 1, last: grammarTuning.topLines, values: fileValues(context, file) };
    if (ranges === undefined)
      push({ ...top, label: `top:${file}`, fresh: false, values: { ...top.values, "region-top": 1 } });
    else {
      const start = Math.min(...ranges.map(([first]) => first));
      // the page above the first shown line (a function's callers and helpers are often above it)
      if (start > 1)
        push({
          ...top,
          label: `previous:${file}:${start - 1}`,
          first: Math.max(1, start - grammarTuning.topLines),
          last: start - 1,
          fresh: false,
          values: { ...top.values, "region-next": 1 },
        });
      push({
        ...top,
        label: `next:${file}:${end + 1}`,
        first: end + 1,
        last: end + grammarTuning.topLines,
        fresh: false,
        values: { ...top.values, "region-next": 1 },
      });
    }
  }
  targetCache.set(context, targets);
  return targets;
}

/** `show`: which region to print. */
export function showStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const targets = showTargets(context);
  const chosen = walk.take();
  if (chosen === null)
    return ask(
      "show-region",
      targets.map((target) => option(target.label, target.values, context)),
    );
  const target = targets.find((entry) => entry.label === chosen) ?? (targets[0] as ShowTarget);
  return bashAction(
    context.read,
    `Let me look at lines ${target.first}-${target.last} of ${target.file}.`,
    showCommand(target.file, target.first, target.last),
  );
}
