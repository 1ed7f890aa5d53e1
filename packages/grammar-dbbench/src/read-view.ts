import { parseResultRows } from "@hs/benchmarks-dbbench";
import { readHarnessCalls } from "@hs/harness";
import type { ChatMessage, PolicyView, ToolSpec } from "@hs/spec";

/** What one earlier action did, as the view shows it. */
export interface ObservedAction {
  /** The SQL the policy sent (null for an answer or an unreadable reply). */
  sql: string | null;
  /** Statement kind read from the SQL. */
  kind: "select" | "insert" | "update" | "other" | "none";
  /** The text shown in reply (null when the reply is not in the view). */
  result: string | null;
  /** Rows parsed from a result that reads as a Python list of tuples (AgentBench's raw MySQL reply). */
  rows: string[][] | null;
  /** Columns a `SELECT DISTINCT col` or `SELECT *` put in each result column (null when unknown). */
  columns: (string | null)[] | null;
  /** Whether the reply reads as an error. */
  isError: boolean;
  /** The answer list the policy submitted (null when the action is not an answer). */
  answer: string[] | null;
}

/** The rendered view, read the way a reader of the prompt would. */
export interface ReadView {
  /** The question or instruction (the task message before the table description). */
  instruction: string;
  /** Table name from `The name of this table is ...`. */
  table: string;
  /** Headers from `... the headers of this table are A,B,C.` */
  headers: string[];
  /** Everything else the prompt says (system text, hints), lower-cased, for cue features. */
  guidance: string;
  /** Earlier actions with their replies, oldest first. */
  actions: ObservedAction[];
  /** Cells seen per header (from results whose columns are known). */
  cellsByColumn: Map<string, Set<string>>;
  /** Every cell seen in any result. */
  allCells: Set<string>;
  /** SQL the harness ran by itself (a prelude, a follow-up, a check), with its rows; never the policy's actions. */
  harnessResults: { sql: string; rows: string[][] | null }[];
  /** Whether the reply format is native tool calls. */
  nativeTools: boolean;
  /** The tool that executes SQL and the one that submits (native format). */
  sqlTool: ToolSpec | undefined;
  /** The terminal answer tool (native format). */
  answerTool: ToolSpec | undefined;
}

const tableSentence = /The name of this table is (.+?), and the headers of this table are ([^\n]*)/;

/** Reads the SQL out of an assistant reply (a ```sql block, or an execute-sql tool call). */
export function sqlOfReply(message: ChatMessage): string | null {
  for (const call of message.toolCalls ?? []) {
    for (const value of Object.values(call.arguments)) {
      if (typeof value === "string" && /^\s*(select|insert|update|delete|with|show|describe)\b/i.test(value))
        return value;
    }
  }
  const block = /```sql\s*\n?([\s\S]*?)```/i.exec(message.content);
  return block?.[1]?.trim() ?? null;
}

/** Reads a submitted answer list (`Final Answer: [...]` or the arguments of an answer tool call). */
export function answerOfReply(message: ChatMessage): string[] | null {
  const asList = (value: unknown): string[] | null =>
    Array.isArray(value) ? value.map((item) => String(item)) : null;
  const parse = (text: string): string[] | null => {
    try {
      return asList(JSON.parse(text));
    } catch {
      return null;
    }
  };
  for (const call of message.toolCalls ?? []) {
    if (!/answer|commit|submit/i.test(call.name)) continue;
    for (const value of Object.values(call.arguments)) {
      const list = typeof value === "string" ? parse(value) : asList(value);
      if (list !== null) return list;
    }
  }
  const line = /Final Answer:\s*(.*)/.exec(message.content);
  return line?.[1] === undefined ? null : parse(line[1].trim());
}

function statementKind(sql: string | null): ObservedAction["kind"] {
  if (sql === null) return "none";
  const head = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
  if (head === "select") return "select";
  if (head === "insert") return "insert";
  if (head === "update") return "update";
  return "other";
}

function unquoteIdentifier(text: string): string {
  const trimmed = text.trim();
  if (
    (trimmed.startsWith("`") && trimmed.endsWith("`")) ||
    (trimmed.startsWith('"') && trimmed.endsWith('"'))
  ) {
    return trimmed.slice(1, -1);
  }
  return trimmed;
}

