import { parseHarnessConfig } from "@hs/harness";
import type { HarnessConfig } from "@hs/spec";

/** The tool both presets drive: run Python in the task's shell. */
export const executeToolName = "execute";

/** AppWorld's marker for an older output that is no longer shown (experiments/code/ace/base_react.py). */
export const notShownMarker = "[NOT SHOWN FOR BREVITY]";

/** The marker of an output cut at its end (experiments/code/ace/adaptation_react.py cuts at 20,000). */
export const restNotShownMarker = "\n[REST NOT SHOWN FOR BREVITY]";

/**
 * Our own wording of the ReAct code agent's instructions. Structure and protocol facts follow
 * AppWorld's react prompt (ace-agent/ace-appworld experiments/prompts/react.txt; upstream
 * StonyBrookNLP/appworld experiments/prompts/react_code_agent/instructions.txt): the agent works for
 * the supervisor through app APIs in a Python REPL, one ```python block per turn, discovers APIs with
 * `apis.api_docs.show_app_descriptions()`, `show_api_descriptions(app_name=...)` and
 * `show_api_doc(app_name=..., api_name=...)`, takes passwords from the supervisor app, pages with
 * `page_index`, and ends with `apis.supervisor.complete_task(answer=...)`.
 */
export const reactInstructions = `You act on my behalf, as my assistant, to get my everyday tasks done on my own, without asking me anything.

You reach my apps (music, payments, email and others) through their APIs, from a Python REPL. Each turn, write one block of Python code:
\`\`\`python
# your code
\`\`\`
I run it and show you what it printed. Variables you define stay available in later turns.

Three calls tell you what exists:
- \`print(apis.api_docs.show_app_descriptions())\` lists the apps;
- \`print(apis.api_docs.show_api_descriptions(app_name='notes'))\` lists the APIs of one app;
- \`print(apis.api_docs.show_api_doc(app_name='notes', api_name='login'))\` shows one API's parameters and reply.
Call any API as \`apis.APP.API(name=value, ...)\`.

Rules:
- Check an API's doc before you use it the first time; do not guess parameter names.
- Apps need an access token: log in with my username and the password stored in the supervisor app (\`apis.supervisor.show_account_passwords()\`).
- List APIs return one page at a time; raise \`page_index\` until a page comes back empty, or you will miss items.
- Change only what the task asks for; leave everything else as it is.
- When the task is done, call \`apis.supervisor.complete_task()\`; when the task asks a question, pass the answer: \`apis.supervisor.complete_task(answer=...)\` (a number as a number, names as text, nothing else).
- Work in small steps and look at each output before the next one.`;

/** A worked example in our own words (the structure of AppWorld's demo: discover, log in, page, answer). */
export const reactExample: HarnessConfig["prompt"]["examples"] = [
  {
    role: "user",
    content: `${reactInstructions}\n\nHere is an example.\n\nMy name is: Jonah Reyes. My personal email is jonah.reyes@example.com and phone number is 5550142.\nTask: How many notes do I have in my notes app?`,
  },
  {
    role: "assistant",
    content:
      "First I look at the APIs of the notes app.\n```python\nprint(apis.api_docs.show_api_descriptions(app_name='notes'))\n```",
  },
  {
    role: "user",
    content:
      'Output:\n```\n[\n "login : Log in to your notes account.",\n "show_notes : Notes of the account, one page at a time.",\n ...\n]\n```',
  },
  {
    role: "assistant",
    content:
      "I need my notes password from the supervisor app, then I log in.\n```python\npasswords = {item['account_name']: item['password'] for item in apis.supervisor.show_account_passwords()}\ntoken = apis.notes.login(username='jonah.reyes@example.com', password=passwords['notes'])['access_token']\n```",
  },
  { role: "user", content: "Output:\n```\nExecution successful.\n```" },
  {
    role: "assistant",
    content:
      "Now I page through the notes until a page is empty and count them.\n```python\ncount, page = 0, 0\nwhile True:\n    batch = apis.notes.show_notes(access_token=token, page_index=page)\n    if not batch:\n        break\n    count += len(batch)\n    page += 1\nprint(count)\n```",
  },
  { role: "user", content: "Output:\n```\n7\n```" },
  {
    role: "assistant",
    content: "I have the answer.\n```python\napis.supervisor.complete_task(answer=7)\n```",
  },
  {
    role: "user",
    content: "Output:\n```\nExecution successful.\n```\n\nThat was the example. Now your real task.",
  },
];

/** The task message both presets show: the supervisor, then `Task:` (the line AppWorld's trimming anchors on). */
export const taskTemplate =
  "My name is: {metadata.supervisorName}. My personal email is {metadata.supervisorEmail} and phone number is {metadata.supervisorPhone}.\nTask: {instruction}";

const noVerification: HarnessConfig["verification"] = { enabled: false, prompt: "", maxChecks: 0 };

