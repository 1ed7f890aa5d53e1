import type { InstructionValue } from "./instruction-values.js";
import { valueMatchesInstruction, wordsOf } from "./instruction-values.js";
import type { PythonValue } from "./python-literal.js";

/** A filter on the items of a collected list, as Python over `item`, with what it is made of. */
export interface ItemCondition {
  /** Stable label. */
  label: string;
  /** Python boolean expression over `item`. */
  python: string;
  /** The field it tests (empty for `True`). */
  field: string;
  /** How it tests: all, equal, contains, boolean, greater, less, ends-with, starts-with. */
  operator: "all" | "equal" | "contains" | "boolean" | "greater" | "less" | "ends-with" | "starts-with";
  /** Whether its value is one the instruction states (or, for a boolean, whose field name the instruction echoes). */
  fromInstruction: boolean;
  /** Share of shown items it keeps (0..1). */
  keeps: number;
}

const truncatedEnd = "...";

function fieldsOf(items: readonly Record<string, PythonValue>[]): Map<string, PythonValue[]> {
  const fields = new Map<string, PythonValue[]>();
  for (const item of items)
    for (const [key, value] of Object.entries(item)) fields.set(key, [...(fields.get(key) ?? []), value]);
  return fields;
}

function field(name: string): string {
  return `item[${JSON.stringify(name)}]`;
}

function booleanConditions(name: string, instruction: string): ItemCondition[] {
  const words = wordsOf(instruction);
  const stem = name.replace(/^is_/, "");
  const echoed = words.some(
    (word) => word.includes(stem) || (stem.includes(word.replace(/ed$|s$/, "")) && word.length > 3),
  );
  return [true, false].map((truth) => ({
    label: `${name}:${truth}`,
    python: `${field(name)} == ${truth ? "True" : "False"}`,
    field: name,
    operator: "boolean" as const,
    fromInstruction: echoed,
    keeps: 0,
  }));
}

function textConditions(
  name: string,
  values: readonly PythonValue[],
  instruction: string,
  stated: readonly InstructionValue[],
): ItemCondition[] {
  const conditions: ItemCondition[] = [];
  const distinct = new Set<string>();
  for (const value of values) {
    const texts = Array.isArray(value) ? value.map(String) : typeof value === "string" ? [value] : [];
    for (const text of texts)
      if (!text.endsWith(truncatedEnd)) distinct.add(`${Array.isArray(value) ? "in" : "eq"}\u0000${text}`);
  }
  for (const entry of distinct) {
    const [kind, text] = entry.split("\u0000") as [string, string];
    if (!valueMatchesInstruction(text, instruction, stated)) continue;
    const contains = kind === "in";
    conditions.push({
      label: `${name}:${contains ? "has" : "is"}:${text}`,
      python: contains
        ? `${JSON.stringify(text)} in ${field(name)}`
        : `${field(name)} == ${JSON.stringify(text)}`,
      field: name,
      operator: contains ? "contains" : "equal",
      fromInstruction: true,
      keeps: 0,
    });
  }
  for (const { value, source } of stated) {
    if (typeof value !== "string") continue;
    if (source === "quoted" && value.startsWith("."))
      conditions.push({
        label: `${name}:ends:${value}`,
        python: `${field(name)}.endswith(${JSON.stringify(value)})`,
        field: name,
        operator: "ends-with",
        fromInstruction: true,
        keeps: 0,
      });
    if (source === "month" && values.some((shown) => typeof shown === "string" && /^\d{4}-\d{2}/.test(shown)))
      conditions.push({
        label: `${name}:starts:${value}`,
        python: `${field(name)}.startswith(${JSON.stringify(value)})`,
        field: name,
        operator: "starts-with",
        fromInstruction: true,
        keeps: 0,
      });
  }
  return conditions;
}

function numberConditions(name: string, stated: readonly InstructionValue[]): ItemCondition[] {
  return stated
    .filter((entry) => typeof entry.value === "number")
    .flatMap(({ value }) => [
      {
        label: `${name}:gt:${value}`,
        python: `${field(name)} > ${value}`,
        field: name,
        operator: "greater" as const,
        fromInstruction: true,
        keeps: 0,
      },
      {
        label: `${name}:lt:${value}`,
        python: `${field(name)} < ${value}`,
        field: name,
        operator: "less" as const,
        fromInstruction: true,
        keeps: 0,
      },
    ]);
}

/** Whether an item passes a condition (on the item as printed). */
export function conditionHolds(condition: ItemCondition, item: Record<string, PythonValue>): boolean {
  const value = item[condition.field];
  const parts = condition.label.split(":");
  const rest = condition.operator === "boolean" ? (parts[1] ?? "") : parts.slice(2).join(":");
  switch (condition.operator) {
    case "all":
      return true;
    case "equal":
      return value === rest;
    case "contains":
      return Array.isArray(value) && value.includes(rest);
    case "boolean":
      return value === (rest === "true");
    case "greater":
      return typeof value === "number" && value > Number(rest);
    case "less":
      return typeof value === "number" && value < Number(rest);
    case "ends-with":
      return typeof value === "string" && value.endsWith(rest);
    default:
      return typeof value === "string" && value.startsWith(rest);
  }
}

/**
 * The conditions offered on a list's items: every item; a field equal to (or a list field holding) a
 * shown value that the instruction states; a boolean field true or false; a number field above or below
 * a number of the instruction; a text field ending with a quoted suffix or starting with a stated month.
 */
export function itemConditions(
  items: readonly Record<string, PythonValue>[],
  instruction: string,
  stated: readonly InstructionValue[],
): ItemCondition[] {
  const conditions: ItemCondition[] = [
    { label: "all", python: "True", field: "", operator: "all", fromInstruction: false, keeps: 1 },
  ];
  for (const [name, values] of fieldsOf(items)) {
    if (/_id$|^id$/.test(name)) continue;
    const sample = values.find((value) => value !== null);
    if (typeof sample === "boolean") conditions.push(...booleanConditions(name, instruction));
    else if (typeof sample === "number") conditions.push(...numberConditions(name, stated));
    else conditions.push(...textConditions(name, values, instruction, stated));
  }
  for (const condition of conditions)
    condition.keeps =
      items.length === 0 ? 0 : items.filter((item) => conditionHolds(condition, item)).length / items.length;
  return conditions;
}
