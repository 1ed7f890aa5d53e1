import { viewCache } from "@hs/grammar-kit";
import type { PolicyView } from "@hs/spec";
import { type EditEvidence, editEvidence } from "./edit-evidence.js";
import { featureIndex, featureNames, grammarTuning } from "./features.js";
import { type LineRewrite, lineRewrites } from "./line-rewrites.js";
import { tokenizeLine } from "./python-tokens.js";
import { type ObservedEdit, type ObservedTestRun, type ReadView, readView } from "./read-view.js";
import { statementCharacters } from "./widening-rewrites.js";

/** A shown source line the grammar offers to edit. */
export interface EditLine {
  /** Repository-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  /** Its text as shown. */
  text: string;
  /** Its candidate rewrites. */
  rewrites: readonly LineRewrite[];
}

/** What the decisions of one view are derived from. */
export interface ViewContext {
  /** The view as read. */
  read: ReadView;
  /** The context features, the base of every option's vector. */
  contextVector: number[];
  /** Known Python files that are not tests. */
  sourceFiles: string[];
  /** Known test files. */
  testFiles: string[];
  /** Top-level packages (`X/__init__.py` listed). */
  packages: string[];
  /** Edits applied and not reverted, oldest first. */
  liveEdits: ObservedEdit[];
  /** The latest live edit no test run has followed, if any. */
  pendingEdit: ObservedEdit | null;
  /** The latest test run, if any. */
  lastTest: ObservedTestRun | undefined;
  /** Whether the latest test run came after the latest live edit. */
  testedAfterEdit: boolean;
  /** What the latest test run or traceback after the latest live edit shows (null: none yet). */
  evidence: EditEvidence;
  /** Shown source lines with candidate rewrites, most recently shown first. */
  editLines(): EditLine[];
}

/** Whether a path is a test file (never edited: the instructions say not to modify tests). */
export function isTestFile(file: string): boolean {
  return /(^|\/)(tests?|testing)\//.test(file) || /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/.test(file);
}

function nearbyLines(read: ReadView, file: string, line: number): string[] {
  const lines = read.shown.get(file);
  if (lines === undefined) return [];
  return [...lines.entries()]
    .filter(([number]) => number !== line && Math.abs(number - line) <= grammarTuning.regionRadius)
    .sort((left, right) => Math.abs(left[0] - line) - Math.abs(right[0] - line))
    .map(([, shown]) => shown.text);
}

function computeEditLines(read: ReadView): EditLine[] {
  const candidates: (EditLine & { step: number })[] = [];
  const characters = statementCharacters(read.statement);
  for (const [file, lines] of read.shown) {
    if (isTestFile(file)) continue;
    for (const [line, shown] of lines) {
      const context = {
        nearbyLines: nearbyLines(read, file, line),
        statementNumbers: read.terms.numbers,
        statementCharacters: characters,
      };
      const rewrites = lineRewrites(shown.text, context);
      if (rewrites.length > 0) candidates.push({ file, line, text: shown.text, rewrites, step: shown.step });
    }
  }
  candidates.sort(
    (left, right) => right.step - left.step || left.file.localeCompare(right.file) || left.line - right.line,
  );
  return candidates.slice(0, grammarTuning.maxEditLines).map(({ step: _step, ...entry }) => entry);
}

function contextVector(context: Omit<ViewContext, "contextVector" | "editLines">): number[] {
  const { read } = context;
  const vector = new Array<number>(featureNames.length).fill(0);
  const set = (name: string, value: number) => {
    vector[featureIndex.get(name) as number] = value;
  };
  // the last output the view shows: a call the harness made after the step, else the step's own
  const lastStep = read.steps.at(-1);
  const lastOutput = lastStep?.harness?.at(-1)?.output ?? lastStep?.output ?? "";
  set("steps-taken", Math.min(1, read.steps.length / grammarTuning.stepsCap));
  set("files-known", read.files.length > 0 ? 1 : 0);
  set("searches-made", Math.min(1, read.searched.size / 3));
  set("lines-shown", read.shownRanges.size > 0 ? 1 : 0);
  set("edit-pending", context.pendingEdit === null ? 0 : 1);
  set("tested-after-edit", context.testedAfterEdit ? 1 : 0);
  set("last-test-failed", context.lastTest?.passed === false ? 1 : 0);
  set("last-output-error", /Traceback|Error\b/.test(lastOutput) ? 1 : 0);
  set("format-error", read.formatError ? 1 : 0);
  set("evidence-failing", context.evidence === "failing" ? 1 : 0);
  set("evidence-fixed", context.evidence === "fixed" ? 1 : 0);
  vector[featureNames.length - 1] = 1;
  return vector;
}

/** Python identifiers of a line (for overlap with the statement's words). */
export function lineNames(text: string): string[] {
  return tokenizeLine(text)
    .filter((token) => token.kind === "name" && token.text.length >= 3)
    .map((token) => token.text.toLowerCase());
}

const cache = viewCache<ViewContext>();

/** The context of a view (cached per view object). */
export function viewContext(view: PolicyView): ViewContext {
  return cache(view, () => computeViewContext(view));
}

function computeViewContext(view: PolicyView): ViewContext {
  const read = readView(view);
  const liveEdits = read.edits.filter((edit) => edit.applied && !edit.reverted);
  const lastEdit = liveEdits.at(-1);
  const lastTest = read.tests.at(-1);
  const testedAfterEdit = lastEdit !== undefined && lastTest !== undefined && lastTest.step > lastEdit.step;
  const base = {
    read,
    sourceFiles: read.files.filter((file) => !isTestFile(file)),
    testFiles: read.files.filter((file) => isTestFile(file) && /(^|\/)test_[^/]*\.py$/.test(file)),
    packages: read.files
      .filter((file) => /^[A-Za-z_]\w*\/__init__\.py$/.test(file) && !isTestFile(file))
      .map((file) => file.split("/")[0] as string),
    liveEdits,
    pendingEdit: lastEdit !== undefined && !testedAfterEdit ? lastEdit : null,
    lastTest,
    testedAfterEdit,
    evidence: editEvidence(read, lastEdit),
  };
  let lines: EditLine[] | undefined;
  const context: ViewContext = {
    ...base,
    contextVector: contextVector(base),
    editLines: () => {
      lines ??= computeEditLines(read);
      return lines;
    },
  };
  return context;
}

/** The name a `def`/`class` line defines, or undefined for any other line. */
export function definedName(text: string): string | undefined {
  return /^\s*(?:async\s+)?(?:def|class)\s+(\w+)/.exec(text)?.[1];
}

function indentation(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * Name of the nearest shown `def`/`class` above a shown line that encloses it (by indentation), or of
 * the module-level assignment whose literal holds it; undefined when the lines above are not shown.
 */
export function enclosingDefinition(read: ReadView, file: string, line: number): string | undefined {
  const lines = read.shown.get(file);
  const own = lines?.get(line);
  if (lines === undefined || own === undefined) return undefined;
  let limit = indentation(own.text);
  for (let number = line - 1; number >= 1 && number >= line - 200; number--) {
    const shown = lines.get(number);
    if (shown === undefined) return undefined;
    if (shown.text.trim() === "" || indentation(shown.text) >= limit) continue;
    const name = definedName(shown.text);
    if (name !== undefined) return name;
    limit = indentation(shown.text);
    // a module-level assignment (`UNIT_SECONDS = {`) encloses the lines of its literal
    if (limit === 0) return /^(\w+)\s*(?::[^=]*)?=/.exec(shown.text)?.[1];
  }
  return undefined;
}
