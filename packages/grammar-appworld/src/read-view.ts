import { readHarnessCalls } from "@hs/harness";
import type { ChatMessage, PolicyView } from "@hs/spec";
import { type PythonValue, parsePythonLiteral } from "./python-literal.js";

/** How the view asks for the code: a ```python block, `<think>`/`<code>` tags, or the native `execute` tool. */
export type CodeFormat = "python-block" | "think-code" | "native";

/** A parameter of an API whose doc the view showed. */
export interface ShownParameter {
  /** Parameter name. */
  name: string;
  /** Declared type (`string`, `integer`, `number`, `boolean`, `list[string]`, ...). */
  type: string;
  /** Whether it is required. */
  required: boolean;
  /** Allowed values from a `value in [...]` constraint. */
  choices: PythonValue[];
}

/** An API doc the view showed. */
export interface ShownDoc {
  /** App name. */
  app: string;
  /** API name. */
  api: string;
  /** Description text. */
  description: string;
  /** Parameters in doc order. */
  parameters: ShownParameter[];
}

/** A list of records the view showed, kept in a shell variable by an earlier cell. */
export interface CollectedList {
  /** Shell variable holding the list. */
  variable: string;
  /** The app and API that produced it. */
  app: string;
  /** API name. */
  api: string;
  /** The records as printed (string values may be cut, ending in `...`). */
  items: Record<string, PythonValue>[];
}

/** One earlier cell and what it printed. */
export interface ObservedCell {
  /** The code the policy sent (null when the reply held none). */
  code: string | null;
  /** The reply shown (null when not in the view). */
  output: string | null;
  /** Whether the reply reads as a failure. */
  failed: boolean;
  /** Code the harness ran by itself after this cell (a follow-up, a check), with its output; never policy cells. */
  harness?: { code: string; output: string }[];
}

/** The rendered view, read as a reader of the prompt would. */
export interface AppWorldView {
  /** How to write the code. */
  format: CodeFormat;
  /** The task text after `Task:`. */
  instruction: string;
  /** Hints a harness appended to the task message (`\n\nHints:\n- ...`), one per line. */
  hints: string[];
  /** The supervisor's name, email and phone from the task message. */
  supervisor: { name: string; email: string; phone: string };
  /** Earlier cells, oldest first. */
  cells: ObservedCell[];
  /** Apps listed by `show_app_descriptions`. */
  apps: string[];
  /** APIs listed by `show_api_descriptions` (name and description), per app. */
  apisByApp: Map<string, { name: string; description: string }[]>;
  /** App descriptions from `show_app_descriptions`, per app. */
  appDescriptions: Map<string, string>;
  /** Docs shown by `show_api_doc`, keyed `app.api`. */
  docs: Map<string, ShownDoc>;
  /** Passwords shown by `show_account_passwords`, per account. */
  passwords: Map<string, string>;
  /** Shell variables holding an app's access token, per app. */
  tokens: Map<string, string>;
  /** Lists of records kept in variables, by variable. */
  lists: Map<string, CollectedList>;
  /** Records (dicts) printed by any cell, for argument values. */
  records: Record<string, PythonValue>[];
  /** Whether `complete_task` already ran. */
  completed: boolean;
}

const taskPattern =
  /My name is: (.+?)\. My personal email is (\S+) and phone number is (\S+?)\.?\s*\nTask: ([\s\S]*)$/;

function codeOf(message: ChatMessage): string | null {
  for (const call of message.toolCalls ?? []) {
    const code = call.arguments.code;
    if (typeof code === "string") return code;
  }
  const block =
    /```python\n([\s\S]*?)```/.exec(message.content) ?? /<code>([\s\S]*?)<\/code>/.exec(message.content);
  return block?.[1]?.trim() ?? null;
}

function formatOf(view: PolicyView): CodeFormat {
  if (view.actionFormat === "tool-calls" && view.tools.some((tool) => tool.name === "execute"))
    return "native";
  const prompt = view.messages
    .filter((message) => message.role === "system" || message.role === "user")
    .map((message) => message.content)
    .join("\n");
  return /<code>/.test(prompt) && /<think>/.test(prompt) ? "think-code" : "python-block";
}

function taskIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as ChatMessage;
    if (message.role === "user" && taskPattern.test(message.content)) return index;
  }
  return -1;
}

/** A reply split into the policy's own output and what the harness ran (`[harness ran execute: ...]`). */
function splitHarness(text: string | null): {
  own: string | null;
  harness: { code: string; output: string }[];
} {
  if (text === null) return { own: null, harness: [] };
  const { before, calls } = readHarnessCalls(text);
  if (calls.length === 0) return { own: text, harness: [] };
  const harness = calls.map((call) => ({ code: call.argument, output: call.result }));
  return { own: before, harness };
}

/** What the harness ran before the first cell (a prelude: user messages right after the task message). */
function preludeOf(messages: readonly ChatMessage[], start: number): { code: string; output: string }[] {
  const found: { code: string; output: string }[] = [];
  for (let index = start + 1; index < messages.length && messages[index]?.role === "user"; index++) {
    found.push(...splitHarness(messages[index]?.content ?? null).harness);
  }
  return found;
}

function cellsAfter(messages: readonly ChatMessage[], start: number): ObservedCell[] {
  const cells: ObservedCell[] = [];
  for (let index = start + 1; index < messages.length; index += 1) {
    const message = messages[index] as ChatMessage;
    if (message.role !== "assistant") continue;
    const reply = messages[index + 1];
    const text = reply !== undefined && reply.role !== "assistant" ? reply.content : null;
    const { own: output, harness } = splitHarness(text);
    cells.push({
      code: codeOf(message),
      output,
      failed:
        output === null || /Execution failed|Traceback|Exception:|No ```python|Invalid action/.test(output),
      ...(harness.length === 0 ? {} : { harness }),
    });
  }
  return cells;
}

/** Reads the printed literal of an output (the last line that parses, or the whole text). */
export function outputValue(output: string): PythonValue | undefined {
  const whole = parsePythonLiteral(output);
  if (whole !== undefined) return whole;
  const lines = output.split("\n");
  for (let index = 1; index < lines.length; index += 1) {
    const rest = parsePythonLiteral(lines.slice(index).join("\n"));
    if (rest !== undefined) return rest;
  }
  return undefined;
}

function isRecord(value: PythonValue | undefined): value is Record<string, PythonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function recordsOf(value: PythonValue | undefined): Record<string, PythonValue>[] {
  if (isRecord(value)) return [value];
  if (Array.isArray(value)) return value.filter(isRecord);
  return [];
}

function docOf(app: string, value: PythonValue | undefined): ShownDoc | undefined {
  if (!isRecord(value) || typeof value.api_name !== "string" || !Array.isArray(value.parameters))
    return undefined;
  const parameters = value.parameters.filter(isRecord).map((parameter): ShownParameter => {
    const constraint = (Array.isArray(parameter.constraints) ? parameter.constraints : [])
      .map(String)
      .map((text) => /^value in (\[.*\])$/.exec(text)?.[1])
      .find((text) => text !== undefined);
    const choices = constraint === undefined ? undefined : parsePythonLiteral(constraint);
    return {
      name: String(parameter.name),
      type: String(parameter.type),
      required: parameter.required === true,
      choices: Array.isArray(choices) ? choices : [],
    };
  });
  return { app, api: value.api_name, description: String(value.description ?? ""), parameters };
}

/**
 * One entry of `show_api_descriptions`: AppWorld returns `{name, description}` records
 * (ace-agent/ace-appworld src/appworld/collections/apis.pyi:64-66); its prompts show older
 * `"name : description"` strings (experiments/prompts/react.txt:43-48), which are read too.
 */
function apiDescriptionOf(entry: PythonValue): { name: string; description: string } {
  if (isRecord(entry))
    return { name: String(entry.name ?? ""), description: String(entry.description ?? "") };
  const [name = "", description = ""] = String(entry).split(" : ");
  return { name: name.trim(), description: description.trim() };
}

function readCell(view: AppWorldView, cell: ObservedCell): void {
  const code = cell.code ?? "";
  if (cell.failed || cell.output === null) return;
  const value = outputValue(cell.output);
  const app = /app_name=['"](\w+)['"]/.exec(code)?.[1];
  if (/show_app_descriptions\(/.test(code)) {
    for (const record of recordsOf(value))
      view.appDescriptions.set(String(record.name), String(record.description ?? ""));
    view.apps = [...view.appDescriptions.keys()];
  } else if (/show_api_descriptions\(/.test(code) && app !== undefined && Array.isArray(value))
    view.apisByApp.set(app, value.map(apiDescriptionOf));
  else if (/show_api_doc\(/.test(code) && app !== undefined) {
    const doc = docOf(app, value);
    if (doc !== undefined) view.docs.set(`${app}.${doc.api}`, doc);
  } else if (/show_account_passwords\(/.test(code)) {
    for (const record of recordsOf(value))
      view.passwords.set(String(record.account_name), String(record.password));
  }
  const login = /^(\w+) = apis\.(\w+)\.login\(/m.exec(code);
  if (login !== null) view.tokens.set(login[2] as string, login[1] as string);
  // code that logged in to several apps says where each token is (a harness prelude's login loop)
  for (const said of cell.output.matchAll(/^logged in to (\w+): the access token is in (\w+)$/gm))
    view.tokens.set(said[1] as string, said[2] as string);
  const kept =
    /^(\w+) = \[\]\s[\s\S]*?apis\.(\w+)\.(\w+)\(/.exec(code) ?? /^(\w+) = apis\.(\w+)\.(\w+)\(/.exec(code);
  const records = recordsOf(value);
  if (kept !== null && login === null && (Array.isArray(value) || /\.extend\(/.test(code))) {
    const [, variable, listApp, api] = kept as unknown as [string, string, string, string];
    view.lists.set(variable, { variable, app: listApp, api, items: records });
  }
  if (/complete_task\(/.test(code)) view.completed = true;
  if (!/api_docs|show_account_passwords/.test(code)) view.records.push(...records);
}

/** The hints a harness appended to the task message or to the system message (`Hints:` then `- ...` lines). */
function hintsOf(messages: readonly ChatMessage[], task: string): string[] {
  const system = messages.find((message) => message.role === "system")?.content ?? "";
  return [task, system]
    .flatMap((text) => (text.split(/\n\nHints:\n/)[1] ?? "").split("\n"))
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2).trim());
}

/** Reads an AppWorld view: the task, the supervisor, and what each earlier cell showed. */
export function readView(view: PolicyView): AppWorldView {
  const start = taskIndex(view.messages);
  const match = start < 0 ? null : taskPattern.exec((view.messages[start] as ChatMessage).content);
  const read: AppWorldView = {
    format: formatOf(view),
    // hints a harness appends to the task message (`\n\nHints:\n- ...`) are not part of the instruction
    instruction: (match?.[4] ?? "").split(/\n\nHints:\n/)[0]?.trim() ?? "",
    hints: hintsOf(view.messages, match?.[4] ?? ""),
    supervisor: { name: match?.[1] ?? "", email: match?.[2] ?? "", phone: match?.[3] ?? "" },
    cells: cellsAfter(view.messages, start),
    apps: [],
    apisByApp: new Map(),
    appDescriptions: new Map(),
    docs: new Map(),
    passwords: new Map(),
    tokens: new Map(),
    lists: new Map(),
    records: [],
    completed: false,
  };
  // what the harness ran itself is read like any cell's output, but is not one of the policy's cells
  const harnessCell = (call: { code: string; output: string }): ObservedCell => ({
    code: call.code,
    output: call.output,
    failed: /Execution failed|Traceback|Exception:/.test(call.output),
  });
  for (const call of preludeOf(view.messages, start)) readCell(read, harnessCell(call));
  for (const cell of read.cells) {
    readCell(read, cell);
    for (const call of cell.harness ?? []) readCell(read, harnessCell(call));
  }
  return read;
}
