import type { DecisionWalk } from "@hs/grammar-kit";
import { argumentOptions, pagingParameters } from "./argument-options.js";
import { conditionHolds, type ItemCondition, itemConditions } from "./conditions.js";
import { asksNext, type Built, type DraftOption, pick } from "./draft-options.js";
import { changes, isListDoc, refusedWithoutDoc, workApps } from "./kind-options.js";
import type { CollectedList, ShownDoc } from "./read-view.js";
import { appRelevance, overlap, type ViewContext } from "./view-context.js";

/** A code cell and the sentence that introduces it. */
export interface BuiltCell {
  /** One sentence of reasoning shown before the code. */
  thought: string;
  /** The Python code. */
  code: string;
}

function appOption(context: ViewContext, app: string, fresh: boolean): DraftOption<string> {
  return {
    label: `app:${app}`,
    features: { "app:relevance": appRelevance(context, app), "app:fresh": fresh ? 1 : 0 },
    value: app,
  };
}

function byRelevance<Value>(options: DraftOption<Value>[]): DraftOption<Value>[] {
  const score = (option: DraftOption<Value>): number =>
    (option.features["api:relevance"] ?? 0) +
    (option.features["app:relevance"] ?? 0) +
    (option.features["api:fresh"] ?? 0) * 0.1;
  return [...options].sort((left, right) => score(right) - score(left));
}

/** `show_api_descriptions` for an app the view listed. */
export function apisCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const apps = [...workApps(context), "supervisor"].filter((app) => context.apps.includes(app));
  const app = pick(
    walk,
    "apis-app",
    byRelevance(apps.map((name) => appOption(context, name, !context.apisByApp.has(name)))),
  );
  if (asksNext(app)) return app;
  return {
    thought: `I look at the APIs of the ${app.value} app.`,
    code: `print(apis.api_docs.show_api_descriptions(app_name=${JSON.stringify(app.value)}))`,
  };
}

/** `show_api_doc` for an API the view listed. */
export function docCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const refused = refusedWithoutDoc(context);
  const options: DraftOption<[string, string]>[] = [];
  for (const [app, apis] of context.apisByApp) {
    for (const api of apis) {
      options.push({
        label: `api:${app}.${api.name}`,
        features: {
          "api:relevance": overlap(context, `${api.name} ${api.description}`),
          "api:fresh": context.docs.has(`${app}.${api.name}`) ? 0 : 1,
          "app:relevance": appRelevance(context, app),
          "api:lists": /^show_\w+s$/.test(api.name) ? 1 : 0,
          "api:changes": changes(api.name) ? 1 : 0,
          "api:refused": refused === `${app}.${api.name}` ? 1 : 0,
        },
        value: [app, api.name],
      });
    }
  }
  const chosen = pick(walk, "doc-api", byRelevance(options));
  if (asksNext(chosen)) return chosen;
  const [app, api] = chosen.value;
  return {
    thought: `I read the doc of ${app}.${api} before using it.`,
    code: `print(apis.api_docs.show_api_doc(app_name=${JSON.stringify(app)}, api_name=${JSON.stringify(api)}))`,
  };
}

/** Logging in to an app with the password the view showed; the token stays in `<app>_token`. */
export function loginCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const apps = [...context.passwords.keys()];
  const appChoice = pick(
    walk,
    "login-app",
    byRelevance(apps.map((name) => appOption(context, name, !context.tokens.has(name)))),
  );
  if (asksNext(appChoice)) return appChoice;
  const usernameOption = pick(walk, "login-username", [
    { label: "username:email", features: { "username:email": 1 }, value: context.supervisor.email },
    { label: "username:phone", features: {}, value: context.supervisor.phone },
  ]);
  if (asksNext(usernameOption)) return usernameOption;
  const app = appChoice.value;
  const username = usernameOption.value;
  const password = context.passwords.get(app) ?? "";
  return {
    thought: `I log in to ${app} and keep the access token.`,
    code: `${app}_token = apis.${app}.login(username=${JSON.stringify(username)}, password=${JSON.stringify(password)})["access_token"]\nprint("logged in to ${app}")`,
  };
}

