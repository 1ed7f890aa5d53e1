import type { FailureConventions } from "@hs/harness";

/** The state-changing API verbs of AppWorld-style apps, as they appear in agent code. */
const changeVerbs =
  "create|update|delete|send|add|remove|approve|deny|mark|star|unstar|like|unlike|move|copy|append|complete|reopen|forward|reply";

/**
 * AppWorld's observable conventions: a list API's empty page prints `[]`; the episode ends with an
 * `execute` whose code calls `apis.supervisor.complete_task`; code that calls a state-changing API of an app
 * changes the world.
 */
export const appworldConventions: FailureConventions = {
  id: "appworld",
  emptyResultPattern: "^(\\[\\s*\\]|\\{\\s*\\}|none)$",
  answerFormatPattern: null,
  emptyAnswerPattern: "^(|none|null|\\[\\s*\\])$",
  answerArgument: null,
  submitTools: [],
  changePattern: `apis\\.(?!supervisor\\.)\\w+\\.(${changeVerbs})_\\w*\\(`,
};