function resultColumns(sql: string | null, headers: readonly string[]): (string | null)[] | null {
  if (sql === null) return null;
  if (/^\s*select\s+\*\s+from/i.test(sql)) return [...headers];
  const distinct = /^\s*select\s+(?:distinct\s+)?(`[^`]+`|[^\s,()]+)\s+from/i.exec(sql);
  if (distinct?.[1] !== undefined) {
    const name = unquoteIdentifier(distinct[1]);
    return headers.includes(name) ? [name] : null;
  }
  return null;
}

function isErrorReply(text: string): boolean {
  return (
    /^\s*\d{4} \([0-9A-Z]{5}\)/.test(text) ||
    /^\s*error\b/i.test(text) ||
    /\berror\b.*\b(sql|syntax)\b/i.test(text)
  );
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

/**
 * The question of the task message. v0.2 puts it first (`description\nadd_description`, the table
 * sentence last); FC writes `Evidence about the question: ...`, `Additional table information about
 * the question: <table sentence>` and then `Question: <description>` (THUDM/AgentBench main
 * src/server/tasks/dbbench/task.py lines 110-113), so a `Question:` line after the table sentence is it.
 */
function instructionOf(taskMessage: string, match: RegExpExecArray | null): string {
  if (match === null) return taskMessage;
  const question = /^Question: (.*)$/m.exec(taskMessage.slice(match.index));
  if (question !== null) return (question[1] as string).trim();
  return taskMessage.slice(0, match.index).trim();
}

/** The index of the task message: the last user message with the table sentence (-1: none). */
function taskMessageIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user" && tableSentence.test(message.content)) return index;
  }
  return -1;
}

/** The table, its headers and the question, from the task message. */
function taskOf(taskMessage: string): Pick<ReadView, "instruction" | "table" | "headers"> {
  const match = tableSentence.exec(taskMessage);
  const table = match?.[1]?.trim() ?? "";
  const headerText = (match?.[2] ?? "").trim().replace(/\.$/, "");
  const headers = headerText.length === 0 ? [] : headerText.split(",").map((header) => header.trim());
  return { instruction: instructionOf(taskMessage, match), table, headers };
}

/** The cells the view's results showed, and the SQL the harness ran by itself with its rows. */
type SeenResults = Pick<ReadView, "cellsByColumn" | "allCells" | "harnessResults">;

function addCells(
  seen: SeenResults,
  rows: readonly string[][] | null,
  columns: readonly (string | null)[] | null,
): void {
  for (const row of rows ?? []) {
    row.forEach((cell, position) => {
      seen.allCells.add(cell);
      const column = columns?.[position];
      if (column === undefined || column === null) return;
      const set = seen.cellsByColumn.get(column) ?? new Set<string>();
      set.add(cell);
      seen.cellsByColumn.set(column, set);
    });
  }
}

/** The text of a reply without the harness's own calls, whose rows count as seen cells. */
function policyPart(seen: SeenResults, headers: readonly string[], text: string): string {
  const { before, calls } = readHarnessCalls(text);
  for (const call of calls) {
    const rows = parseResultRows(call.result) ?? null;
    seen.harnessResults.push({ sql: call.argument, rows });
    addCells(seen, rows, rows === null ? null : resultColumns(call.argument, headers));
  }
  return calls.length === 0 ? text : before;
}

/** The policy's action of an assistant message, with the replies up to the next assistant message. */
function actionAt(
  messages: readonly ChatMessage[],
  index: number,
  headers: readonly string[],
  seen: SeenResults,
): ObservedAction {
  const message = messages[index] as ChatMessage;
  const sql = sqlOfReply(message);
  const replies: string[] = [];
  for (let next = index + 1; next < messages.length; next++) {
    const reply = messages[next];
    if (reply === undefined || reply.role === "assistant") break;
    if (reply.role === "tool" || reply.role === "user")
      replies.push(policyPart(seen, headers, reply.content));
  }
  const result = replies.length === 0 ? null : replies.join("\n\n");
  const rows = result === null ? null : (parseResultRows(result) ?? null);
  const isError = result !== null && rows === null && isErrorReply(result);
  const columns = rows === null ? null : resultColumns(sql, headers);
  const answer = sql === null ? answerOfReply(message) : null;
  addCells(seen, rows, columns);
  return { sql, kind: statementKind(sql), result, rows, columns, isError, answer };
}

function readViewUncached(view: PolicyView): ReadView {
  const messages = view.messages;
  const taskIndex = taskMessageIndex(messages);
  const { instruction, table, headers } = taskOf(messages[taskIndex]?.content ?? "");
  const guidance = messages
    .filter((message, index) => message.role === "system" || (message.role === "user" && index <= taskIndex))
    .map((message) => message.content)
    .join("\n")
    .toLowerCase();
  const seen: SeenResults = { cellsByColumn: new Map(), allCells: new Set(), harnessResults: [] };
  // the harness's prelude: the user messages right after the task message
  for (let index = taskIndex + 1; index < messages.length && messages[index]?.role === "user"; index++) {
    policyPart(seen, headers, messages[index]?.content ?? "");
  }
  const actions: ObservedAction[] = [];
  for (let index = taskIndex + 1; index < messages.length; index++) {
    if (messages[index]?.role === "assistant") actions.push(actionAt(messages, index, headers, seen));
  }
  const sqlTool = view.tools.find(
    (tool) => /sql|operation|query|execute/i.test(tool.name) && tool.terminal !== true,
  );
  const answerTool =
    view.tools.find((tool) => tool.terminal === true) ??
    view.tools.find((tool) => /answer|commit|submit/i.test(tool.name));
  const nativeTools = view.actionFormat === "tool-calls";
  return { instruction, table, headers, guidance, actions, ...seen, nativeTools, sqlTool, answerTool };
}