function docOptions(
  context: ViewContext,
  docs: ShownDoc[],
  fresh: (doc: ShownDoc) => boolean,
): DraftOption<ShownDoc>[] {
  return byRelevance(
    docs.map((doc) => ({
      label: `api:${doc.app}.${doc.api}`,
      features: {
        "api:relevance": overlap(context, `${doc.api} ${doc.description}`),
        "api:fresh": fresh(doc) ? 1 : 0,
        "app:relevance": appRelevance(context, doc.app),
        "api:lists": isListDoc(doc) ? 1 : 0,
        "api:changes": changes(doc.api) ? 1 : 0,
        "api:creates": /^(create|send|add|reply|forward)_/.test(doc.api) ? 1 : 0,
      },
      value: doc,
    })),
  );
}

/** Argument source text of a call (`name=value, ...`), each argument one decision. */
export function argumentsText(
  walk: DecisionWalk,
  context: ViewContext,
  doc: ShownDoc,
  itemFields: readonly string[] | null,
): Built<string[]> {
  const parts: string[] = [];
  for (const parameter of doc.parameters) {
    if (pagingParameters.has(parameter.name)) continue;
    const chosen = pick(walk, `arg:${parameter.name}`, argumentOptions(doc, parameter, context, itemFields));
    if (asksNext(chosen)) return chosen;
    if (chosen.value !== null) parts.push(`${parameter.name}=${chosen.value}`);
  }
  return parts;
}

/** One call of an API whose doc the view showed; the reply is kept in `<app>_<api>_result` and printed. */
export function callCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const docs = [...context.docs.values()].filter((doc) => doc.app !== "api_docs" && doc.api !== "login");
  const called = new Set([...context.ranCodes].join("\n").match(/apis\.\w+\.\w+(?=\()/g) ?? []);
  const chosen = pick(
    walk,
    "call-api",
    docOptions(context, docs, (shown) => !called.has(`apis.${shown.app}.${shown.api}`)),
  );
  if (asksNext(chosen)) return chosen;
  const doc = chosen.value;
  const variable = `${doc.app}_${doc.api}_result`;
  const parts = argumentsText(walk, context, doc, null);
  if (asksNext(parts)) return parts;
  return {
    thought: `I call ${doc.app}.${doc.api}.`,
    code: `${variable} = apis.${doc.app}.${doc.api}(${parts.join(", ")})\nprint(${variable})`,
  };
}

/** Paging through a list API until an empty page, collecting every item into `<app>_<api>` and printing them compactly. */
export function pageCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const docs = [...context.docs.values()].filter(isListDoc);
  const chosen = pick(
    walk,
    "page-api",
    docOptions(context, docs, (shown) => !context.lists.has(`${shown.app}_${shown.api}`)),
  );
  if (asksNext(chosen)) return chosen;
  const doc = chosen.value;
  const variable = `${doc.app}_${doc.api}`;
  const argumentParts = argumentsText(walk, context, doc, null);
  if (asksNext(argumentParts)) return argumentParts;
  const parts = [...argumentParts, "page_index=page_index", "page_limit=20"];
  const code = [
    `${variable} = []`,
    "page_index = 0",
    "while True:",
    `    page = apis.${doc.app}.${doc.api}(${parts.join(", ")})`,
    "    if not page:",
    "        break",
    `    ${variable}.extend(page)`,
    "    page_index += 1",
    `print(len(${variable}), "items")`,
    `print([{key: (value[:60] + "..." if isinstance(value, str) and len(value) > 60 else value) for key, value in item.items()} for item in ${variable}])`,
  ].join("\n");
  return { thought: `I page through ${doc.app}.${doc.api} until a page is empty and keep every item.`, code };
}

function listOptions(context: ViewContext): DraftOption<CollectedList>[] {
  const lists = [...context.lists.values()];
  return lists
    .map((list, index) => ({
      label: `list:${list.variable}`,
      features: {
        "list:recent": index === lists.length - 1 ? 1 : 0,
        "list:relevance": overlap(context, list.api),
        "filter:empty-after-check":
          context.emptyFilters.has(list.variable) && list.items.length === 0 ? 1 : 0,
      },
      value: list,
    }))
    .reverse();
}

