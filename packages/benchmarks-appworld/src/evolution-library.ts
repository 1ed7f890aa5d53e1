import type { EvolutionLibrary } from "@hs/spec";
import { appworldHarnessCallLibrary } from "./harness-call-directions.js";
import { executeToolName } from "./presets.js";

/** Texts and macros for directional evolution, in the terms of AppWorld's code protocol. */
export const appworldLibrary: EvolutionLibrary = {
  hints: [
    "Before calling an API for the first time, print its doc with apis.api_docs.show_api_doc(app_name=..., api_name=...).",
    "List APIs return one page at a time: loop over page_index until a page is empty.",
    "Log in to each app with the supervisor's email and the password from apis.supervisor.show_account_passwords().",
    "When the task asks a question, pass only the value to apis.supervisor.complete_task(answer=...).",
    "Change only what the task asks for; check the items you are about to change before changing them.",
    "Print intermediate results so you can check them before the next step.",
    "Page a list API with the access token alone, then filter its items in Python with one condition per field: two conditions on the same field cannot both hold.",
  ],
  toolErrorSuffixes: [
    "\nRead the traceback: fix the API name or the arguments (see show_api_doc) and run the corrected code.",
    "\nVariables from earlier steps still exist; rerun only the part that failed.",
  ],
  malformedActionTemplates: [
    "Your reply had no code to run ({reason}). Reply with exactly one ```python block.",
    "Nothing was executed: write the next step as Python inside one ```python block.",
  ],
  verificationPrompts: [
    "Before completing the task, print what you changed or the answer {answer} and check it against the instruction; then complete the task again.",
  ],
  preludes: appworldHarnessCallLibrary.preludes,
  followUps: appworldHarnessCallLibrary.followUps,
  checkCalls: appworldHarnessCallLibrary.checkCalls,
  stepBudgets: appworldHarnessCallLibrary.stepBudgets,
  macros: [
    ...appworldHarnessCallLibrary.macros,
    {
      name: "show_app_apis",
      description: "List the APIs of one app.",
      parameters: { type: "object", properties: { app_name: { type: "string" } }, required: ["app_name"] },
      steps: [
        {
          tool: executeToolName,
          arguments: { code: "print(apis.api_docs.show_api_descriptions(app_name='{app_name}'))" },
        },
      ],
    },
    {
      name: "show_api_doc",
      description: "Show the doc of one API.",
      parameters: {
        type: "object",
        properties: { app_name: { type: "string" }, api_name: { type: "string" } },
        required: ["app_name", "api_name"],
      },
      steps: [
        {
          tool: executeToolName,
          arguments: {
            code: "print(apis.api_docs.show_api_doc(app_name='{app_name}', api_name='{api_name}'))",
          },
        },
      ],
    },
  ],
  emptyResult: {
    pattern: "^\\[\\s*\\]$",
    notes: [
      "\n(An empty page: there are no more items, or the filter matched nothing. Check page_index and the filter.)",
    ],
  },
  fenceAliases: { python: ["python", "py", "Python", "python3"] },
};
