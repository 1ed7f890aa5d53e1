import { viewCache } from "@hs/grammar-kit";
import type { PolicyView } from "@hs/spec";
import { type ChangeChecks, changeCheckSql, changeChecks } from "./change-check.js";
import { type FeatureName, featureVector, grammarTuning } from "./features.js";
import { type ViewGuidance, viewGuidance } from "./guidance.js";
import { contentWords, type QuestionStructure, questionStructure } from "./question-structure.js";
import { type ReadView, readView } from "./read-view.js";
import { isExplore } from "./sql-text.js";
import { type Alignment, alignValues } from "./value-alignment.js";
import { questionValues, tokenize, type ValueCandidate } from "./value-candidates.js";

/** Column-option features that do not depend on results. */
export interface StaticColumnFeatures {
  /** Feature index, value pairs. */
  pairs: number[];
  nearValue: number;
  afterWh: number;
}

/** What the grammar derives from the question, table name and headers alone. */
export interface QuestionContext {
  values: ValueCandidate[];
  questionTokens: string[];
  structure: QuestionStructure;
  /** Column-option features that do not depend on results, by header. */
  columnFeatures: Map<string, StaticColumnFeatures>;
  /** Value-option features that do not depend on results, by column and value text (feature index, value pairs). */
  valueFeatures: Map<string, number[]>;
  /** The question's values assigned to the headers it ties them to. */
  alignment: Alignment;
  /** Content words of the question (for cells the question names). */
  contentWords: Set<string>;
}

/** Context cues read from the view, shared by every option of a decision. */
export interface ViewContext {
  read: ReadView;
  values: ValueCandidate[];
  questionTokens: string[];
  structure: QuestionStructure;
  /** Lower-cased SQL of earlier queries that returned nothing or failed. */
  failedSql: string[];
  context: Partial<Record<FeatureName, number>>;
  /** `context` as a full feature vector (the start of every option's vector). */
  contextVector: number[];
  /** Work that depends only on the question, table name and headers (shared by the steps of an episode). */
  question: QuestionContext;
  /** Advice the view gives (hints, error suffixes, a check). */
  guidance: ViewGuidance;
  /** Which UPDATEs were read back afterwards, and which of those reached no rows. */
  changes: ChangeChecks;
  /**
   * The read-back of the last UPDATE when none was run yet, whatever the harness (null otherwise): the
   * base harness offers it as much as a check does, so reading back is the policy's own decision.
   */
  pendingReadBack: string | null;
  /** `pendingReadBack` when a check asks for it (null otherwise). */
  readBackSql: string | null;
}

/** Cue features of the instruction, each a pattern over its words. */
export const cuePatterns: [FeatureName, RegExp][] = [
  [
    "cue-insert",
    /\b(insert\w*|add|added|adding|record|recorded|register\w*|enter|entered|new (entry|record|row))\b/i,
  ],
  ["cue-update", /\b(update\w*|change\w*|set|modif\w*|correct\w*|alter\w*|replace\w*)\b/i],
  ["cue-count", /\b(how many|number of|count)\b/i],
  ["cue-average", /\b(average|mean)\b/i],
  ["cue-sum", /\b(total|sum|combined|altogether|in all)\b/i],
  ["cue-max", /\b(highest|most|maximum|largest|greatest|biggest|top|latest|newest|max|best|longest|last)\b/i],
  ["cue-min", /\b(lowest|least|minimum|smallest|fewest|earliest|oldest|min|worst|shortest|first)\b/i],
  ["cue-compare", /\b(more|less|than|compare|higher|lower|before|after|or)\b/i],
];

const questionCache = new Map<string, QuestionContext>();