function conditionOption(
  condition: ItemCondition,
  emptyAgain = false,
  keptPart = false,
): DraftOption<ItemCondition> {
  return {
    label: `cond:${condition.label}`,
    features: {
      "cond:all": condition.operator === "all" ? 1 : 0,
      "cond:instruction": condition.fromInstruction ? 1 : 0,
      "cond:keeps-some": condition.keeps > 0 && condition.keeps < 1 ? 1 : 0,
      "cond:keeps-none": condition.keeps === 0 ? 1 : 0,
      "filter:empty-after-check": emptyAgain ? 1 : 0,
      "filter:kept-after-check": keptPart ? 1 : 0,
    },
    value: condition,
  };
}

/** A collected list and the Python expression that keeps its items that pass the chosen conditions. */
export interface FilteredList {
  /** The list. */
  list: CollectedList;
  /** The filter expression over `item`. */
  filter: string;
}

/** A list the view holds and up to three conditions on its items: the Python filter expression. */
export function filteredList(walk: DecisionWalk, context: ViewContext): Built<FilteredList> {
  const listOption = pick(walk, "list", listOptions(context));
  if (asksNext(listOption)) return listOption;
  const list = listOption.value;
  const conditions = itemConditions(list.items, context.instruction, context.values);
  // after a check found this list's filter empty, a condition that leaves no shown item is marked, and
  // so is one of that filter's conditions that still leaves some
  const refuted = list.items.length > 0 ? context.emptyFilters.get(list.variable) : undefined;
  let kept = list.items;
  const option = (condition: ItemCondition) => {
    const leaves = kept.some((item) => conditionHolds(condition, item));
    const part = refuted?.includes(condition.python) === true && condition.operator !== "all";
    return conditionOption(condition, refuted !== undefined && !leaves, part && leaves);
  };
  const firstOption = pick(walk, "condition", conditions.map(option));
  if (asksNext(firstOption)) return firstOption;
  const first = firstOption.value;
  let filter = first.python;
  kept = kept.filter((item) => conditionHolds(first, item));
  const taken = new Set([first.label]);
  // a hint that each field takes one condition marks a second condition on a field already filtered
  const oneField = context.hints.some((hint) => /one condition per field/i.test(hint));
  const fields = new Set([first.field]);
  for (const name of first.operator === "all" ? [] : ["second-condition", "third-condition"]) {
    const rest = conditions.filter(
      (condition) => condition.operator !== "all" && !taken.has(condition.label),
    );
    const nextOption = pick(walk, name, [
      { label: "cond:none", features: { "cond:none": 1 }, value: null },
      ...rest.map((condition) => {
        const drafted = option(condition);
        const again = oneField && fields.has(condition.field) ? 1 : 0;
        return { ...drafted, features: { ...drafted.features, "cond:field-taken-hinted": again } };
      }),
    ]);
    if (asksNext(nextOption)) return nextOption;
    const next = nextOption.value;
    if (next === null) break;
    taken.add(next.label);
    fields.add(next.field);
    filter = `${filter} and ${next.python}`;
    kept = kept.filter((item) => conditionHolds(next, item));
  }
  return { list, filter };
}

/** Acting on each item of a collected list that passes a condition: one API call per item. */
export function eachCell(walk: DecisionWalk, context: ViewContext): Built<BuiltCell> {
  const filtered = filteredList(walk, context);
  if (asksNext(filtered)) return filtered;
  const { list, filter } = filtered;
  const docs = [...context.docs.values()].filter(
    (doc) => !isListDoc(doc) && changes(doc.api) && doc.app !== "supervisor",
  );
  const chosen = pick(
    walk,
    "each-api",
    docOptions(context, docs, () => true),
  );
  if (asksNext(chosen)) return chosen;
  const doc = chosen.value;
  const fields = [...new Set(list.items.flatMap((item) => Object.keys(item)))];
  const parts = argumentsText(walk, context, doc, fields);
  if (asksNext(parts)) return parts;
  return {
    thought: `For each matching item of ${list.variable} I call ${doc.app}.${doc.api}.`,
    code: `for item in [item for item in ${list.variable} if ${filter}]:\n    print(apis.${doc.app}.${doc.api}(${parts.join(", ")}))`,
  };
}
