import { type DecisionWalk, stagedGrammar } from "@hs/grammar-kit";
import type { ActionGrammarV1, GrammarStep } from "@hs/spec";
import {
  apisCell,
  type BuiltCell,
  callCell,
  docCell,
  eachCell,
  loginCell,
  pageCell,
} from "./action-steps.js";
import { appWorldCallLabels } from "./call-labels.js";
import { completeCell } from "./complete-step.js";
import { asksNext, type Built, pick } from "./draft-options.js";
import { featureNames, priorVector } from "./features.js";
import { type ActionKind, kindOptions } from "./kind-options.js";
import { renderAction } from "./render-action.js";
import { type ViewContext, viewContext } from "./view-context.js";

const cells: Record<ActionKind, (walk: DecisionWalk, context: ViewContext) => Built<BuiltCell>> = {
  apps: () => ({
    thought: "I look at which apps there are.",
    code: "print(apis.api_docs.show_app_descriptions())",
  }),
  apis: apisCell,
  doc: docCell,
  passwords: () => ({
    thought: "I get my account passwords from the supervisor app.",
    code: "print(apis.supervisor.show_account_passwords())",
  }),
  login: loginCell,
  call: callCell,
  page: pageCell,
  each: eachCell,
  complete: completeCell,
};

/**
 * The AppWorld action grammar: builds one Python cell per action, decision by decision, from the
 * rendered view only (the instruction, the supervisor's details, earlier code and its outputs, error
 * text, hints). Kinds: list the apps, list an app's APIs, read an API's doc, show the passwords, log in
 * (token kept in `<app>_token`), call an API whose doc was shown, page a list API into a variable, act
 * on each item of a collected list that passes a condition, and complete (with no answer or one computed
 * from a collected list or a printed value). The code is written as a ```python block, in
 * `<think>`/`<code>` tags, or as an `execute` call, as the view asks. `decisionsFor` recovers the
 * decisions of a harness call's doc read, API list, passwords, login or app list.
 */
export function createAppWorldGrammar(): ActionGrammarV1 {
  return stagedGrammar({
    featureNames,
    prior: priorVector(),
    context: viewContext,
    build: buildCell,
    labelsForCall: appWorldCallLabels,
  });
}

/** The kind of cell, its decisions, then the cell in the view's format. */
function buildCell(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const kind = pick(walk, "kind", kindOptions(context));
  if (asksNext(kind)) return kind;
  const cell = cells[kind.value](walk, context);
  if (asksNext(cell)) return cell;
  return renderAction(context.format, cell.thought, cell.code, context.cells.length + 1);
}
