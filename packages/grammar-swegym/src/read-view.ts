import { readHarnessCalls } from "@hs/harness";
import type { ChatMessage, PolicyView, ToolSpec } from "@hs/spec";
import { readStep } from "./read-step.js";
import { type StatementTerms, statementTerms } from "./statement-terms.js";

/** A line of a file as the view last showed it. */
export interface ShownLine {
  /** The line's text, exactly as shown. */
  text: string;
  /** Index of the step whose output showed it. */
  step: number;
}

/** A place in a file the view points at. */
export interface ViewLocation {
  /** Repository-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  /** Where it was seen: a traceback frame, a search hit, a pytest location line or a line a trace executed. */
  source: "traceback" | "search" | "pytest" | "trace";
  /** Index of the step whose output showed it. */
  step: number;
}

/** An edit an earlier step made with the grammar's edit command. */
export interface ObservedEdit {
  /** Repository-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  /** The line before the edit. */
  original: string;
  /** The line after it (two lines for a guard: the lines below it move down one). */
  replacement: string;
  /** Whether the output says the line was changed. */
  applied: boolean;
  /** Whether a later step reverted the file. */
  reverted: boolean;
  /** Index of the step. */
  step: number;
}

/** A test run an earlier step made. */
export interface ObservedTestRun {
  /** Index of the step. */
  step: number;
  /** Whether the run's summary line reports no failure and no error (null when it shows none). */
  passed: boolean | null;
  /** Test ids the output reports as failed. */
  failedIds: string[];
}

/** What a probe of one line printed: each expression's result for the original and for each rewrite. */
export interface ObservedProbe {
  /** Repository-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  /** Index of the step. */
  step: number;
  /** Results of the original line (`=> repr` or `raised Error: message`), one per expression. */
  original: string[];
  /** Results by the rewritten line's stripped text. */
  rewrites: Map<string, string[]>;
}

/** One earlier step: the command sent and the text that came back. */
export interface ObservedStep {
  /** The bash command (or an editor call written as `editor view PATH`), null for an unreadable reply. */
  command: string | null;
  /** The observation text (null when none followed). */
  output: string | null;
  /** Commands the harness ran by itself after this step (follow-ups, checks), with their outputs. */
  harness?: { command: string; output: string }[];
}

/** The rendered view, read the way a reader of the conversation would. */
export interface ReadView {
  /** The problem statement. */
  statement: string;
  /** Names, expressions and numbers the statement writes. */
  terms: StatementTerms;
  /** Whether replies are native tool calls. */
  nativeTools: boolean;
  /** The bash tool, when the view offers it natively. */
  bashTool: ToolSpec | undefined;
  /** The terminal (submit) tool, when the view offers it natively. */
  submitTool: ToolSpec | undefined;
  /** Earlier steps, oldest first. */
  steps: ObservedStep[];
  /** Python files the view has listed or named, repository-relative, in order first seen. */
  files: string[];
  /** Lines shown with their numbers, by file. */
  shown: Map<string, Map<number, ShownLine>>;
  /** Places the outputs point at, oldest first. */
  locations: ViewLocation[];
  /** Terms searched with grep. */
  searched: Set<string>;
  /** Ranges shown by file (`nl -ba` / editor views). */
  shownRanges: Map<string, [number, number][]>;
  /** Edits made with the grammar's edit command. */
  edits: ObservedEdit[];
  /** Test runs. */
  tests: ObservedTestRun[];
  /** Expressions evaluated. */
  reproduced: Set<string>;
  /** Steps whose output held a trace of the statement's calls (-1: the harness's prelude). */
  traceSteps: number[];
  /** Those of `traceSteps` whose trace ranked its lines against the repository's tests. */
  rankedTraceSteps: number[];
  /** Those of `traceSteps` whose trace listed the module-level values the calls read. */
  valuesTraceSteps: number[];
  /** Lines a trace showed as executed, as `file:line`. */
  traced: Set<string>;
  /**
   * Lines a ranked trace listed, by `file:line`: 1 for the first listed, falling by 1 / `rankedLineCap`
   * a place (the best over the view's ranked traces).
   */
  ranked: Map<string, number>;
  /** Lines probed with their rewrites, by `file:line`. */
  probes: Map<string, ObservedProbe>;
  /** Whether the file listing has been run. */
  explored: boolean;
  /** Whether the last user message is the format-error re-prompt. */
  formatError: boolean;
}

/** mini-swe-agent's `action_regex` (agents/default.py). */
const bashBlock = /```bash\s*\n([\s\S]*?)\n```/g;

