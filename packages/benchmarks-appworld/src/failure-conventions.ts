import type { FailureConventions } from "@hs/spec";

/** The state-changing API verbs of AppWorld-style apps, as they appear in agent code. */
const changeVerbs =
  "create|update|delete|send|add|remove|approve|deny|mark|star|unstar|like|unlike|move|copy|append|complete|reopen|forward|reply";

/** An app API call in agent code (not the docs, not the supervisor). */
const appCall = "apis\\.(?<app>(?!api_docs\\b|supervisor\\b)\\w+)\\.(?<api>\\w+)\\(";

/**
 * AppWorld's observable conventions: a list API's empty page prints `[]`; the episode ends with an
 * `execute` whose code calls `apis.supervisor.complete_task`; code that calls a state-changing API of an app
 * changes the world. Its own modes follow the agent protocol of the ReAct prompt
 * (StonyBrookNLP/appworld, experiments/prompts/react_code_agent/instructions.txt): read an API's doc
 * before calling it, log in for an access token, page until a page comes back empty.
 */
export const appworldConventions: FailureConventions = {
  id: "appworld",
  // a count printed before the list ("0 items" then "[]") is an empty result too
  emptyResultPattern: "^(0 items?\\s+)?(\\[\\s*\\]|\\{\\s*\\}|none)$",
  answerFormatPattern: null,
  emptyAnswerPattern: "^(|none|null|\\[\\s*\\])$",
  answerArgument: null,
  submitTools: [],
  changePattern: `apis\\.(?!supervisor\\.)\\w+\\.(${changeVerbs})_\\w*\\(`,
  modeRules: [
    {
      kind: "precondition",
      mode: "not-logged-in",
      callPattern: "apis\\.(?<app>(?!api_docs\\b|supervisor\\b)\\w+)\\.(?!login\\b)\\w+\\([^)]*access_token=",
      requiredPattern: "apis\\.{app}\\.login\\(",
    },
    {
      kind: "precondition",
      mode: "doc-not-read",
      callPattern: appCall.replace("(?<api>\\w+)", "(?<api>(?!login\\b)\\w+)"),
      requiredPattern: 'show_api_doc\\(app_name="{app}", api_name="{api}"\\)',
    },
    {
      kind: "call",
      mode: "stopped-paging",
      callPattern: "^(?![\\s\\S]*\\bwhile\\b)[\\s\\S]*\\bpage_index\\s*=\\s*\\d",
      failed: false,
    },
    {
      kind: "call",
      mode: "impossible-filter",
      callPattern: 'item\\["(\\w+)"\\] == (True|False) and item\\["\\1"\\] == (?!\\2\\b)(True|False)',
    },
    {
      kind: "call",
      mode: "impossible-filter",
      callPattern: 'item\\["(\\w+)"\\] == ("[^"]*") and item\\["\\1"\\] == (?!\\2)"[^"]*"',
    },
    {
      kind: "call",
      mode: "impossible-filter",
      callPattern: 'item\\["(\\w+)"\\] >=? (-?[\\d.]+) and item\\["\\1"\\] <=? \\2(?![\\d.])',
    },
    {
      kind: "call",
      mode: "wrong-argument",
      callPattern: appCall,
      resultPattern: "Response status code is (422|404)\\b",
      failed: true,
      unlessRetried: true,
    },
    {
      kind: "completed-early",
      mode: "completed-early",
      questionPattern: "(Task:\\s*(how|what|when|which|who|where|at what)\\b|\\?\\s*\\)?\\s*$)",
      noAnswerPattern: "complete_task\\(\\s*\\)",
    },
  ],
  modePriority: [
    "not-logged-in",
    "doc-not-read",
    "stopped-paging",
    "impossible-filter",
    "wrong-argument",
    "completed-early",
    "budget-exhausted",
    "unchecked-change",
    "wrong-target",
  ],
};
