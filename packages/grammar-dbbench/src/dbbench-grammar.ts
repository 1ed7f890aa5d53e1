import { byKind, type KindStep, stagedGrammar } from "@hs/grammar-kit";
import type { ActionGrammarV1 } from "@hs/spec";
import { answerStep } from "./answer-step.js";
import { dbBenchCallLabels } from "./call-labels.js";
import { exploreStep } from "./explore-step.js";
import { featureNames, grammarTuning, priorVector } from "./features.js";
import { insertStep } from "./insert-step.js";
import { kindStep } from "./kind-step.js";
import { queryStep } from "./query-step.js";
import { updateStep } from "./update-step.js";
import { type ViewContext, viewContext } from "./view-context.js";

export { quoteIdentifier, quoteString } from "./sql-text.js";

/** Options of the DBBench grammar. */
export interface DbBenchGrammarOptions {
  /** Longest question span offered as a value, in tokens (default `grammarTuning.maxSpanTokens`, 12). */
  maxSpanTokens?: number;
}

const steps: Record<string, KindStep<ViewContext>> = {
  explore: exploreStep,
  query: queryStep,
  insert: insertStep,
  update: updateStep,
  answer: answerStep,
};

/**
 * The DBBench action grammar: builds each action as staged decisions derived from the rendered view
 * only (the instruction, the table name and headers as the prompt states them, earlier SQL and the
 * text of its results, error messages, hints). Actions: explore (preview / distinct values of a
 * column), query (select column, aggregate, up to three conditions, ORDER BY ... LIMIT 1), insert
 * (a value per column), update (SET columns and values, WHERE condition), answer (which result, which
 * format). Values come from question spans (and their number and case forms) and seen cells. Each
 * action kind's decisions are in its own `*-step.ts`. A harness call's SQL is read as the explore it
 * stands for (`decisionsFor`, `call-labels.ts`).
 */
export function createDbBenchGrammar(options: DbBenchGrammarOptions = {}): ActionGrammarV1 {
  const maxSpan = options.maxSpanTokens ?? grammarTuning.maxSpanTokens;
  return stagedGrammar({
    featureNames,
    prior: priorVector(),
    context: (view) => viewContext(view, maxSpan),
    build: byKind(kindStep, steps, answerStep),
    labelsForCall: dbBenchCallLabels,
  });
}