/** AppWorld's `max_output_length` for the shown history (base_react.py). */
export const reactHistoryChars = 50_000;
/** Messages at the end of the history AppWorld never trims (base_react.py). */
export const reactKeptMessages = 5;

/**
 * AppWorld's ReAct code agent as a base harness: the first ```python block of a reply is executed
 * (base_react.py `extract_code_and_fix_content` with `ignore_multiple_calls`), 50 steps. Outputs past
 * 20,000 characters are cut with "[REST NOT SHOWN FOR BREVITY]" (adaptation_react.py). AppWorld also
 * replaces older outputs with "[NOT SHOWN FOR BREVITY]", keeping the last 5, once the history passes its
 * length limit (base_react.py `trimmed_messages`), the context section's `trimOlderOutputs`.
 */
export const reactPreset: HarnessConfig = parseHarnessConfig({
  schemaVersion: 1,
  id: "appworld-react-base",
  description:
    "AppWorld ReAct code agent (ace-agent/ace-appworld experiments/prompts/react.txt, experiments/code/ace/base_react.py): " +
    "instructions with a worked example, one python block per turn run in the task's shell, API discovery through apis.api_docs, " +
    "completion by apis.supervisor.complete_task(answer=...), 50 steps, outputs cut at 20,000 characters.",
  prompt: { system: "", taskTemplate, hints: [], hintPlacement: "task", examples: reactExample },
  actionFormat: {
    kind: "text",
    rules: [
      { tool: executeToolName, pattern: "```python\\n([\\s\\S]*?)```", flags: "", arguments: { code: 1 } },
    ],
  },
  context: {
    keepLastTurns: null,
    truncateObservationChars: 20_000,
    truncationMarker: restNotShownMarker,
    pinTask: true,
    trimOlderOutputs: {
      maxChars: reactHistoryChars,
      keepLastMessages: reactKeptMessages,
      marker: notShownMarker,
    },
  },
  errorRecovery: {
    toolErrorTemplate: "{error}",
    malformedActionTemplate:
      "No ```python code block was found in your reply ({reason}); nothing was run. Reply with one python block.",
    maxReprompts: 50,
    toolErrorSuffix: "",
  },
  budget: { maxSteps: 50, maxOutputChars: null },
  tools: { expose: [executeToolName], macros: [] },
  verification: noVerification,
});

/** verl-agent's history length: the last N code/result pairs shown (its default for AppWorld). */
export const verlHistoryPairs = 5;
/** verl-agent cuts the shown history to its last 10,000 characters. */
export const verlHistoryChars = 10_000;

/** Our wording of verl-agent's AppWorld prompt: reasoning in <think>, code in <code>. */
export const verlSystemPrompt = `${reactInstructions.replace(
  "Each turn, write one block of Python code:\n```python\n# your code\n```",
  "Each turn, first reason inside <think> </think>, then give the Python code to run inside <code> </code>. A reply without both is invalid and nothing is run.",
)}`;

/**
 * verl-agent's AppWorld variant (langfengQ/verl-agent, agent_system/environments for appworld, facts
 * as recorded in DESIGN.md section 7; that repository is not fetchable here): the reply must hold
 * `<think>...</think>` and `<code>...</code>` (either missing: an invalid action), the last N code/result
 * pairs are kept, 50 interactions, reward from `evaluate().success`. The runtime cuts each observation,
 * not the joined history, so the 10,000-character cut is applied per kept result.
 */
export const verlAgentPreset: HarnessConfig = parseHarnessConfig({
  schemaVersion: 1,
  id: "appworld-verl-agent-base",
  description:
    "verl-agent's AppWorld protocol: <think> reasoning and <code> python, an action without both tags is invalid, " +
    `the last ${verlHistoryPairs} code/result pairs kept and cut to ${verlHistoryChars} characters, 50 interactions, reward on evaluate().success.`,
  prompt: { system: verlSystemPrompt, taskTemplate, hints: [], hintPlacement: "task", examples: [] },
  actionFormat: {
    kind: "text",
    rules: [
      {
        tool: executeToolName,
        pattern: "^(?=[\\s\\S]*<think>[\\s\\S]*?</think>)[\\s\\S]*?<code>([\\s\\S]*?)</code>",
        flags: "",
        arguments: { code: 1 },
      },
    ],
  },
  context: {
    keepLastTurns: verlHistoryPairs,
    truncateObservationChars: verlHistoryChars,
    truncationMarker: "",
    pinTask: true,
  },
  errorRecovery: {
    toolErrorTemplate: "{error}",
    malformedActionTemplate:
      "Invalid action: the reply needs <think>...</think> and <code>...</code> ({reason}).",
    maxReprompts: 50,
    toolErrorSuffix: "",
  },
  budget: { maxSteps: 50, maxOutputChars: null },
  tools: { expose: [executeToolName], macros: [] },
  verification: noVerification,
});

/** Both presets by name. */
export const appworldPresets: Readonly<Record<string, HarnessConfig>> = {
  react: reactPreset,
  "verl-agent": verlAgentPreset,
};