function questionContext(read: ReadView, maxSpan: number): QuestionContext {
  const key = [maxSpan, read.instruction, read.table, ...read.headers].join("\u0000");
  const cached = questionCache.get(key);
  if (cached !== undefined) return cached;
  const values = questionValues(read.instruction, maxSpan);
  const structure = questionStructure(read, values);
  const insert = cuePatterns.find(([name]) => name === "cue-insert")?.[1].test(read.instruction) === true;
  const result: QuestionContext = {
    values,
    questionTokens: tokenize(read.instruction).map((token) => token.text.toLowerCase()),
    structure,
    columnFeatures: new Map(),
    valueFeatures: new Map(),
    alignment: alignValues(structure, read.headers, values, insert),
    contentWords: new Set(contentWords(read.instruction)),
  };
  if (questionCache.size >= grammarTuning.questionCacheSize) questionCache.clear();
  questionCache.set(key, result);
  return result;
}

/** Whether the instruction reads as a question (a `?` at the end or a question word first). */
function isQuestion(instruction: string): boolean {
  return (
    /\?\s*$/.test(instruction) ||
    /^(what|which|who|how|when|where|is|are|did|does|name|list|tell|give|find|show|count)\b/i.test(
      instruction,
    )
  );
}

/** The view-level features: cues of the instruction and what the earlier actions did. */
function contextFeatures(read: ReadView, changes: ChangeChecks): Partial<Record<FeatureName, number>> {
  const context: Partial<Record<FeatureName, number>> = {};
  for (const [name, pattern] of cuePatterns) context[name] = pattern.test(read.instruction) ? 1 : 0;
  const last = read.actions.at(-1);
  context["actions-taken"] = Math.min(read.actions.length, grammarTuning.actionsTakenCap) / 5;
  context["last-error"] = last?.isError === true ? 1 : 0;
  context["last-empty"] = last?.rows?.length === 0 ? 1 : 0;
  context["has-result"] = read.actions.some(
    (action) => action.kind === "select" && !isExplore(action.sql) && (action.rows?.length ?? 0) > 0,
  )
    ? 1
    : 0;
  // an UPDATE whose read-back returned no rows changed nothing
  context["did-modify"] = read.actions.some(
    (action) =>
      (action.kind === "insert" || action.kind === "update") &&
      !action.isError &&
      !changes.missed.has(action),
  )
    ? 1
    : 0;
  context["did-explore"] = read.actions.some((action) => action.columns !== null) ? 1 : 0;
  context["guidance-explore"] = /distinct|preview|look at the (data|values|rows)|explore/.test(read.guidance)
    ? 1
    : 0;
  context["is-question"] = isQuestion(read.instruction) ? 1 : 0;
  return context;
}

const contextCache = viewCache<ViewContext>();

/** Everything the decisions of one view read, computed once per view. */
export function viewContext(view: PolicyView, maxSpan: number): ViewContext {
  return contextCache(view, () => computeViewContext(view, maxSpan));
}

function computeViewContext(view: PolicyView, maxSpan: number): ViewContext {
  const read = readView(view);
  const changes = changeChecks(read.actions);
  const context = contextFeatures(read, changes);
  const question = questionContext(read, maxSpan);
  const guidance = viewGuidance(read);
  const pendingReadBack = changes.unchecked?.sql != null ? changeCheckSql(changes.unchecked.sql) : null;
  const result: ViewContext = {
    read,
    values: question.values,
    questionTokens: question.questionTokens,
    structure: question.structure,
    question,
    // the `[]` after an INSERT or UPDATE is AgentBench's reply to any change, not an empty result
    failedSql: read.actions
      .filter(
        (action) =>
          action.sql !== null && (action.isError || (action.kind === "select" && action.rows?.length === 0)),
      )
      .map((action) => (action.sql ?? "").toLowerCase()),
    context,
    contextVector: featureVector(context),
    guidance,
    changes,
    pendingReadBack,
    readBackSql: guidance.check?.asksChangeCheck === true ? pendingReadBack : null,
  };
  return result;
}

/** A view-level feature's value (0 when unset). */
export function cue(context: ViewContext, name: FeatureName): number {
  return context.context[name] ?? 0;
}
