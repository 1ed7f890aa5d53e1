import type {
  ActionGrammarV1,
  Decision,
  DecisionOption,
  GrammarStep,
  PolicyView,
  ToolCall,
} from "@hs/harness";
import { type ChangeChecks, changeCheckSql, changeChecks } from "./change-check.js";
import {
  type FeatureName,
  featureIndex,
  featureNames,
  featureVector,
  featureVectorOver,
  priorVector,
} from "./features.js";
import { type ViewGuidance, viewGuidance } from "./guidance.js";
import {
  columnRole,
  contentWords,
  entityFit,
  headerKind,
  nearness,
  type QuestionStructure,
  questionStructure,
  type SpanRole,
  setCueCount,
  valueRole,
  valueShape,
} from "./question-structure.js";
import { type ReadView, readView } from "./read-view.js";
import {
  type Alignment,
  alignValues,
  comparisonBefore,
  requestWords,
  summaryWords,
} from "./value-alignment.js";
import { isStopWord, questionValues, tokenize, type ValueCandidate } from "./value-candidates.js";

const kinds = ["explore", "query", "insert", "update", "answer"] as const;
const aggregates = ["none", "COUNT", "SUM", "AVG", "MIN", "MAX"] as const;
const operators = ["=", "<", ">", "<=", ">=", "LIKE", "IN"] as const;
const orders = ["none", "asc", "desc", "asc-number", "desc-number"] as const;
const answerFormats = ["all", "first", "column"] as const;
const maxConditions = 3;
const maxSetColumns = 4;
const maxCells = 200;
const orderFeature = featureIndex.get("option-order") ?? -1;

/** Options of the DBBench grammar. */
export interface DbBenchGrammarOptions {
  /** Longest question span offered as a value, in tokens (default 12). */
  maxSpanTokens?: number;
}

/** Context cues read from the view, shared by every option of a decision. */
interface ViewContext {
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
  /** The read-back of the last UPDATE when a check asks for it and none was run yet (null otherwise). */
  readBackSql: string | null;
}

/** What the grammar derives from the question, table name and headers alone. */
interface QuestionContext {
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
  if (questionCache.size >= 256) questionCache.clear();
  questionCache.set(key, result);
  return result;
}

const cuePatterns: [FeatureName, RegExp][] = [
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

const contextCache = new WeakMap<PolicyView, ViewContext>();

function viewContext(view: PolicyView, maxSpan: number): ViewContext {
  const cached = contextCache.get(view);
  if (cached !== undefined) return cached;
  const read = readView(view);
  const context: Partial<Record<FeatureName, number>> = {};
  for (const [name, pattern] of cuePatterns) context[name] = pattern.test(read.instruction) ? 1 : 0;
  const last = read.actions.at(-1);
  context["actions-taken"] = Math.min(read.actions.length, 10) / 5;
  context["last-error"] = last?.isError === true ? 1 : 0;
  context["last-empty"] = last?.rows?.length === 0 ? 1 : 0;
  context["has-result"] = read.actions.some(
    (action) => action.kind === "select" && !isExplore(action.sql) && (action.rows?.length ?? 0) > 0,
  )
    ? 1
    : 0;
  const changes = changeChecks(read.actions);
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
  context["is-question"] =
    /\?\s*$/.test(read.instruction) ||
    /^(what|which|who|how|when|where|is|are|did|does|name|list|tell|give|find|show|count)\b/i.test(
      read.instruction,
    )
      ? 1
      : 0;
  const question = questionContext(read, maxSpan);
  const guidance = viewGuidance(read);
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
    readBackSql:
      guidance.check?.asksChangeCheck === true && changes.unchecked?.sql != null
        ? changeCheckSql(changes.unchecked.sql)
        : null,
  };
  contextCache.set(view, result);
  return result;
}

function featurePairs(values: Partial<Record<FeatureName, number>>): number[] {
  const pairs: number[] = [];
  for (const [name, value] of Object.entries(values)) {
    const index = featureIndex.get(name);
    if (index !== undefined && value !== undefined) pairs.push(index, value);
  }
  return pairs;
}

function optionOver(
  label: string,
  features: number[],
  values: Partial<Record<FeatureName, number>>,
): DecisionOption {
  for (const name in values) {
    const index = featureIndex.get(name);
    const value = values[name as FeatureName];
    if (index !== undefined && value !== undefined) features[index] = value;
  }
  features[featureNames.length - 1] = 1;
  return { label, features };
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !isStopWord(word));
}

/** Whether SQL only looks at the data (a preview or the distinct values of a column, no filter). */
function isExplore(sql: string | null): boolean {
  return sql !== null && /^\s*select\s+(distinct\b|\*\s+from)/i.test(sql) && !/\bwhere\b/i.test(sql);
}

const numberPattern = /^-?\d[\d,]*(\.\d+)?%?$/;

function columnCells0(read: ReadView, column: string | null): Set<string> | undefined {
  return column === null ? undefined : read.cellsByColumn.get(column);
}

/** Whether the question names the column right after `how many` (`how many floors`). */
function howManyNames(context: ViewContext, column: string): boolean {
  const { tokens, mentions } = context.structure;
  return (mentions.get(column) ?? []).some(
    (mention) =>
      /^many$/i.test(tokens[mention.start - 1]?.text ?? "") &&
      /^how$/i.test(tokens[mention.start - 2]?.text ?? ""),
  );
}

function isNumber(text: string): boolean {
  return numberPattern.test(text.trim());
}

