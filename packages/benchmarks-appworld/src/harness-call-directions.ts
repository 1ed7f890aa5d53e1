import type { EvolutionLibrary } from "@hs/spec";
import { executeToolName } from "./presets.js";

/** The last `apis.APP.API(` a piece of code calls. */
export const lastApiCallPattern = "[\\s\\S]*apis\\.(?<app>[a-z_]+)\\.(?<api>[a-z_]+)\\(";

/** A call of `apis.supervisor.complete_task(` in code: AppWorld's submit. */
export const completeTaskPattern = "apis\\.supervisor\\.complete_task\\(";

/**
 * Code that logs in to `{app}` with the supervisor's email and that app's password and keeps the token
 * in `{app}_token` (the variable name the embedded grammar's own login uses), then says so.
 */
const loginCode =
  "{app}_token = apis.{app}.login(username=apis.supervisor.show_profile()['email'], password=next(account['password'] for account in apis.supervisor.show_account_passwords() if account['account_name'] == '{app}'))['access_token']\nprint('logged in to {app}: the access token is in {app}_token')";

/**
 * Code that logs in to every app whose password the supervisor holds, keeping each token in
 * `<app>_token`, and says where each token is (the line the embedded grammar reads a token from).
 */
const loginEveryAppCode = [
  "_email = apis.supervisor.show_profile()['email']",
  "for _account in apis.supervisor.show_account_passwords():",
  "    _app = _account['account_name']",
  "    try:",
  "        globals()[_app + '_token'] = getattr(apis, _app).login(username=_email, password=_account['password'])['access_token']",
  "        print(f'logged in to {_app}: the access token is in {_app}_token')",
  "    except Exception as _error:",
  "        print(f'could not log in to {_app}: {_error}')",
].join("\n");

/** Code that pages `{app}.{api}` with the access token alone into `{app}_{api}` and prints every item. */
const unfilteredPagesCode = [
  "{app}_{api} = []",
  "page_index = 0",
  "while True:",
  "    page = apis.{app}.{api}(access_token={token}, page_index=page_index, page_limit=20)",
  "    if not page:",
  "        break",
  "    {app}_{api}.extend(page)",
  "    page_index += 1",
  "print(len({app}_{api}), 'items')",
  "print({app}_{api})",
].join("\n");

/**
 * Code that pages `{app}.show_{entity}s` (the list API whose items carry `{entity}_id`, by the apps'
 * naming) with the access token alone into `{app}_show_{entity}s` and prints every item.
 */
const idListPagesCode = unfilteredPagesCode.replaceAll("{api}", "show_{entity}s");

/**
 * Code that re-runs the filter of the policy's last answer or loop (`[item for item in {list} if
 * {condition}]`) on the list it read and prints how many items it keeps (the grammar reads that line).
 */
const filterCheckCode = [
  "_kept = [item for item in {list} if {condition}]",
  "print('harness check: your filter on {list} keeps', len(_kept), 'of', len({list}), 'items')",
].join("\n");

/** Code that prints the size of every list the policy's code has collected (its own variables). */
const collectedListsCode =
  "print({name: len(value) for name, value in list(globals().items()) if isinstance(value, list) and not name.startswith('_')})";

/** Code that prints every page of a list API (page_index from 0 until a page comes back empty). */
const allPagesCode = [
  "_all_items = []",
  "for _page_index in range(100):",
  "    _page = getattr(getattr(apis, '{app_name}'), '{api_name}')(access_token={access_token}, page_index=_page_index)",
  "    if not _page:",
  "        break",
  "    _all_items.extend(_page)",
  "print(_all_items)",
].join("\n");

/**
 * Directions that change what the policy sees and can do in AppWorld: the harness lists the apps and
 * accounts, logs in after a 401 and says so, shows the doc of an API called wrongly, pages a list to
 * its end, and prints the answer before `complete_task`; each shown as `[harness ran execute: ...]`
 * and recorded as a harness call.
 */
export const appworldHarnessCallLibrary: Required<
  Pick<EvolutionLibrary, "preludes" | "followUps" | "checkCalls" | "macros" | "stepBudgets">
