import type { DecisionWalk } from "@hs/grammar-kit";
import { type BuiltCell, filteredList } from "./action-steps.js";
import { asksNext, type Built, type DraftOption, pick } from "./draft-options.js";
import { type PythonValue, pythonSource } from "./python-literal.js";
import { outputValue } from "./read-view.js";
import { overlap, type ViewContext } from "./view-context.js";

type AnswerKind = "none" | "count" | "sum" | "max" | "min" | "field" | "literal" | "as-held";

function cues(instruction: string): Record<"count" | "sum" | "max" | "field", boolean> {
  const text = instruction.toLowerCase();
  const count = /how many|number of|count/.test(text);
  const sum = /how much|in total|total|sum/.test(text);
  return {
    count,
    sum,
    max: /\b(most|largest|highest|biggest|latest|newest|oldest|earliest|least|smallest|cheapest)\b/.test(
      text,
    ),
    field: !count && !sum && /\b(what|who|when|which|where)\b/.test(text),
  };
}

function lastScalars(context: ViewContext): PythonValue[] {
  const last = [...context.cells].reverse().find((cell) => !cell.failed && cell.output !== null);
  const value = last?.output === null || last === undefined ? undefined : outputValue(last.output ?? "");
  if (typeof value === "number") return [value];
  if (typeof value === "string" && value.length <= 80) return [value];
  return [];
}

function answerKinds(context: ViewContext): DraftOption<AnswerKind>[] {
  const cue = cues(context.instruction);
  const options: DraftOption<AnswerKind>[] = [
    {
      label: "answer:none",
      features: {
        "answer:none-for-change": context.question ? 0 : 1,
        "answer:none-for-question": context.question ? 1 : 0,
      },
      value: "none",
    },
  ];
  if (context.lists.size > 0) {
    options.push(
      { label: "answer:count", features: { "answer:count-cue": cue.count ? 1 : 0 }, value: "count" },
      { label: "answer:sum", features: { "answer:sum-cue": cue.sum ? 1 : 0 }, value: "sum" },
      { label: "answer:max", features: { "answer:max-cue": cue.max ? 1 : 0 }, value: "max" },
      { label: "answer:min", features: { "answer:max-cue": cue.max ? 1 : 0 }, value: "min" },
      { label: "answer:field", features: { "answer:field-cue": cue.field ? 1 : 0 }, value: "field" },
    );
  }
  // the complete_task a harness check held and found keeping items, run again as it was
  if (context.confirmedHold !== null)
    options.push({ label: "answer:as-held", features: { "answer:as-held": 1 }, value: "as-held" });
  if (lastScalars(context).length > 0)
    options.push({ label: "answer:literal", features: { "answer:literal": 1 }, value: "literal" });
  return options;
}

function fieldOptions(
  context: ViewContext,
  items: readonly Record<string, PythonValue>[],
  numericOnly: boolean,
): DraftOption<string>[] {
  const fields = new Map<string, PythonValue>();
  for (const item of items)
    for (const [key, value] of Object.entries(item))
      if (!fields.has(key) || fields.get(key) === null) fields.set(key, value);
  const options = [...fields]
    .filter(([, value]) => !numericOnly || typeof value === "number")
    .map(([key, value]) => ({
      label: `field:${key}`,
      features: {
        "field:relevance": overlap(context, key),
        "field:numeric": typeof value === "number" ? 1 : 0,
      },
      value: key,
    }))
    .sort(
      (left, right) => (right.features["field:relevance"] ?? 0) - (left.features["field:relevance"] ?? 0),
    );
  return options.length > 0 ? options : [{ label: "field:none", features: {}, value: "" }];
}

function answerExpression(walk: DecisionWalk, context: ViewContext, kind: AnswerKind): Built<string> {
  if (kind === "literal") {
    const literal = pick(
      walk,
      "answer-literal",
      lastScalars(context).map((value) => ({
        label: `literal:${String(value)}`,
        features: { "answer:literal": 1 },
        value,
      })),
    );
    return asksNext(literal) ? literal : pythonSource(literal.value);
  }
  const filtered = filteredList(walk, context);
  if (asksNext(filtered)) return filtered;
  const { list, filter } = filtered;
  const kept = `[item for item in ${list.variable} if ${filter}]`;
  if (kind === "count") return `len(${kept})`;
  const fieldOption = pick(walk, "answer-field", fieldOptions(context, list.items, kind !== "field"));
  if (asksNext(fieldOption)) return fieldOption;
  const field = fieldOption.value;
  const access = `item[${JSON.stringify(field)}]`;
  if (kind === "sum") return `round(sum(${access} for item in ${kept}), 2)`;
  if (kind === "max" || kind === "min") return `${kind}(${access} for item in ${kept})`;
  return `${kept}[0][${JSON.stringify(field)}]`;
}

/** Completing the task: no answer, or one from earlier outputs (a count, sum, max, min or field of a collected list, or a printed value). */
export function completeCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const kindOption = pick(walk, "answer", answerKinds(context));
  if (asksNext(kindOption)) return kindOption;
  const kind = kindOption.value;
  if (kind === "none") return { thought: "The task is done.", code: "apis.supervisor.complete_task()" };
  if (kind === "as-held" && context.confirmedHold !== null)
    return { thought: "The check agrees: I complete the task as before.", code: context.confirmedHold };
  const expression = answerExpression(walk, context, kind);
  if (typeof expression !== "string") return expression;
  return {
    thought: "I have the answer.",
    code: `answer = ${expression}\nprint(answer)\napis.supervisor.complete_task(answer=answer)`,
  };
}