/** The command of an assistant reply: its one bash block, or the bash / editor tool call. */
export function commandOfReply(message: ChatMessage): string | null {
  for (const call of message.toolCalls ?? []) {
    const args = call.arguments as Record<string, unknown>;
    if (typeof args.command === "string" && call.name !== "str_replace_editor") return args.command;
    if (call.name === "str_replace_editor" && typeof args.path === "string")
      return `editor ${String(args.command)} ${args.path}`;
    if (/submit/i.test(call.name)) return "submit";
  }
  const blocks = [...message.content.matchAll(bashBlock)];
  return blocks.length === 1 ? ((blocks[0] as RegExpMatchArray)[1] as string) : null;
}

function statementOf(messages: readonly ChatMessage[]): string {
  const first = messages.find((message) => message.role === "user")?.content ?? "";
  const pr = /Consider the following PR description:\n([\s\S]*?)\n<\/pr_description>/.exec(first);
  if (pr !== null) return (pr[1] as string).trim();
  const issue = /<issue>\n?([\s\S]*?)\n?<\/issue>/.exec(first);
  return (issue?.[1] ?? first).trim();
}

/** The observation body: `<output>` of mini-swe-agent's format, or the whole text. */
function outputBody(text: string): string {
  const match = /<output>\n?([\s\S]*?)\n?<\/output>/.exec(text);
  return match === null ? text : (match[1] as string);
}

/** A reply split into the policy's own output and the commands the harness ran (`[harness ran bash: ...]`). */
function splitHarness(text: string): { own: string; harness: { command: string; output: string }[] } {
  const { before, calls } = readHarnessCalls(text);
  if (calls.length === 0) return { own: text, harness: [] };
  const harness = calls
    .filter((call) => call.tool === "bash")
    .map((call) => ({ command: call.argument, output: outputBody(call.result) }));
  return { own: before, harness };
}

/** Commands the harness ran before the first step (a prelude: user messages after the task message). */
function preludeOf(messages: readonly ChatMessage[]): { command: string; output: string }[] {
  const first = messages.findIndex((message) => message.role === "user");
  const found: { command: string; output: string }[] = [];
  for (let index = first + 1; index < messages.length && messages[index]?.role === "user"; index++) {
    found.push(...splitHarness(messages[index]?.content ?? "").harness);
  }
  return found;
}

/** Steps of the conversation after the task message. */
function stepsOf(messages: readonly ChatMessage[]): ObservedStep[] {
  const steps: ObservedStep[] = [];
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const replies: string[] = [];
    const harness: { command: string; output: string }[] = [];
    for (let next = index + 1; next < messages.length; next++) {
      const reply = messages[next];
      if (reply === undefined || reply.role === "assistant") break;
      const split = splitHarness(reply.content);
      replies.push(split.own);
      harness.push(...split.harness);
    }
    steps.push({
      command: commandOfReply(message),
      output: replies.length === 0 ? null : outputBody(replies.join("\n\n")),
      ...(harness.length === 0 ? {} : { harness }),
    });
  });
  return steps;
}

const cache = new WeakMap<PolicyView, ReadView>();

/** Reads a view once (cached per view object). */
export function readView(view: PolicyView): ReadView {
  const cached = cache.get(view);
  if (cached !== undefined) return cached;
  const read = readViewUncached(view);
  cache.set(view, read);
  return read;
}

function readViewUncached(view: PolicyView): ReadView {
  const statement = statementOf(view.messages);
  const last = view.messages.at(-1);
  const read: ReadView = {
    statement,
    terms: statementTerms(statement),
    nativeTools: view.actionFormat === "tool-calls",
    bashTool: view.tools.find((tool) => tool.name === "bash"),
    submitTool:
      view.tools.find((tool) => tool.terminal === true) ?? view.tools.find((tool) => tool.name === "submit"),
    steps: stepsOf(view.messages),
    files: [],
    shown: new Map(),
    locations: [],
    searched: new Set(),
    shownRanges: new Map(),
    edits: [],
    tests: [],
    reproduced: new Set(),
    probes: new Map(),
    traceSteps: [],
    rankedTraceSteps: [],
    valuesTraceSteps: [],
    traced: new Set(),
    ranked: new Map(),
    explored: false,
    formatError: last?.role === "user" && /EXACTLY ONE action/.test(last.content),
  };
  // what the harness ran itself is read like any output the view shows, at the step it followed
  for (const call of preludeOf(view.messages)) readStep(read, call, -1);
  read.steps.forEach((step, index) => {
    readStep(read, step, index);
    for (const call of step.harness ?? []) readStep(read, call, index);
  });
  return read;
}
