import type { DraftOption } from "./draft-options.js";
import type { FeatureValues } from "./features.js";
import { valueMatchesInstruction, wordsOf } from "./instruction-values.js";
import { type PythonValue, pythonSource } from "./python-literal.js";
import type { ShownDoc, ShownParameter } from "./read-view.js";
import type { ViewContext } from "./view-context.js";

/** Parameters the grammar fills itself (paging) and never asks about. */
export const pagingParameters = new Set(["page_index", "page_limit"]);

/** Python source of an argument, or null to leave it out. */
export type ArgumentValue = string | null;

function fitsType(parameter: ShownParameter, value: PythonValue): boolean {
  if (parameter.type.startsWith("list")) return Array.isArray(value);
  if (parameter.type === "integer") return typeof value === "number" && Number.isInteger(value);
  if (parameter.type === "number") return typeof value === "number";
  if (parameter.type === "boolean") return typeof value === "boolean";
  if (parameter.type === "string") return typeof value === "string";
  return typeof value === "string" || typeof value === "number";
}

function itemFieldOptions(
  parameter: ShownParameter,
  itemFields: readonly string[],
  context: ViewContext,
): DraftOption<ArgumentValue>[] {
  const name = parameter.name;
  const options: DraftOption<ArgumentValue>[] = [];
  for (const field of itemFields) {
    const same = field === name || name.endsWith(`_${field}`) || field.endsWith(`_${name}`);
    if (same && !parameter.type.startsWith("list"))
      options.push({
        label: `item:${field}`,
        features: { "arg:item-field": 1 },
        value: `item[${JSON.stringify(field)}]`,
      });
    if (parameter.type.startsWith("list") && /email|sender|payer|receiver|requester/.test(field))
      options.push({
        label: `item-list:${field}`,
        features: { "arg:item-field": 0.5 },
        value: `[item[${JSON.stringify(field)}]]`,
      });
  }
  if (/path/.test(name) && itemFields.includes("name")) {
    for (const { value, source } of context.values) {
      if (source !== "path" || typeof value !== "string") continue;
      options.push({
        label: `item-in:${value}`,
        features: { "arg:item-field": 0.5, "arg:instruction": 1 },
        value: `${JSON.stringify(`${value}/`)} + item["name"]`,
      });
    }
  }
  return options;
}

function instructionOptions(parameter: ShownParameter, context: ViewContext): DraftOption<ArgumentValue>[] {
  const options: DraftOption<ArgumentValue>[] = [];
  const nameWords = wordsOf(parameter.name);
  for (const { value, source } of context.values) {
    const asList = parameter.type.startsWith("list");
    const text = parameter.type === "string" && typeof value === "number" ? String(value) : value;
    const shaped: PythonValue = asList ? [text] : text;
    if (!fitsType(parameter, shaped) && !(parameter.type === "number" && typeof value === "number")) continue;
    const features: FeatureValues = {
      "arg:instruction": 1,
      "arg:quoted": source === "quoted" ? 1 : 0,
      "arg:name-echoed": nameWords.some(
        (word) => source.includes(word) || (word === "name" && source.startsWith("name")),
      )
        ? 1
        : 0,
    };
    options.push({ label: `value:${typeof text}:${String(value)}`, features, value: pythonSource(shaped) });
  }
  return options;
}

function seenOptions(parameter: ShownParameter, context: ViewContext): DraftOption<ArgumentValue>[] {
  const options: DraftOption<ArgumentValue>[] = [];
  for (const record of context.records) {
    const value = record[parameter.name];
    if (value === undefined || value === null || !fitsType(parameter, value)) continue;
    const matched = Object.entries(record).some(
      ([key, other]) =>
        key !== parameter.name &&
        typeof other === "string" &&
        valueMatchesInstruction(other, context.instruction, context.values),
    );
    if (!matched) continue;
    options.push({ label: `seen:${String(value)}`, features: { "arg:seen": 1 }, value: pythonSource(value) });
  }
  return options.slice(0, 6);
}

function choiceOptions(parameter: ShownParameter, context: ViewContext): DraftOption<ArgumentValue>[] {
  const choices: PythonValue[] = parameter.type === "boolean" ? [true, false] : parameter.choices;
  return choices.map((choice) => ({
    label: `choice:${String(choice)}`,
    features: {
      "arg:choice-echoed": typeof choice === "string" && context.stems.has(choice.replace(/s$/, "")) ? 1 : 0,
    },
    value: pythonSource(choice),
  }));
}

/**
 * Options for one argument of a call: the kept access token, a field of the current item (in a loop),
 * a value the instruction states, a value seen beside something the instruction names, a value the doc
 * allows (booleans included), or leaving an optional argument out.
 */
export function argumentOptions(
  doc: ShownDoc,
  parameter: ShownParameter,
  context: ViewContext,
  itemFields: readonly string[] | null,
): DraftOption<ArgumentValue>[] {
  if (parameter.name === "access_token") {
    const token = context.tokens.get(doc.app);
    if (token !== undefined) return [{ label: `token:${token}`, features: { "arg:token": 1 }, value: token }];
  }
  const options: DraftOption<ArgumentValue>[] = [];
  if (itemFields !== null) options.push(...itemFieldOptions(parameter, itemFields, context));
  options.push(
    ...choiceOptions(parameter, context),
    ...seenOptions(parameter, context),
    ...instructionOptions(parameter, context),
  );
  // a hint to page a list API with the token alone and filter in Python favours leaving filters out
  const pagedAlone =
    doc.parameters.some((shown) => shown.name === "page_index") &&
    context.hints.some((hint) => /list API with the access token alone/i.test(hint));
  if (!parameter.required)
    options.unshift({
      label: "omit",
      features: { "arg:omit": 1, "arg:omit-hinted": pagedAlone ? 1 : 0 },
      value: null,
    });
  if (options.length === 0) options.push({ label: "none", features: {}, value: "None" });
  return options;
}