> = {
  preludes: [
    {
      header: "Before you start, the harness listed the apps and your supervisor's accounts:",
      calls: [
        { tool: executeToolName, arguments: { code: "print(apis.api_docs.show_app_descriptions())" } },
        { tool: executeToolName, arguments: { code: "print(apis.supervisor.show_account_passwords())" } },
      ],
    },
    {
      header:
        "Before you start, the harness listed the apps and your supervisor's accounts, and logged in to each app:",
      calls: [
        { tool: executeToolName, arguments: { code: "print(apis.api_docs.show_app_descriptions())" } },
        { tool: executeToolName, arguments: { code: "print(apis.supervisor.show_account_passwords())" } },
        { tool: executeToolName, arguments: { code: loginEveryAppCode } },
      ],
    },
  ],
  followUps: [
    {
      tools: [executeToolName],
      resultPattern: "needs an access_token from",
      resultFlags: "",
      capture: { source: "result", pattern: "from (?<app>[a-z_]+)\\.login", flags: "" },
      note: "Not logged in to {app}: its APIs need access_token from apis.{app}.login(username=<the supervisor's email>, password=<the {app} password from apis.supervisor.show_account_passwords()>). The harness logged in for you (pass access_token={app}_token):",
      calls: [{ tool: executeToolName, arguments: { code: loginCode } }],
      maxPerEpisode: 3,
    },
    {
      tools: [executeToolName],
      resultPattern: "Invalid or expired access token",
      resultFlags: "",
      capture: { source: "argument", argument: "code", pattern: lastApiCallPattern, flags: "" },
      note: "The access_token given to apis.{app}.{api} is not a valid {app} token (a token of another app, or one that expired). The harness logged in to {app} again:",
      calls: [{ tool: executeToolName, arguments: { code: loginCode } }],
      maxPerEpisode: 2,
    },
    {
      tools: [executeToolName],
      resultPattern: "status code is 422|No API named",
      resultFlags: "",
      capture: { source: "argument", argument: "code", pattern: lastApiCallPattern, flags: "" },
      note: "The call of apis.{app}.{api} was refused (a wrong API name or argument). The harness showed its doc:",
      calls: [
        {
          tool: executeToolName,
          arguments: { code: "print(apis.api_docs.show_api_doc(app_name='{app}', api_name='{api}'))" },
        },
      ],
      maxPerEpisode: 3,
    },
    {
      tools: [executeToolName],
      resultPattern: "^(0 items\\s*)?\\[\\s*\\]\\s*$",
      resultFlags: "",
      capture: {
        source: "argument",
        argument: "code",
        pattern:
          "apis\\.(?<app>[a-z_]+)\\.(?<api>show_[a-z_]+)\\(access_token=(?<token>\\w+), (?!page_index)",
        flags: "",
      },
      note: "apis.{app}.{api} gave no items with those filter arguments (a filter written differently from the stored values matches nothing). The harness paged it with the access token alone, every item into {app}_{api}; filter them in Python:",
      calls: [{ tool: executeToolName, arguments: { code: unfilteredPagesCode } }],
      maxPerEpisode: 2,
    },
    {
      tools: [executeToolName],
      resultPattern: "Missing required parameter \\W*[a-z_]+_id\\b",
      resultFlags: "",
      capture: {
        source: "argument",
        argument: "code",
        pattern:
          "apis\\.(?<app>[a-z_]+)\\.(?<api>[a-z_]+)\\(access_token=(?<token>\\w+),[^\\n]*?\\b(?<entity>[a-z_]+?)_id=None",
        flags: "",
      },
      note: "apis.{app}.{api} needs {entity}_id, the id of one {entity}: the ids come from listing them. The harness paged apis.{app}.show_{entity}s with the access token alone, every item into {app}_show_{entity}s:",
      calls: [{ tool: executeToolName, arguments: { code: idListPagesCode } }],
      maxPerEpisode: 2,
    },
    {
      tools: [executeToolName],
      resultPattern: "^Execution successful\\.\\s*$",
      resultFlags: "",
      capture: {
        source: "argument",
        argument: "code",
        pattern: "^for item in \\[item for item in (?<list>\\w+) if (?<condition>[^\\n]*?)\\]:",
        flags: "m",
      },
      note: "The loop over {list} printed nothing: it ran for no item. The harness re-ran its filter on {list} (below); a filter that keeps none of the items matches nothing (conditions that cannot all hold, or a value written differently), so nothing was changed:",
      calls: [{ tool: executeToolName, arguments: { code: filterCheckCode } }],
      maxPerEpisode: 2,
    },
  ],
  checkCalls: [
    {
      prompt:
        "Before the task is completed, the harness printed the answer your complete_task call gives (below). Check it against the instruction, then run the same complete_task call again to confirm.",
      calls: {
        captureTool: executeToolName,
        capture: {
          source: "argument",
          argument: "code",
          pattern: "complete_task\\((?:\\s*answer\\s*=)?\\s*(?<answer>[^)\\s][^)]*)\\)",
          flags: "",
        },
        calls: [{ tool: executeToolName, arguments: { code: "print(repr({answer}))" } }],
      },
      submitMatch: { tool: executeToolName, argument: "code", pattern: completeTaskPattern, flags: "" },
    },
    {
      prompt:
        "The harness held this complete_task call: it passes no answer. Below are the lists your code has collected and their sizes. Re-read the task: if it asks a question, compute the answer and pass it with complete_task(answer=...); if it asks for a change, make sure you made it; then complete the task.",
      calls: { calls: [{ tool: executeToolName, arguments: { code: collectedListsCode } }] },
      submitMatch: {
        tool: executeToolName,
        argument: "code",
        pattern: "apis\\.supervisor\\.complete_task\\(\\s*\\)",
        flags: "",
      },
    },
    {
      prompt:
        "The harness held this complete_task call and re-ran the filter of your last answer or loop on the list it reads (below). A filter that keeps none of the items matches nothing: choose other conditions and run the answer or the loop again; otherwise run the same complete_task call again.",
      calls: {
        captureTool: executeToolName,
        capture: {
          source: "argument",
          argument: "code",
          pattern: "\\[item for item in (?<list>\\w+) if (?<condition>[^\\n]*?)\\](?=\\)|:|\\[)",
          flags: "",
        },
        calls: [{ tool: executeToolName, arguments: { code: filterCheckCode } }],
      },
      submitMatch: { tool: executeToolName, argument: "code", pattern: completeTaskPattern, flags: "" },
    },
  ],
  macros: [
    {
      name: "list_all_pages",
      description:
        "Call a list API with page_index 0, 1, 2... until a page comes back empty and print every item.",
      parameters: {
        type: "object",
        properties: {
          app_name: { type: "string" },
          api_name: { type: "string" },
          access_token: {
            type: "string",
            description: "A Python expression, e.g. a variable holding the token.",
          },
        },
        required: ["app_name", "api_name", "access_token"],
      },
      steps: [{ tool: executeToolName, arguments: { code: allPagesCode } }],
    },
    {
      name: "login_to_app",
      description: "Log in to one app with the supervisor's credentials and print the access token.",
      parameters: { type: "object", properties: { app: { type: "string" } }, required: ["app"] },
      steps: [{ tool: executeToolName, arguments: { code: loginCode } }],
    },
  ],
  stepBudgets: [30, 70],
};
