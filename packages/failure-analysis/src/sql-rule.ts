import type { FailureConventions, FailureLabel, ModeRule, ObservedTrajectory } from "@hs/spec";
import { ruleLabel } from "./rule-label.js";
import { readSqlStatement, resultCells, type SqlStatement } from "./sql-statements.js";
import { instructionOf } from "./summarize-trajectory.js";
import { type CallFact, callText, excerpt, matches, patternOf, submitCallOf } from "./trajectory-facts.js";

type SqlRule = Extract<ModeRule, { kind: "sql" }>;

interface SqlContext {
  rule: SqlRule;
  instruction: string;
  headers: string[];
  statements: { fact: CallFact; statement: SqlStatement }[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether `text` holds `phrase` as whole words (case ignored). */
function holdsWords(text: string, phrase: string): boolean {
  if (phrase.trim() === "") return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase.trim())}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

function quotedValues(instruction: string): string[] {
  return [...instruction.matchAll(/(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])|"([^"]+)"|`([^`]+)`/gu)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
}

const normalised = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Headers that sit right before or after an occurrence of `value`, skipping link words. */
function adjacentHeaders(context: SqlContext, value: string): Set<string> {
  const found = new Set<string>();
  if (value.trim() === "") return found;
  const link = context.rule.linkWords.map(escapeRegExp).join("|");
  const skip = `(?:[\\s\\p{P}\\p{S}]|\\b(?:${link})\\b)*`;
  const occurrence = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(value)}(?![\\p{L}\\p{N}])`, "giu");
  for (const match of context.instruction.matchAll(occurrence)) {
    const before = context.instruction.slice(0, match.index);
    const after = context.instruction.slice((match.index ?? 0) + match[0].length);
    const headers = [...context.headers].sort((a, b) => b.length - a.length);
    const beforeHit = headers.find((header) =>
      new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(header)}${skip}$`, "iu").test(before),
    );
    const afterHit = headers.find((header) =>
      new RegExp(`^${skip}${escapeRegExp(header)}(?![\\p{L}\\p{N}])`, "iu").test(after),
    );
    if (beforeHit !== undefined) found.add(beforeHit.toLowerCase());
    if (afterHit !== undefined) found.add(afterHit.toLowerCase());
  }
  return found;
}

function changeOf(context: SqlContext) {
  return context.statements.find(({ statement }) => ["insert", "update", "delete"].includes(statement.kind));
}

function wrongStatement(context: SqlContext): FailureLabel | undefined {
  const change = changeOf(context);
  if (change === undefined) return undefined;
  const question = patternOf(context.rule.questionPattern).test(context.instruction.trim());
  const update = patternOf(context.rule.updatePattern).test(context.instruction);
  if (!question && !(update && change.statement.kind === "insert")) return undefined;
  const asked = question ? "a question" : "a change of existing rows";
  return ruleLabel(
    context.rule.modes.wrongStatement,
    `the instruction asks ${asked}; step ${change.fact.step} ran ${change.statement.kind.toUpperCase()}`,
    change.fact.step,
  );
}

function writtenFragment(context: SqlContext): FailureLabel | undefined {
  const quoted = quotedValues(context.instruction);
  for (const { fact, statement } of context.statements) {
    for (const write of statement.writes) {
      const value = write.value;
      if (value === "" || quoted.includes(value)) continue;
      const whole = quoted.find((entry) => entry.includes(value));
      if (whole === undefined) continue;
      return ruleLabel(
        context.rule.modes.valueMismatch,
        `step ${fact.step} wrote ${write.column} = '${excerpt(value, 60)}', a part of the quoted '${excerpt(whole, 80)}'`,
        fact.step,
      );
    }
  }
  return undefined;
}

/** The last query before the answer, the cells listed earlier per column, and whether it found nothing. */
function lastQuery(context: SqlContext, conventions: FailureConventions) {
  const selects = context.statements.filter(({ statement }) => statement.kind === "select");
  const last = selects.at(-1);
  if (last === undefined || changeOf(context) !== undefined) return undefined;
  const listed = new Map<string, string[]>();
  for (const { statement, fact } of selects) {
    if (statement.distinctColumn !== undefined && fact.step < last.fact.step)
      listed.set(statement.distinctColumn, resultCells(fact.content));
  }
  const empty = matches(conventions.emptyResultPattern, last.fact.content);
  return { last, listed, empty };
}

