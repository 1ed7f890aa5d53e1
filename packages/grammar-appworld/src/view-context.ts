import { viewCache } from "@hs/grammar-kit";
import type { PolicyView } from "@hs/spec";
import { type CheckReports, checkReports } from "./check-reports.js";
import { type InstructionValue, instructionValues, wordsOf } from "./instruction-values.js";
import { type AppWorldView, readView } from "./read-view.js";

/** The read view plus what the grammar derives from it for every decision. */
export interface ViewContext extends AppWorldView, CheckReports {
  /** Values the instruction states. */
  values: InstructionValue[];
  /** Stems of the instruction's content words. */
  stems: Set<string>;
  /** Whether the instruction asks a question (its answer goes to `complete_task`). */
  question: boolean;
  /** Codes of the earlier cells that ran without failing. */
  ranCodes: Set<string>;
}

const stopWords = new Set(
  "a an the of in on to for from my me i is are and or with as by at be it its all every each any that this which who what when how many much do does have has been not no yes your you get one page".split(
    " ",
  ),
);

/** A crude English stem (plural, past and -ing endings off). */
export function stem(word: string): string {
  return word
    .replace(/(ies)$/, "y")
    .replace(/(ing|ed|es|s)$/, "")
    .replace(/e$/, "");
}

/** Stems of a text's content words (identifiers split at `_`). */
export function stemsOf(text: string): Set<string> {
  return new Set(
    wordsOf(text.replace(/_/g, " "))
      .filter((word) => !stopWords.has(word) && word.length > 1)
      .map(stem),
  );
}

/** Share of a text's stems that the instruction has (0..1). */
export function overlap(context: ViewContext, text: string): number {
  const stems = [...stemsOf(text)];
  if (stems.length === 0) return 0;
  return stems.filter((item) => context.stems.has(item)).length / stems.length;
}

/** How strongly the instruction is about an app: its name and shown description against the instruction. */
export function appRelevance(context: ViewContext, app: string): number {
  const own = context.stems.has(stem(app)) ? 1 : 0;
  const description = context.appDescriptions.get(app) ?? "";
  const hits = [...stemsOf(description)].filter((item) => context.stems.has(item)).length;
  return Math.min(1, own + hits / 2);
}

const cache = viewCache<ViewContext>();

/** Reads the view and derives the grammar's context (once per view object). */
export function viewContext(view: PolicyView): ViewContext {
  return cache(view, () => computeViewContext(view));
}

function computeViewContext(view: PolicyView): ViewContext {
  const read = readView(view);
  return {
    ...read,
    ...checkReports(read.cells),
    values: instructionValues(read.instruction),
    stems: stemsOf(read.instruction),
    question:
      /^(how|what|when|who|which|where|at what|is|are|do|does)\b|\?\s*$|\?\s*answer/i.test(
        read.instruction.trim(),
      ) || /\?/.test(read.instruction.split("\n")[0] ?? ""),
    ranCodes: new Set(
      read.cells.filter((cell) => !cell.failed && cell.code !== null).map((cell) => cell.code as string),
    ),
  };
}
