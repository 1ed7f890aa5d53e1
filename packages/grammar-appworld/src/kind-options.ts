import type { DraftOption } from "./draft-options.js";
import type { FeatureValues } from "./features.js";
import type { ShownDoc } from "./read-view.js";
import { appRelevance, type ViewContext } from "./view-context.js";

/** The action kinds. */
export type ActionKind =
  | "apps"
  | "apis"
  | "doc"
  | "passwords"
  | "login"
  | "call"
  | "page"
  | "each"
  | "complete";

/** Apps an agent works in (not the docs app or the supervisor). */
export function workApps(context: ViewContext): string[] {
  return context.apps.filter((app) => app !== "api_docs" && app !== "supervisor");
}

/** Whether a doc is a paged list API. */
export function isListDoc(doc: ShownDoc): boolean {
  return doc.parameters.some((parameter) => parameter.name === "page_index");
}

/** Whether an API changes something (its name is not show_/login/logout). */
export function changes(api: string): boolean {
  return !/^(show_|login$|logout$)/.test(api);
}

function relevantApps(context: ViewContext): string[] {
  return workApps(context).filter((app) => appRelevance(context, app) > 0);
}

function kindOfCode(code: string | null): ActionKind | "other" {
  if (code === null) return "other";
  const patterns: [ActionKind, RegExp][] = [
    ["apps", /show_app_descriptions/],
    ["apis", /show_api_descriptions/],
    ["doc", /show_api_doc/],
    ["passwords", /show_account_passwords/],
    ["login", /\.login\(/],
    ["complete", /complete_task\(/],
    ["page", /\.extend\(/],
    ["each", /^for item in/m],
  ];
  return patterns.find(([, pattern]) => pattern.test(code))?.[0] ?? "call";
}

function lastOfKind(context: ViewContext, kind: ActionKind): ViewContext["cells"][number] | undefined {
  return [...context.cells].reverse().find((cell) => kindOfCode(cell.code) === kind);
}

function readiness(context: ViewContext): Record<ActionKind, number> {
  const relevant = relevantApps(context);
  const docs = [...context.docs.values()];
  const tokenApps = new Set(context.tokens.keys());
  // a list a harness check found empty is as good as not collected: its API may be paged again
  const lists = [...context.lists.values()].filter(
    (list) => !(context.emptyFilters.has(list.variable) && list.items.length === 0),
  );
  const listedApis = new Set(lists.map((list) => `${list.app}.${list.api}`));
  const undocumented = relevant.filter((app) => {
    const listed = context.apisByApp.get(app) ?? [];
    const shown = listed.filter((api) => context.docs.has(`${app}.${api.name}`)).length;
    return listed.length > 0 && shown < 2;
  });
  const kinds = context.cells.map((cell) => kindOfCode(cell.code));
  // a loop a harness check found filtered to nothing changed nothing
  const acted =
    kinds.some((kind, index) => kind === "each" && !context.emptyLoops.has(index)) ||
    context.cells.some(
      (cell) =>
        !cell.failed && kindOfCode(cell.code) === "call" && /apis\.\w+\.(?!show_)\w+\(/.test(cell.code ?? ""),
    );
  return {
    apps: context.apps.length === 0 ? 1 : 0,
    apis: relevant.some((app) => !context.apisByApp.has(app)) ? 1 : 0,
    doc: undocumented.length > 0 ? 1 : 0,
    passwords: context.passwords.size === 0 ? 1 : 0,
    login: relevant.some((app) => context.passwords.has(app) && !tokenApps.has(app)) ? 1 : 0,
    page: docs.some(
      (doc) => isListDoc(doc) && tokenApps.has(doc.app) && !listedApis.has(`${doc.app}.${doc.api}`),
    )
      ? 1
      : 0,
    call:
      !context.question && docs.some((doc) => changes(doc.api) && tokenApps.has(doc.app) && !acted) ? 1 : 0,
    each:
      !context.question &&
      context.lists.size > 0 &&
      docs.some((doc) => changes(doc.api) && !isListDoc(doc)) &&
      !acted
        ? 1
        : 0,
    complete: context.question ? (lists.length > 0 ? 1 : 0) : acted ? 1 : 0,
  };
}

/** The app whose access token the last cell lacked (a 401 reply), when the view shows its password. */
function unauthorizedApp(context: ViewContext): string | null {
  const last = context.cells.at(-1);
  if (last?.failed !== true) return null;
  const output = last.output ?? "";
  const named = /needs an access_token from (\w+)\.login/.exec(output)?.[1];
  const called = /Invalid or expired access token/.test(output)
    ? /[\s\S]*apis\.(\w+)\.\w+\(/.exec(last.code ?? "")?.[1]
    : undefined;
  const app = named ?? called;
  return app !== undefined && context.passwords.has(app) ? app : null;
}

/**
 * The API (`app.api`) whose call in the last cell was refused (422, no such API) when its doc is not
 * shown, read from the cell's own output, so the same under every harness; else null.
 */
export function refusedWithoutDoc(context: ViewContext): string | null {
  const last = context.cells.at(-1);
  if (last?.failed !== true || !/status code is 422|No API named/.test(last.output ?? "")) return null;
  const call = /[\s\S]*apis\.(\w+)\.(\w+)\(/.exec(last.code ?? "");
  if (call === null || call[1] === "api_docs" || call[1] === "supervisor") return null;
  const api = `${call[1]}.${call[2]}`;
  return context.docs.has(api) ? null : api;
}

/** The options of the first decision: which kind of cell to write (only kinds the view makes possible). */
export function kindOptions(context: ViewContext): DraftOption<ActionKind>[] {
  const ready = readiness(context);
  const last = context.cells.at(-1);
  const lastKind = kindOfCode(last?.code ?? null);
  const late = context.cells.length >= 35 ? 1 : 0;
  const unauthorized = unauthorizedApp(context) === null ? 0 : 1;
  const refused = refusedWithoutDoc(context) === null ? 0 : 1;
  // the last cell was a loop that ran for no item (its own output, or a check after it, says so)
  const emptyLoop = context.emptyLoops.has(context.cells.length - 1) ? 1 : 0;
  const available: Record<ActionKind, boolean> = {
    apps: true,
    apis: context.apps.length > 0,
    doc: context.apisByApp.size > 0,
    passwords: true,
    login: context.passwords.size > 0,
    call: [...context.docs.values()].some((doc) => doc.app !== "api_docs" && doc.api !== "login"),
    page: [...context.docs.values()].some(isListDoc),
    each:
      context.lists.size > 0 && [...context.docs.values()].some((doc) => !isListDoc(doc) && changes(doc.api)),
    complete: true,
  };
  const features = (kind: ActionKind): FeatureValues => ({
    "kind:apps-unseen": kind === "apps" ? ready.apps : 0,
    "kind:apis-needed": kind === "apis" ? ready.apis : 0,
    "kind:doc-needed": kind === "doc" ? ready.doc : 0,
    "kind:passwords-unseen": kind === "passwords" ? ready.passwords : 0,
    "kind:login-needed": kind === "login" ? ready.login : 0,
    "kind:page-available": kind === "page" ? ready.page : 0,
    "kind:call-available": kind === "call" ? ready.call : 0,
    "kind:each-available": kind === "each" ? ready.each : 0,
    "kind:complete-question-ready": kind === "complete" && context.question ? ready.complete : 0,
    "kind:complete-change-ready": kind === "complete" && !context.question ? ready.complete : 0,
    "kind:complete-late": kind === "complete" ? late : 0,
    "kind:complete-unready": kind === "complete" && ready.complete === 0 ? 1 : 0,
    "kind:after-failure": kind !== "complete" && last?.failed === true ? 1 : 0,
    "kind:repeats-last": kind === lastKind && last?.failed !== true ? 1 : 0,
    "kind:failed-before": kind !== "complete" && lastOfKind(context, kind)?.failed === true ? 1 : 0,
    "kind:login-after-unauthorized": kind === "login" ? unauthorized : 0,
    "kind:doc-after-refusal": kind === "doc" ? refused : 0,
    "kind:retry-after-empty-loop": kind === "each" || kind === "page" ? emptyLoop : 0,
    "kind:confirm-after-check": kind === "complete" && context.confirmedHold !== null ? 1 : 0,
  });
  return (Object.keys(available) as ActionKind[])
    .filter((kind) => available[kind])
    .map((kind) => ({ label: `kind:${kind}`, features: features(kind), value: kind }));
}