function filterMismatch(context: SqlContext, conventions: FailureConventions): FailureLabel | undefined {
  const query = lastQuery(context, conventions);
  if (query === undefined || !query.empty) return undefined;
  const seen = [...query.listed.values()].flat();
  for (const condition of query.last.statement.conditions) {
    const near = seen.find(
      (cell) => cell !== condition.value && normalised(cell) === normalised(condition.value),
    );
    if (near === undefined) continue;
    return ruleLabel(
      context.rule.modes.valueMismatch,
      `step ${query.last.fact.step} filtered ${condition.column} on '${excerpt(condition.value, 60)}' and found nothing; the data writes it '${excerpt(near, 60)}'`,
      query.last.fact.step,
    );
  }
  return undefined;
}

function changedWrongRows(context: SqlContext): FailureLabel | undefined {
  for (const { fact, statement } of context.statements) {
    if (statement.kind !== "update" && statement.kind !== "delete") continue;
    for (const condition of statement.conditions) {
      const unnamed = !holdsWords(context.instruction, condition.column);
      const absent = !context.instruction.toLowerCase().includes(condition.value.toLowerCase());
      if (!unnamed && !absent) continue;
      const why = unnamed ? `the column ${condition.column}` : `the value '${excerpt(condition.value, 60)}'`;
      return ruleLabel(
        context.rule.modes.changedWrongRows,
        `step ${fact.step} changed the rows WHERE ${condition.column} ${condition.operator} '${excerpt(condition.value, 60)}'; the instruction never names ${why}`,
        fact.step,
      );
    }
  }
  return undefined;
}

function misplacedWrite(context: SqlContext): FailureLabel | undefined {
  for (const { fact, statement } of context.statements) {
    for (const write of statement.writes) {
      const next = adjacentHeaders(context, write.value);
      const own = write.column.toLowerCase();
      const other = [...next].find((header) => header !== own);
      if (other === undefined || next.has(own)) continue;
      return ruleLabel(
        context.rule.modes.wrongColumn,
        `step ${fact.step} wrote '${excerpt(write.value, 60)}' under ${write.column}; the instruction gives it next to ${other}`,
        fact.step,
      );
    }
  }
  return undefined;
}

function filterNotListed(context: SqlContext, conventions: FailureConventions): FailureLabel | undefined {
  const query = lastQuery(context, conventions);
  if (query === undefined || !query.empty) return undefined;
  for (const condition of query.last.statement.conditions) {
    const cells = query.listed.get(condition.column);
    if (condition.operator !== "=" || cells === undefined) continue;
    if (cells.some((cell) => normalised(cell) === normalised(condition.value))) continue;
    return ruleLabel(
      context.rule.modes.wrongColumn,
      `step ${query.last.fact.step} filtered ${condition.column} on '${excerpt(condition.value, 60)}', which is not among the ${cells.length} values listed for it, and found nothing`,
      query.last.fact.step,
    );
  }
  return undefined;
}

/** Labels of an `sql` rule: statements read against the instruction and the results the policy saw. */
export function sqlLabels(
  rule: SqlRule,
  trajectory: ObservedTrajectory,
  conventions: FailureConventions,
  calls: readonly CallFact[],
): FailureLabel[] {
  const text = instructionOf(trajectory);
  const instruction = patternOf(rule.instructionPattern).exec(text)?.[1] ?? text;
  const headerList = patternOf(rule.headersPattern).exec(text)?.[1] ?? "";
  const headers = headerList
    .split(",")
    .map((header) => header.trim())
    .filter((header) => header !== "");
  const submit = submitCallOf(trajectory, conventions, calls);
  const statements = calls
    .filter((fact) => fact !== submit && !fact.isError)
    .map((fact) => ({ fact, statement: readSqlStatement(callText(fact.call)) }));
  const context: SqlContext = { rule, instruction, headers, statements };
  const found = [
    wrongStatement(context),
    writtenFragment(context) ?? filterMismatch(context, conventions),
    changedWrongRows(context),
    misplacedWrite(context) ?? filterNotListed(context, conventions),
  ];
  return found.filter((label): label is FailureLabel => label !== undefined);
}
