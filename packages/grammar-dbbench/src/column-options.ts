import type { Decision, DecisionOption } from "@hs/spec";
import {
  featurePairs,
  isNumber,
  option,
  optionOver,
  type RoleSign,
  roleFit,
  roleSignOf,
  words,
} from "./decision-options.js";
import { type FeatureName, grammarTuning } from "./features.js";
import { columnRole, contentWords, headerKind, nearness } from "./question-structure.js";
import { quoteIdentifier, quoteString } from "./sql-text.js";
import type { StaticColumnFeatures, ViewContext } from "./view-context.js";

const columnCues: [RegExp, RegExp][] = [
  [
    /\bwho\b|\bwhose\b|\bname\b/i,
    /name|player|driver|person|winner|artist|team|coach|director|candidate|representative|member|athlete|rider|opponent/i,
  ],
  [/\bwhen\b|\bwhat (date|year|time)\b/i, /date|year|time|season|day/i],
  [/\bwhere\b/i, /venue|location|city|country|place|site|stadium|ground|home|away|town/i],
  [/\bhow many\b|\bnumber\b/i, /number|total|count|#|no\b|points|score|goals|wins/i],
];

/** How closely a question value stands next to a mention of the header (the best over the values). */
function nearValueOf(context: ViewContext, header: string): number {
  const { values, structure } = context;
  let nearValue = 0;
  const headerContent = contentWords(header);
  for (const value of values) {
    if (value.start < 0 || value.source === "list" || (structure.maximal.get(value.text) ?? 0) === 0)
      continue;
    if (contentWords(value.text).some((word) => headerContent.includes(word))) continue;
    const near = nearness(structure, header, value.text);
    nearValue = Math.max(nearValue, near.after, near.before * grammarTuning.valueBeforeColumn);
  }
  return nearValue;
}

/** Column features that depend only on the question and headers (cached per question). */
export function staticColumnFeatures(
  context: ViewContext,
  header: string,
  index: number,
): StaticColumnFeatures {
  const cached = context.question.columnFeatures.get(header);
  if (cached !== undefined) return cached;
  const { read, questionTokens, structure } = context;
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
  const nearValue = nearValueOf(context, header);
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
    "column-overlap": mentions.length > 0 ? Math.max(overlap, grammarTuning.mentionedColumnOverlap) : overlap,
    "column-key": index === 0 && headerKind(header) <= 0 ? 1 : 0,
  });
  const result: StaticColumnFeatures = { pairs, nearValue, afterWh };
  context.question.columnFeatures.set(header, result);
  return result;
}

/** Whether the question ties a value to the header in the part the decision fills (1, 0 or -1). */
function alignedColumn(context: ViewContext, decision: string, header: string): number {
  const conditionRole = /^(condition-column|set-column|where-column|explore-target)/.test(decision);
  const { byHeader, filter } = context.question.alignment;
  // the column the question gives a value, in the part the decision fills: a SET column is not the
  // statement's filter, a WHERE column is
  const givesNewValues = [...byHeader.keys()].some((header) => header !== filter);
  // once the question gives some columns their new values, another SET column is an invention
  if (decision.startsWith("set-column") && !byHeader.has(header)) return givesNewValues ? -1 : 0;
  if (!conditionRole || !byHeader.has(header)) return 0;
  if (decision.startsWith("set-column")) return header === filter ? -1 : 1;
  if (decision === "where-column") return filter === null || header === filter ? 1 : 0;
  // before an UPDATE, only the filter column is worth a look
  if (decision === "explore-target" && context.context["cue-update"] === 1) return header === filter ? 1 : 0;
  return 1;
}

/** What earlier results and failures say about a header: seen values, failed filters, relocated values. */
function columnEvidence(context: ViewContext, header: string) {
  const { read, values } = context;
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
  // a read-back showing that a change reached no rows is stronger evidence than an empty SELECT
  const failed = context.changes.missedReads.some(filters) ? 2 : context.failedSql.some(filters) ? 1 : 0;
  return {
    seen: cells !== undefined,
    numeric,
    valueSeen: seenValues.length === 0 ? 0 : 1,
    relocated,
    failed,
  };
}

function columnOption(
  context: ViewContext,
  name: string,
  used: readonly string[],
  header: string,
  index: number,
): DecisionOption {
  const conditionRole = /^(condition-column|set-column|where-column|explore-target)/.test(name);
  const { byHeader, filter } = context.question.alignment;
  const roleSign: RoleSign = roleSignOf(name);
  const fixed = staticColumnFeatures(context, header, index);
  const evidence = columnEvidence(context, header);
  const role = roleFit(roleSign, () => columnRole(context.structure, header));
  const features = context.contextVector.slice();
  for (let pair = 0; pair < fixed.pairs.length; pair += 2)
    features[fixed.pairs[pair] as number] = fixed.pairs[pair + 1] as number;
  return optionOver(`column:${header}`, features, {
    "column-used": used.includes(header) ? 1 : 0,
    "column-numeric": evidence.numeric,
    // a column whose cells hold a value the question names is where the filter goes, not the answer
    "column-value-seen": roleSign === "not-filter" ? -evidence.valueSeen : evidence.valueSeen,
    "column-holds-failed-value": conditionRole && evidence.relocated ? 1 : 0,
    "column-seen": evidence.seen ? 1 : 0,
    "column-near-value": conditionRole ? fixed.nearValue : 0,
    "column-aligned": alignedColumn(context, name, header),
    "explore-set-column":
      name === "explore-target" &&
      context.context["cue-update"] === 1 &&
      byHeader.has(header) &&
      header !== filter
        ? 1
        : 0,
    "column-after-wh": name === "select-column" ? fixed.afterWh : 0,
    "column-failed": evidence.failed,
    "column-role-fit": role,
    "guide-roles": context.guidance.roles ? role : 0,
  });
}

/** A decision over the headers (and `extra` items such as `*`), each with its column features. */
export function columnOptions(
  name: string,
  context: ViewContext,
  used: readonly string[],
  extra: readonly string[] = [],
): Decision {
  const optionsList = context.read.headers.map((header, index) =>
    columnOption(context, name, used, header, index),
  );
  extra.forEach((item, index) => {
    optionsList.push(option(`column:${item}`, { [`category-${index}` as FeatureName]: 1 }, context));
  });
  return { name, options: optionsList };
}