const columnCues: [RegExp, RegExp][] = [
  [
    /\bwho\b|\bwhose\b|\bname\b/i,
    /name|player|driver|person|winner|artist|team|coach|director|candidate|representative|member|athlete|rider|opponent/i,
  ],
  [/\bwhen\b|\bwhat (date|year|time)\b/i, /date|year|time|season|day/i],
  [/\bwhere\b/i, /venue|location|city|country|place|site|stadium|ground|home|away|town/i],
  [/\bhow many\b|\bnumber\b/i, /number|total|count|#|no\b|points|score|goals|wins/i],
];

/** Headers in the WHERE of the last query when it returned nothing, whose values no result has shown. */
function unexploredFailedColumns(read: ReadView): string[] {
  const last = read.actions.at(-1);
  if (last?.sql === null || last?.sql === undefined || last.rows?.length !== 0) return [];
  const sql = last.sql.toLowerCase();
  const where = sql.indexOf(" where ");
  if (where < 0) return [];
  const clause = sql.slice(where);
  return read.headers.filter(
    (header) => clause.includes(quoteIdentifier(header).toLowerCase()) && !read.cellsByColumn.has(header),
  );
}

/**
 * Which role a decision wants its column or value to play: `set` for SET columns and values, `filter`
 * for WHERE and condition slots, `not-filter` for the select column, null where roles do not apply.
 */
function roleSignOf(decision: string): "set" | "filter" | "not-filter" | null {
  if (decision.startsWith("set-")) return "set";
  if (/^(where-|condition-(column|value)|explore-target)/.test(decision)) return "filter";
  return decision === "select-column" ? "not-filter" : null;
}

function roleFit(sign: ReturnType<typeof roleSignOf>, role: () => SpanRole): number {
  if (sign === null) return 0;
  const { set, filter } = role();
  if (sign === "set") return set - filter;
  if (sign === "filter") return filter - set;
  return -filter;
}

/** The decision with guidance features written over its options. */
function guide(
  decision: Decision,
  values: (label: string) => Partial<Record<FeatureName, number>>,
): Decision {
  const options = decision.options.map((entry) => {
    const features = entry.features.slice();
    for (const [name, value] of Object.entries(values(entry.label))) {
      const index = featureIndex.get(name);
      if (index !== undefined && value !== undefined && value !== 0) features[index] = value;
    }
    return { label: entry.label, features };
  });
  return { name: decision.name, options };
}

/** The decision with only the options whose label `keep` accepts. */
function withoutOptions(decision: Decision, keep: (label: string) => boolean): Decision {
  return { name: decision.name, options: decision.options.filter((entry) => keep(entry.label)) };
}

/** The SQL of an explore: a preview of the table (`*`) or the distinct values of one column. */
function exploreSql(table: string, target: string): string {
  return target === "*"
    ? `SELECT * FROM ${quoteIdentifier(table)} LIMIT 50;`
    : `SELECT DISTINCT ${quoteIdentifier(target)} FROM ${quoteIdentifier(table)} LIMIT 100;`;
}

/**
 * The explore targets (`*` or a header) whose reply is still in the view: a repeat would show the same
 * rows again, so the grammar does not offer it.
 */
function shownExplores(read: ReadView): Set<string> {
  const sent = new Set(read.actions.filter((action) => action.result !== null).map((action) => action.sql));
  return new Set(["*", ...read.headers].filter((target) => sent.has(exploreSql(read.table, target))));
}

/** Stateless walk over the chosen labels; each decision reads the labels before it. */
class Walk {
  private position = 0;
  constructor(
    private readonly labels: readonly string[],
    private readonly view: ViewContext,
  ) {}

  /** The next label, or null when the walk reaches the decision to ask for. */
  take(): string | null {
    const label = this.labels[this.position];
    if (label === undefined) return null;
    this.position++;
    return label;
  }

  get ctx(): ViewContext {
    return this.view;
  }
}

function labelValue(label: string): string {
  return label.slice(label.indexOf(":") + 1);
}

/** Renders an identifier for MySQL. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

/** Renders a string literal for MySQL. */
export function quoteString(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

function numericLiteral(value: string): string | null {
  const plain = value.replaceAll(",", "").replace(/%$/, "");
  return /^-?\d+(\.\d+)?$/.test(plain) ? plain : null;
}

interface StaticColumnFeatures {
  /** Feature index, value pairs. */
  pairs: number[];
  nearValue: number;
  afterWh: number;
}

function staticColumnFeatures(context: ViewContext, header: string, index: number): StaticColumnFeatures {
  const cached = context.question.columnFeatures.get(header);
  if (cached !== undefined) return cached;
  const { read, values, questionTokens, structure } = context;
  const question = read.instruction.toLowerCase();
  const headerWords = words(header);
  const overlap =
    headerWords.length === 0
      ? 0
      : headerWords.filter((word) => questionTokens.includes(word)).length / headerWords.length;
  let cue = 0;
  for (const [questionCue, headerCue] of columnCues) {
    if (questionCue.test(read.instruction) && headerCue.test(header)) cue = 1;
  }
  const mentions = structure.mentions.get(header) ?? [];
  let nearValue = 0;
  const headerContent = contentWords(header);
  for (const value of values) {
    if (value.start < 0 || value.source === "list" || (structure.maximal.get(value.text) ?? 0) === 0)
      continue;
    if (contentWords(value.text).some((word) => headerContent.includes(word))) continue;
    const near = nearness(structure, header, value.text);
    nearValue = Math.max(nearValue, near.after, near.before * 0.8);
  }
  const afterWh = mentions.some(
    (mention) =>
      (structure.whIndex >= 0 &&
        mention.start > structure.whIndex &&
        mention.start - structure.whIndex <= 4) ||
      mention.start <= 2,
  )
    ? 1
    : 0;
  const pairs = featurePairs({
    "column-exact": mentions.length > 0 && question.includes(header.toLowerCase()) ? 1 : 0,
    "column-position": read.headers.length <= 1 ? 0 : index / (read.headers.length - 1),
    "column-first": index === 0 ? 1 : 0,
    "column-cue": cue,
    "is-column": 1,
    "column-overlap": mentions.length > 0 ? Math.max(overlap, 0.5) : overlap,
    "column-key": index === 0 && headerKind(header) <= 0 ? 1 : 0,
  });
  const result: StaticColumnFeatures = { pairs, nearValue, afterWh };
  context.question.columnFeatures.set(header, result);
  return result;
}

/**
 * The DBBench action grammar: builds each action as staged decisions derived from the rendered view
 * only (the instruction, the table name and headers as the prompt states them, earlier SQL and the
 * text of its results, error messages, hints). Actions: explore (preview / distinct values of a
 * column), query (select column, aggregate, up to three conditions, ORDER BY ... LIMIT 1), insert
 * (a value per column), update (SET columns and values, WHERE condition), answer (which result, which
 * format). Values come from question spans (and their number and case forms) and seen cells.
 */
export function createDbBenchGrammar(options: DbBenchGrammarOptions = {}): ActionGrammarV1 {
  const maxSpan = options.maxSpanTokens ?? 12;

  const option = (
    label: string,
    values: Partial<Record<FeatureName, number>>,
    context: ViewContext,
  ): DecisionOption => ({
    label,
    features: featureVectorOver(context.contextVector, values),
  });

  const categorical = (
    name: string,
    items: readonly string[],
    context: ViewContext,
    prefix: string,
    fit: (item: string) => number = () => 0,
  ): Decision => ({
    name,
    options: items.map((item, index) =>
      option(
        `${prefix}:${item}`,
        { [`category-${Math.min(index, 7)}` as FeatureName]: 1, "option-fit": fit(item) },
        context,
      ),
    ),
  });

  const columnOptions = (
    name: string,
    context: ViewContext,
    used: readonly string[],
    extra: readonly string[] = [],
  ): Decision => {
    const { read, values } = context;
    const conditionRole = /^(condition-column|set-column|where-column|explore-target)/.test(name);
    const { byHeader, filter } = context.question.alignment;
    // the column the question gives a value, in the part the decision fills: a SET column is not the
    // statement's filter, a WHERE column is
    const givesNewValues = [...byHeader.keys()].some((header) => header !== filter);
    const alignedColumn = (decision: string, header: string): number => {
      // once the question gives some columns their new values, another SET column is an invention
      if (decision.startsWith("set-column") && !byHeader.has(header)) return givesNewValues ? -1 : 0;
      if (!conditionRole || !byHeader.has(header)) return 0;
      if (decision.startsWith("set-column")) return header === filter ? -1 : 1;
      if (decision === "where-column") return filter === null || header === filter ? 1 : 0;
      // before an UPDATE, only the filter column is worth a look
      if (decision === "explore-target" && context.context["cue-update"] === 1)
        return header === filter ? 1 : 0;
      return 1;
    };
    const roleSign = roleSignOf(name);
    const optionsList: DecisionOption[] = read.headers.map((header, index) => {
      const fixed = staticColumnFeatures(context, header, index);
      const cells = read.cellsByColumn.get(header);
      const cellList = cells === undefined ? [] : [...cells];
      const numeric = cellList.length === 0 ? 0.5 : cellList.filter(isNumber).length / cellList.length;
      const lowered = cells === undefined ? null : new Set(cellList.map((cell) => cell.toLowerCase()));
      const seenValues =
        lowered === null
          ? []
          : values.filter((value) => value.source === "span" && lowered.has(value.text.toLowerCase()));
      const quoted = quoteIdentifier(header).toLowerCase();
      const filters = (sql: string) => {
        const where = sql.indexOf(" where ");
        return where >= 0 && sql.slice(where).includes(quoted);
      };
      // a value that matched nothing in the column it was tried on, and is seen in this one, belongs here
      const relocated = seenValues.some((value) => {
        const literal = quoteString(value.text).toLowerCase();
        return context.failedSql.some((sql) => !filters(sql) && sql.includes(literal));
      });
      const valueSeen = seenValues.length === 0 ? 0 : 1;
      // a read-back showing that a change reached no rows is stronger evidence than an empty SELECT
      const failed = context.changes.missedReads.some(filters) ? 2 : context.failedSql.some(filters) ? 1 : 0;
      const role = roleFit(roleSign, () => columnRole(context.structure, header));
      const features = context.contextVector.slice();
      for (let pair = 0; pair < fixed.pairs.length; pair += 2)
        features[fixed.pairs[pair] as number] = fixed.pairs[pair + 1] as number;
      return optionOver(`column:${header}`, features, {
        "column-used": used.includes(header) ? 1 : 0,
        "column-numeric": numeric,
        // a column whose cells hold a value the question names is where the filter goes, not the answer
        "column-value-seen": roleSign === "not-filter" ? -valueSeen : valueSeen,
        "column-holds-failed-value": conditionRole && relocated ? 1 : 0,
        "column-seen": cells === undefined ? 0 : 1,
        "column-near-value": conditionRole ? fixed.nearValue : 0,
        "column-aligned": alignedColumn(name, header),
        "explore-set-column":
          name === "explore-target" &&
          context.context["cue-update"] === 1 &&
          byHeader.has(header) &&
          header !== filter
            ? 1
            : 0,
        "column-after-wh": name === "select-column" ? fixed.afterWh : 0,
        "column-failed": failed,
        "column-role-fit": role,
        "guide-roles": context.guidance.roles ? role : 0,
      });
    });
    extra.forEach((item, index) => {
      optionsList.push(option(`column:${item}`, { [`category-${index}` as FeatureName]: 1 }, context));
    });
    return { name, options: optionsList };
  };

  const valueOptions = (
    name: string,
    context: ViewContext,
    column: string | null,
    used: readonly string[],
    mode: "scalar" | "list" | "with-cells",
    previous?: string | null,
  ): Decision => {
    const { read, values, questionTokens, structure } = context;
    const columnKind = column === null ? 0 : headerKind(column);
    const useCount = new Map<string, number>();
    for (const text of used.map((entry) => entry.toLowerCase()))
      useCount.set(text, (useCount.get(text) ?? 0) + 1);
    // a value the question ties to two columns (`'Champion' to '1 ( 2020 )' and 'Semifinalist' to
    // '1 ( 2020 )'`) may be used twice
    const alignedTexts = [...context.question.alignment.byHeader.values()].map((aligned) => aligned.text);
    const usedUp = (value: ValueCandidate) =>
      (useCount.get(value.text.toLowerCase()) ?? 0) >=
      Math.max(1, alignedTexts.filter((text) => text === value.text).length);
    const cellList = [...(columnCells0(read, column) ?? [])];
    const numericShare = cellList.length < 3 ? -1 : cellList.filter(isNumber).length / cellList.length;
    const shapes = new Set(cellList.map(valueShape));
    const otherHeaderWords = lazy(
      () =>
        new Set(read.headers.filter((header) => header !== column).flatMap((header) => contentWords(header))),
    );
    const previousEnd =
      previous === undefined
        ? undefined
        : previous === null
          ? -1
          : (structure.candidateEnd.get(previous) ?? -1);
    const phraseStarts = values
      .filter((value) => value.start >= 0 && (structure.maximal.get(value.text) ?? 0) === 1)
      .map((value) => value.start);
    const columnCells = column === null ? undefined : read.cellsByColumn.get(column);
    const columnLower = new Set([...(columnCells ?? [])].map((cell) => cell.toLowerCase()));
    const anyLower = new Set([...read.allCells].map((cell) => cell.toLowerCase()));
    const headerWordSet = lazy(() => new Set(read.headers.flatMap(words)));
    const headerPositions = lazy(() => {
      const columnWords = column === null ? [] : words(column);
      const positions: number[] = [];
      questionTokens.forEach((token, index) => {
        if (columnWords.includes(token)) positions.push(index);
      });
      return positions;
    });
    let pool: ValueCandidate[];
    if (mode === "list") {
      pool = values.filter((value) => value.source === "list");
    } else {
      pool = values.filter((value) => value.source !== "list");
      if (mode === "with-cells") {
        const cells = columnCells ?? read.allCells;
        let count = 0;
        const present = new Set(pool.map((value) => value.text));
        for (const cell of cells) {
          if (count >= maxCells) break;
          if (present.has(cell) || cell.length === 0 || cell.length > 120) continue;
          pool.push({ text: cell, length: 0, start: -1, source: "cell" });
          present.add(cell);
          count++;
        }
      }
    }
    if (pool.length === 0) pool = [{ text: "", length: 0, start: -1, source: "quoted" }];
    const total = Math.max(1, questionTokens.length);
    const roleSign = roleSignOf(name);
    const cellInQuestion = (cell: string): number => {
      const cellWords = contentWords(cell);
      if (cellWords.length === 0) return 0;
      return cellWords.filter((word) => context.question.contentWords.has(word)).length / cellWords.length;
    };
    const alignment = context.question.alignment.byHeader;
    const aligned = column === null ? undefined : alignment.get(column)?.text;
    const alignedElsewhere = new Set(
      [...alignment].filter(([header]) => header !== column).map(([, entry]) => entry.text),
    );
    return {
      name,
      options: pool.map((value) => {
        const lower = value.text.toLowerCase();
        const staticKey = `${column ?? "\u0001"}\u0000${value.source}\u0000${value.start}\u0000${value.length}\u0000${value.text}`;
        let fixed = context.question.valueFeatures.get(staticKey);
        if (fixed === undefined) {
          const valueWords = words(value.text);
          const headerOverlap =
            valueWords.length === 0
              ? 0
              : valueWords.filter((word) => headerWordSet().has(word)).length / valueWords.length;
          const positions = headerPositions();
          const afterHeader =
            value.start >= 0 &&
            positions.some((position) => value.start - position >= 1 && value.start - position <= 4)
              ? 1
              : 0;
          const proper = value.text.split(/\s+/).every((word) => /^[\p{Lu}\p{N}]/u.test(word)) ? 1 : 0;
          const near = column === null ? { after: 0, before: 0 } : nearness(structure, column, value.text);
          const valueContent = contentWords(value.text);
          const others = otherHeaderWords();
          const entity = value.start < 0 ? { entity: 0, part: 0 } : entityFit(structure, value.text);
          fixed = featurePairs({
            "value-length": Math.min(value.length, 12) / 12,
            "value-quoted": value.source === "quoted" ? 1 : 0,
            "value-number": isNumber(value.text) ? 1 : 0,
            "value-from-cell": value.source === "cell" ? 1 : 0,
            "value-after-header": afterHeader,
            "value-overlaps-header": headerOverlap,
            "value-case-variant":
              value.source === "case-variant" ? 1 : value.source === "number-form" ? 0.5 : 0,
            "value-position": value.start < 0 ? 0 : value.start / total,
            "value-proper": proper,
            "is-value": 1,
            "value-list": value.source === "list" ? 1 : 0,
            "value-maximal": structure.maximal.get(value.text) ?? 0,
            "value-bounded": structure.bounded.get(value.text) ?? 0,
            "value-near-column": near.after,
            "value-before-column": near.before,
            "value-overlaps-table":
              valueContent.length === 0
                ? 0
                : valueContent.filter((word) => structure.tableWords.has(word)).length / valueContent.length,
            "value-request-words":
              valueWords.length === 0
                ? 0
                : valueWords.filter((word) => requestWords.has(word) || summaryWords.has(word)).length /
                  valueWords.length,
            "value-entity": entity.entity,
            "value-entity-part": entity.part,
            "value-mentions-other-column":
              valueContent.length === 0
                ? 0
                : valueContent.filter((word) => others.has(word)).length / valueContent.length,
          });
          context.question.valueFeatures.set(staticKey, fixed);
        }
        const numeric = isNumber(value.text);
        let typeFit = 0;
        if (numericShare >= 0) {
          if (numericShare > 0.7) typeFit = numeric ? 1 : -1;
          else if (numericShare < 0.3) typeFit = numeric ? -1 : 1;
        } else if (columnKind === 1) typeFit = numeric ? 1 : -0.5;
        else if (columnKind === -1) typeFit = numeric ? -1 : 0.5;
        let inOrder = 0;
        let nextInOrder = 0;
        if (previousEnd !== undefined && value.start >= 0) {
          inOrder = value.start > previousEnd ? 1 : 0;
          if (inOrder === 1) {
            const between = phraseStarts.filter((start) => start > previousEnd && start < value.start).length;
            nextInOrder = 1 / (1 + between);
          }
        }
        const failed =
          value.text.length > 0 &&
          context.failedSql.length > 0 &&
          context.failedSql.some(
            (sql) =>
              sql.includes(quoteString(value.text).toLowerCase()) ||
              sql.includes(quoteString(`%${value.text}%`).toLowerCase()),
          )
            ? 1
            : 0;
        const target = column === null ? "" : quoteIdentifier(column).toLowerCase();
        const conditionFailed =
          failed === 1 &&
          column !== null &&
          context.failedSql.some(
            (sql) =>
              sql.includes(`${target} = ${quoteString(value.text).toLowerCase()}`) ||
              sql.includes(`${target} like ${quoteString(`%${value.text}%`).toLowerCase()}`),
          )
            ? 1
            : 0;
        const role = roleFit(roleSign, () => valueRole(structure, value.text));
        let wholeName = 0;
        if (context.guidance.wholeNames && value.start >= 0) {
          const fit = entityFit(structure, value.text);
          wholeName = fit.entity - fit.part;
        }
        const features = context.contextVector.slice();
        for (let index = 0; index < fixed.length; index += 2)
          features[fixed[index] as number] = fixed[index + 1] as number;
        return optionOver(`value:${value.text}`, features, {
          "value-in-column-cells": columnLower.has(lower) ? 1 : 0,
          "value-in-any-cells": anyLower.has(lower) ? 1 : 0,
          "value-used": usedUp(value) ? 1 : 0,
          "value-in-order": inOrder,
          "value-next-in-order": nextInOrder,
          "value-type-fit": typeFit,
          "value-shape-seen": shapes.size > 0 && shapes.has(valueShape(value.text)) ? 1 : 0,
          // a value that failed on another column but is seen in this one's cells has found its column
          "value-failed": failed === 1 && conditionFailed === 0 && columnLower.has(lower) ? 0 : failed,
          "condition-failed": conditionFailed,
          "value-role-fit": role,
          "value-aligned": aligned === value.text ? 1 : 0,
          "cell-in-question": value.source === "cell" ? cellInQuestion(value.text) : 0,
          "value-aligned-other": aligned !== value.text && alignedElsewhere.has(value.text) ? 1 : 0,
          "guide-roles": context.guidance.roles ? role : 0,
          "guide-whole-names": wholeName,
        });
      }),
    };
  };

  const sqlAction = (read: ReadView, sql: string): GrammarStep => {
    const tool = read.sqlTool;
    const argumentName =
      Object.keys((tool?.parameters.properties as Record<string, unknown> | undefined) ?? {})[0] ?? "sql";
    const toolCalls: ToolCall[] =
      tool === undefined ? [] : [{ id: "call-sql", name: tool.name, arguments: { [argumentName]: sql } }];
    return { done: true, content: `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``, toolCalls };
  };

  const answerAction = (read: ReadView, answers: string[]): GrammarStep => {
    const tool = read.answerTool;
    const properties = (tool?.parameters.properties as Record<string, { type?: unknown }> | undefined) ?? {};
    const argumentName = Object.keys(properties)[0] ?? "answers";
    const isArray = properties[argumentName]?.type === "array";
    const toolCalls: ToolCall[] =
      tool === undefined
        ? []
        : [
            {
              id: "call-answer",
              name: tool.name,
              arguments: { [argumentName]: isArray ? answers : JSON.stringify(answers) },
            },
          ];
    return { done: true, content: `Action: Answer\nFinal Answer: ${JSON.stringify(answers)}`, toolCalls };
  };

  const ask = (decision: Decision): GrammarStep => {
    const last = decision.options.length - 1;
    const options = decision.options.map((entry, index) => {
      const features = entry.features.slice();
      features[orderFeature] = last <= 0 ? 0 : index / last;
      return { label: entry.label, features };
    });
    return { done: false, decision: { name: decision.name, options } };
  };

  const next = (view: PolicyView, chosen: readonly string[]): GrammarStep => {
    const context = viewContext(view, maxSpan);
    const { read } = context;
    const walk = new Walk(chosen, context);
    const table = quoteIdentifier(read.table);
    const kindLabel = walk.take();
    const cue = (name: FeatureName) => context.context[name] ?? 0;
    if (kindLabel === null) {
      const question = cue("is-question") === 1 && cue("cue-insert") === 0 && cue("cue-update") === 0;
      // an UPDATE whose rows are named by a value no column is given for (`the nationality of Ian Thorpe`)
      // looks at the rows first, to see which column holds it
      const updateLooksFirst =
        cue("cue-update") === 1 &&
        cue("cue-insert") === 0 &&
        cue("did-explore") === 0 &&
        cue("did-modify") === 0 &&
        context.question.alignment.filter === null &&
        context.question.alignment.unaligned.length > 0;
      const fits: Record<string, number> = {
        explore:
          (question && cue("did-explore") === 0 && cue("has-result") === 0) || updateLooksFirst ? 1.5 : 0,
        query: question && cue("has-result") === 0 ? 1 : question && cue("last-error") === 1 ? 0.5 : 0,
        // a statement that asks nothing and changes nothing (`The Rangers' home stadium is Ibrox`) records a row
        insert:
          (cue("cue-insert") === 1 || (!question && cue("cue-update") === 0)) && cue("did-modify") === 0
            ? 1
            : 0,
        update: cue("cue-update") === 1 && cue("cue-insert") === 0 && cue("did-modify") === 0 ? 1 : 0,
        answer: (question && cue("has-result") === 1) || cue("did-modify") === 1 ? 1 : 0,
      };
      const advice = context.guidance;
      const explore =
        (advice.previewBeforeFilter &&
          question &&
          cue("did-explore") === 0 &&
          cue("has-result") === 0 &&
          cue("did-modify") === 0) ||
        (advice.lookAfterEmpty && cue("last-empty") === 1 && unexploredFailedColumns(read).length > 0) ||
        advice.previewAfterEmpty;
      const queried = read.actions.some((action) => action.kind === "select" && !action.isError);
      const queryFirst = advice.queryBeforeAnswer && !queried;
      const modifyAnswer = advice.modifyThenEmpty && cue("did-modify") === 1;
      const check = advice.check;
      // a check that asks to read back the rows a change reached, after an UPDATE nothing has read back yet
      const readBack = context.readBackSql !== null;
      const confirm =
        check === null || readBack
          ? null
          : check.againstLastResult
            ? check.matchesLastResult
            : !(check.answer.length === 0 && question && cue("did-modify") === 0);
      const shown = shownExplores(read);
      const canExplore = readBack || ["*", ...read.headers].some((target) => !shown.has(target));
      return ask(
        guide(
          withoutOptions(
            categorical("kind", kinds, context, "kind", (item) => fits[item] ?? 0),
            (label) => canExplore || label !== "kind:explore",
          ),
          (label) => {
            const item = labelValue(label);
            const answer = item === "answer";
            const query = item === "query";
            return {
              "guide-explore": (explore || readBack) && item === "explore" ? 1 : 0,
              "answer-pressure": answer ? Math.min(1, Math.max(0, read.actions.length - 2) / 4) : 0,
              "guide-query-first": queryFirst ? (answer ? -1 : query ? 1 : 0) : 0,
              "guide-modify-answer": modifyAnswer && answer ? 1 : 0,
              "guide-fix-error": advice.fixError ? (answer ? -1 : query ? 1 : 0) : 0,
              "guide-check-confirm": confirm === true && answer ? 1 : 0,
              "guide-check-revise":
                confirm === false ? (answer ? -1 : query ? 1 : 0) : readBack && answer ? -1 : 0,
            };
          },
        ),
      );
    }
    const kind = labelValue(kindLabel);

    if (kind === "explore") {
      const target = walk.take();
      const readBackSql = context.readBackSql;
      if (target === null) {
        // the check asked for reads back the last change
        if (readBackSql !== null)
          return ask({
            name: "explore-target",
            options: [optionOver("change:last", context.contextVector.slice(), { "guide-explore": 1 })],
          });
        const shown = shownExplores(read);
        const decision = withoutOptions(
          columnOptions("explore-target", context, [], ["*"]),
          (label) => !shown.has(labelValue(label)),
        );
        const advice = context.guidance;
        const failed = advice.lookAfterEmpty ? unexploredFailedColumns(read) : [];
        return ask(
          guide(decision, (label) => {
            const column = labelValue(label);
            const index = read.headers.indexOf(column);
            const condition =
              advice.previewBeforeFilter && index >= 0 && !read.cellsByColumn.has(column)
                ? staticColumnFeatures(context, column, index).nearValue
                : 0;
            return {
              // a note that asks for the whole table asks for it instead of any one column
              "guide-explore": advice.previewAfterEmpty
                ? label === "column:*"
                  ? 1
                  : -1
                : Math.max(condition, failed.includes(column) ? 1 : 0),
              "explore-unaligned":
                label === "column:*" && context.question.alignment.unaligned.length > 0 ? 1 : 0,
            };
          }),
        );
      }
      if (target === "change:last" && readBackSql !== null) return sqlAction(read, readBackSql);
      return sqlAction(read, exploreSql(read.table, labelValue(target)));
    }

    if (kind === "query") {
      const selectLabel = walk.take();
      if (selectLabel === null) {
        const countStar = context.guidance.countStar ? cue("cue-count") : 0;
        return ask(
          guide(columnOptions("select-column", context, [], ["*"]), (label) => ({
            "guide-count-star": label === "column:*" ? countStar : 0,
          })),
        );
      }
      const select = labelValue(selectLabel);
      const aggregateLabel = walk.take();
      const allowed = select === "*" ? aggregates.slice(0, 2) : aggregates;
      if (aggregateLabel === null) {
        // `how many floors does X have` asks for the Floors value, not for a count of rows
        const howManyOfValue =
          /\bhow many\b/i.test(read.instruction) && headerKind(select) === 1 && howManyNames(context, select);
        // `the highest number of titles` asks for a value of the titles column, not for a count
        const extremeOfValue =
          !/\bhow many\b|\bcount\b/i.test(read.instruction) &&
          /\b(\w+est|average|mean) number of\b/i.test(read.instruction);
        const counting = howManyOfValue || extremeOfValue ? 0 : cue("cue-count");
        const anyAggregate = Math.max(counting, cue("cue-average"), cue("cue-sum"));
        const fits: Record<string, number> = {
          none: 1 - anyAggregate,
          COUNT: counting,
          // a sum or an average of a name column is not what anyone asks for
          AVG: headerKind(select) === -1 ? 0 : cue("cue-average"),
          SUM: headerKind(select) === -1 ? 0 : cue("cue-sum") * (1 - counting),
          MAX: cue("cue-max") * 0.4,
          MIN: cue("cue-min") * 0.4,
        };
        return ask(categorical("aggregate", allowed, context, "aggregate", (item) => fits[item] ?? 0));
      }
      const aggregate = labelValue(aggregateLabel);
      const conditions: string[] = [];
      const usedColumns = select === "*" ? [] : [select];
      const usedValues: string[] = [];
      for (let index = 0; index < maxConditions; index++) {
        const more = walk.take();
        if (more === null) {
          // a superlative question that names no value (`which player has the most titles?`) needs no filter
          const { byHeader, unaligned } = context.question.alignment;
          const extremeOnly =
            Math.max(cue("cue-max"), cue("cue-min")) === 1 && byHeader.size === 0 && unaligned.length === 0;
          const addFit = index === 0 ? (extremeOnly ? 0.3 : 1) : 0.2;
          const remaining = [...byHeader.keys()].some((header) => !usedColumns.includes(header));
          return ask(
            guide(
              categorical(
                `condition-${index === 0 ? "first" : "more"}`,
                ["stop", "add"],
                context,
                "condition",
                (item) => (item === "add" ? addFit : 1 - addFit),
              ),
              (label) => ({ "conditions-remaining": remaining && label === "condition:add" ? 1 : 0 }),
            ),
          );
        }
        if (labelValue(more) === "stop") break;
        const columnLabel = walk.take();
        if (columnLabel === null) {
          // a second condition on the same column mostly repeats or contradicts the first
          const conditioned = usedColumns.slice(select === "*" ? 0 : 1);
          return ask(
            guide(columnOptions("condition-column", context, usedColumns), (label) => ({
              "column-conditioned": conditioned.includes(labelValue(label)) ? 1 : 0,
            })),
          );
        }
        const column = labelValue(columnLabel);
        const operatorLabel = walk.take();
        const hasLists = context.values.some((value) => value.source === "list");
        const operatorList = hasLists ? operators : operators.slice(0, -1);
        if (operatorLabel === null) {
          const text = read.instruction;
          const aligned = context.question.alignment.byHeader.get(column);
          const stated = aligned === undefined ? undefined : comparisonBefore(context.structure, aligned);
          const fits: Record<string, number> = {
            "=": 1,
            LIKE: 0.2,
            IN: 0.3,
            ">": /more than|greater|over|above|after|larger|higher than|at least/i.test(text) ? 0.8 : 0,
            "<": /less than|fewer|under|below|before|smaller|lower than|at most/i.test(text) ? 0.8 : 0,
          };
          // the value the question ties to this column says which comparison it wants
          if (stated !== undefined) {
            for (const key of ["<", ">", "<=", ">="]) fits[key] = 0;
            if (stated !== null) fits[stated] = 1.5;
          }
          return ask(
            categorical("condition-operator", operatorList, context, "operator", (item) => fits[item] ?? 0),
          );
        }
        const operator = labelValue(operatorLabel);
        const valueLabel = walk.take();
        if (valueLabel === null) {
          return ask(
            valueOptions(
              "condition-value",
              context,
              column,
              usedValues,
              operator === "IN" ? "list" : "with-cells",
            ),
          );
        }
        const value = labelValue(valueLabel);
        usedColumns.push(column);
        usedValues.push(value);
        const target = quoteIdentifier(column);
        if (operator === "IN") {
          const items = value.split(" | ").map(quoteString).join(", ");
          conditions.push(`${target} IN (${items})`);
        } else if (operator === "LIKE") {
          conditions.push(`${target} LIKE ${quoteString(`%${value}%`)}`);
        } else if (operator === "=") {
          conditions.push(`${target} = ${quoteString(value)}`);
        } else {
          conditions.push(`${target} ${operator} ${numericLiteral(value) ?? quoteString(value)}`);
        }
      }
      const orderLabel = walk.take();
      if (orderLabel === null) {
        const extreme = Math.max(cue("cue-max"), cue("cue-min"));
        const fits: Record<string, number> = {
          none: 1 - extreme,
          desc: cue("cue-max") * 0.6,
          asc: cue("cue-min") * 0.6,
          "desc-number": cue("cue-max") * 0.8,
          "asc-number": cue("cue-min") * 0.8,
        };
        return ask(categorical("order", orders, context, "order", (item) => fits[item] ?? 0));
      }
      const order = labelValue(orderLabel);
      let orderClause = "";
      if (order !== "none") {
        const orderColumnLabel = walk.take();
        if (orderColumnLabel === null) return ask(columnOptions("order-column", context, usedColumns));
        const orderColumn = quoteIdentifier(labelValue(orderColumnLabel));
        const key = order.endsWith("number") ? `${orderColumn} + 0` : orderColumn;
        orderClause = ` ORDER BY ${key} ${order.startsWith("asc") ? "ASC" : "DESC"} LIMIT 1`;
      }
      const target = select === "*" ? "*" : quoteIdentifier(select);
      const projection = aggregate === "none" ? target : `${aggregate}(${target})`;
      const where = conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
      return sqlAction(read, `SELECT ${projection} FROM ${table}${where}${orderClause};`);
    }

    if (kind === "insert") {
      const insertValues: string[] = [];
      for (const header of read.headers) {
        const label = walk.take();
        if (label === null)
          return ask(
            valueOptions(
              "insert-value",
              context,
              header,
              insertValues,
              "scalar",
              insertValues.at(-1) ?? null,
            ),
          );
        insertValues.push(labelValue(label));
      }
      const columns = read.headers.map(quoteIdentifier).join(", ");
      return sqlAction(
        read,
        `INSERT INTO ${table} (${columns}) VALUES (${insertValues.map(quoteString).join(", ")});`,
      );
    }

    if (kind === "update") {
      const assignments: string[] = [];
      const setColumns: string[] = [];
      const usedValues: string[] = [];
      for (;;) {
        const columnLabel = walk.take();
        if (columnLabel === null) {
          const remaining = read.headers.filter((header) => !setColumns.includes(header));
          const decision = columnOptions("set-column", context, setColumns);
          const options = decision.options.filter((entry) => remaining.includes(labelValue(entry.label)));
          if (setColumns.length > 0) {
            const expected = Math.max(
              1,
              setCueCount(context.structure),
              context.question.alignment.byHeader.size - 1,
            );
            const complete = setColumns.length >= expected ? 1 : 0;
            options.push(
              option(
                "column:(where)",
                { "category-0": 1, "option-fit": 1, "set-complete": complete },
                context,
              ),
            );
          }
          return ask({ name: setColumns.length === 0 ? "set-column-first" : "set-column", options });
        }
        const column = labelValue(columnLabel);
        if (column === "(where)") break;
        const valueLabel = walk.take();
        if (valueLabel === null) return ask(valueOptions("set-value", context, column, usedValues, "scalar"));
        const value = labelValue(valueLabel);
        setColumns.push(column);
        usedValues.push(value);
        assignments.push(`${quoteIdentifier(column)} = ${quoteString(value)}`);
        if (setColumns.length >= maxSetColumns || setColumns.length >= read.headers.length) break;
      }
      const whereLabel = walk.take();
      if (whereLabel === null) {
        // a filter on a column the statement sets is rare; the WHERE column is one it does not set
        const decision = columnOptions("where-column", context, setColumns);
        const unset = decision.options.filter((entry) => !setColumns.includes(labelValue(entry.label)));
        return ask(unset.length === 0 ? decision : { name: decision.name, options: unset });
      }
      const whereColumn = labelValue(whereLabel);
      const whereValueLabel = walk.take();
      if (whereValueLabel === null)
        return ask(valueOptions("where-value", context, whereColumn, usedValues, "with-cells"));
      const whereValue = labelValue(whereValueLabel);
      return sqlAction(
        read,
        `UPDATE ${table} SET ${assignments.join(", ")} WHERE ${quoteIdentifier(whereColumn)} = ${quoteString(whereValue)};`,
      );
    }

    // answer
    const results = read.actions
      .map((action, index) => ({ action, index }))
      .filter(({ action }) => action.kind === "select" && action.rows !== null && action.rows.length > 0)
      .reverse();
    // a preview or a column's distinct values answers only when nothing else has rows
    const queried = results.some(({ action }) => !isExplore(action.sql));
    const sourceLabel = walk.take();
    if (sourceLabel === null) {
      const sourceOptions = results.map(({ action, index }, rank) => {
        const rows = action.rows ?? [];
        return option(
          `result:${index}`,
          {
            "result-recency": 1 / (rank + 1),
            "result-rows": Math.min(rows.length, 20) / 20,
            "result-single-cell": rows.length === 1 && rows[0]?.length === 1 ? 1 : 0,
            "result-aggregate": /^\s*select\s+(count|sum|avg|min|max)\s*\(/i.test(action.sql ?? "") ? 1 : 0,
            "column-seen": action.columns === null ? 0 : 1,
            "result-is-preview": queried && isExplore(action.sql) ? 1 : 0,
          },
          context,
        );
      });
      sourceOptions.push(
        option("result:none", { "category-0": 1, "option-fit": cue("did-modify") }, context),
      );
      const advice = context.guidance;
      const latest = results[0] === undefined ? null : `result:${results[0].index}`;
      const revise = advice.check?.againstLastResult === true && !advice.check.matchesLastResult;
      return ask(
        guide({ name: "answer-source", options: sourceOptions }, (label) => ({
          "guide-modify-answer":
            advice.modifyThenEmpty && cue("did-modify") === 1 && label === "result:none" ? 1 : 0,
          "guide-check-revise": revise && label === latest ? 1 : 0,
        })),
      );
    }
    const source = labelValue(sourceLabel);
    if (source === "none") return answerAction(read, []);
    const rows = read.actions[Number(source)]?.rows ?? [];
    const formatLabel = walk.take();
    if (formatLabel === null) {
      return ask(
        guide(
          categorical("answer-format", answerFormats, context, "format", (item) =>
            item === "all" ? 1 : 0.3,
          ),
          (label) => ({
            "guide-as-returned": context.guidance.answerAsReturned && label === "format:all" ? 1 : 0,
          }),
        ),
      );
    }
    const format = labelValue(formatLabel);
    const answers =
      format === "first"
        ? [rows[0]?.[0] ?? ""]
        : format === "column"
          ? rows.map((row) => row[0] ?? "")
          : rows.flat();
    return answerAction(read, answers);
  };

  return {
    specificationVersion: "v1",
    featureCount: featureNames.length,
    featureNames,
    prior: priorVector(),
    next,
  };
}
