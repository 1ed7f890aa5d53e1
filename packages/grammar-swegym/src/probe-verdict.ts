import { rewriteKey } from "./commands.js";
import { refutedRewrite } from "./edit-evidence.js";
import type { ObservedProbe, ReadView } from "./read-view.js";
import { normalizedValue } from "./statement-terms.js";

/** What a probe shows of one rewrite, against the original line's results. */
export interface ProbeVerdict {
  /** Some expression now gives a value the statement writes that the original did not give. */
  matched: boolean;
  /**
   * Some expression raised with the original line and gives a value with the rewrite, one the statement
   * does not contradict (`contradictedNumber`).
   */
  fixedError: boolean;
  /** Some expression gave a value with the original line and raises with the rewrite. */
  broke: boolean;
  /** Every expression gives what it gave with the original line. */
  same: boolean;
}

const raisedPrefix = "raised ";
const valuePrefix = "=> ";

function raised(result: string): boolean {
  return result.startsWith(raisedPrefix);
}

function errorName(result: string): string | undefined {
  return raised(result) ? /^raised (\w+)/.exec(result)?.[1] : undefined;
}

function resultValue(result: string): string {
  return normalizedValue(result.startsWith(valuePrefix) ? result.slice(valuePrefix.length) : result);
}

/** Statement values long enough to be looked for inside an output (`['c', '']`, `@@ -2,0 +3 @@`). */
function containedValues(read: ReadView): string[] {
  return [...read.terms.values].filter((value) => value.length >= 5);
}

/** Whether `result` shows something of the statement that `before` did not. */
function showsStatementValue(read: ReadView, result: string, before: string): boolean {
  const name = errorName(result);
  if (name !== undefined)
    return (
      name !== errorName(before) && (read.terms.values.has(name) || read.terms.identifiers.includes(name))
    );
  const value = resultValue(result);
  if (raised(before) ? false : value === resultValue(before)) return false;
  if (read.terms.values.has(value)) return true;
  const previous = raised(before) ? "" : resultValue(before);
  return containedValues(read).some((entry) => value.includes(entry) && !previous.includes(entry));
}

/**
 * Whether a value is a number the statement rules out: it writes numbers, and not this one (`2 ^ 3 ^ 2`
 * giving 8 where the issue says it should be 512).
 */
function contradictedNumber(read: ReadView, result: string): boolean {
  const value = resultValue(result);
  if (!/^-?\d+(\.\d+)?$/.test(value) || read.terms.numbers.length === 0) return false;
  return (
    !read.terms.values.has(value) && !read.terms.numbers.some((number) => normalizedValue(number) === value)
  );
}

const verdicts = new WeakMap<ObservedProbe, Map<string, ProbeVerdict | undefined>>();

/** The verdict of one rewrite (its text or `rewriteKey`) of a probed line; undefined when it was not probed. */
export function probeVerdict(read: ReadView, probe: ObservedProbe, text: string): ProbeVerdict | undefined {
  const known = verdicts.get(probe) ?? new Map<string, ProbeVerdict | undefined>();
  verdicts.set(probe, known);
  const key = rewriteKey(text);
  if (!known.has(key)) known.set(key, computeVerdict(read, probe, key));
  return known.get(key);
}

function computeVerdict(read: ReadView, probe: ObservedProbe, text: string): ProbeVerdict | undefined {
  const found = probe.rewrites.get(text);
  if (found === undefined) return undefined;
  const pairs = probe.original.map((before, index) => [before, found[index] ?? before] as const);
  return {
    matched: pairs.some(([before, after]) => showsStatementValue(read, after, before)),
    fixedError: pairs.some(
      ([before, after]) => raised(before) && !raised(after) && !contradictedNumber(read, after),
    ),
    broke: pairs.some(([before, after]) => !raised(before) && raised(after)),
    same: pairs.every(([before, after]) => before === after),
  };
}

/** Whether a verdict is worth an edit: it shows a statement value or cures an error, and breaks nothing. */
export function promising(verdict: ProbeVerdict | undefined): boolean {
  return verdict !== undefined && (verdict.matched || verdict.fixedError) && !verdict.broke;
}

const promisingByRead = new WeakMap<ReadView, [ObservedProbe, string][]>();

/** The promising rewrites a probe found (less those an edit tried and reverted), as `[probe, stripped text]` (kept per read view). */
export function promisingRewrites(read: ReadView): [ObservedProbe, string][] {
  const cached = promisingByRead.get(read);
  if (cached !== undefined) return cached;
  const found: [ObservedProbe, string][] = [];
  for (const probe of read.probes.values())
    for (const text of probe.rewrites.keys())
      if (promising(probeVerdict(read, probe, text)) && !refutedRewrite(read, probe.file, probe.line, text))
        found.push([probe, text]);
  promisingByRead.set(read, found);
  return found;
}

/**
 * Whether no rewrite of a probed line gave an expression a value other than the original's (each kept
 * the original's results or raised): the calls' values do not come from that line (with one
 * expression, the probe outputs `fruitlessProbePattern` of `@hs/benchmarks-swegym` matches).
 */
export function fruitlessProbe(probe: ObservedProbe): boolean {
  for (const results of probe.rewrites.values())
    if (results.some((after, index) => after !== probe.original[index] && !raised(after))) return false;
  return true;
}
