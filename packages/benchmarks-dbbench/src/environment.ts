import {
  EnvironmentError,
  type EnvironmentV1,
  type Grade,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
} from "@hs/spec";
import {
  type DbBenchRecord,
  modificationTypes,
  recordCategory,
  recordLabel,
  recordTables,
} from "./data/dbbench-record.js";
import type { DatabaseEngine, EpisodeDatabase } from "./engines/database-engine.js";
import { fcCommitOfCall } from "./grading/fc-commit.js";
import {
  type GradingProtocol,
  gradeFcAnswer,
  gradeFcValue,
  gradeV02Answer,
  hashFromAnswerMd5,
  labelValue,
} from "./grading/grade-answer.js";
import { pythonRepr } from "./python/python-value.js";

/**
 * The argument the v0.2 preset's answer rule fills with its capture of `\nFinal Answer(:.*)`. Its own
 * name (not `answers`) tells a v0.2 text answer from an FC tool call whose string starts with a colon,
 * which AgentBench FC grades by its own rules (task.py line 172).
 */
export const v02AnswerArgument = "final_answer_line";

/**
 * The answer text v0.2 grades, from the v0.2 preset's capture of `\nFinal Answer(:.*)`: what follows
 * the colon, as `re.search(r"\nFinal Answer:(.*)", res).group(1)` gives it
 * (THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py lines 123-125). Undefined for anything
 * that is not such a capture.
 */
export function v02AnswerText(value: unknown): string | undefined {
  return typeof value === "string" && value.startsWith(":") ? value.slice(1) : undefined;
}

/** What an episode committed: a v0.2 `Final Answer:` line, or a tool call's arguments. */
type Committed =
  | { kind: "v0.2-line"; line: string }
  | { kind: "tool-call"; arguments: Readonly<Record<string, unknown>>; argumentsText?: string };

/** How an environment decides which AgentBench grader applies. */
export type ProtocolChoice = GradingProtocol | "auto";

/**
 * The two tools, as AgentBench FC declares them (configs/tasks/dbbench.yaml). `commit_final_answer`
 * commits its first argument's value, as AgentBench FC reads it (task.py line 172); the v0.2 preset's
 * answer rule fills `final_answer_line` instead.
 */
export const dbbenchTools: readonly ToolSpec[] = [
  {
    name: "execute_sql",
    description: "Executes a given SQL statement on the database and returns the result.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "The SQL query to be executed." } },
      required: ["query"],
      additionalProperties: false,
    },
  },
  {
    name: "commit_final_answer",
    description: "Commits the final answer after all operations are completed.",
    parameters: {
      type: "object",
      properties: {
        answers: {
          type: "array",
          items: { type: "string" },
          description: "The list of final answers to commit.",
        },
      },
      required: ["answers"],
      additionalProperties: false,
    },
    terminal: true,
  },
];

/** Options of one DBBench environment. */
export interface DbBenchEnvironmentOptions {
  /** Engine that creates the episode database. */
  engine: DatabaseEngine;
  /**
   * Grader choice; `auto` reads it from the committed answer: the v0.2 preset's capture of a `Final
   * Answer:` line (the `final_answer_line` argument) is graded by v0.2, a tool call's arguments by FC,
   * and an episode that committed nothing by v0.2 (v0.2 hashes the table whether or not it answered).
   */
  protocol: ProtocolChoice;
  /** Clock for elapsed times. */
  now: () => number;
}

/** AgentBench v0.2 turns the SQL into one line before executing it (`sql.strip().replace("\n", " ")`). */
function v02Sql(sql: string): string {
  return sql.trim().replaceAll("\n", " ");
}

/** One DBBench episode: one database, `execute_sql`, `commit_final_answer`, AgentBench grading. */
export class DbBenchEnvironment implements EnvironmentV1 {
  readonly specificationVersion = "v1" as const;
  readonly tools = dbbenchTools;
  private database: EpisodeDatabase | undefined;
  private committed: Committed | undefined;
  private closed = false;

  constructor(
    private readonly record: DbBenchRecord,
    private readonly options: DbBenchEnvironmentOptions,
  ) {}

  async reset(): Promise<void> {
    if (this.closed) throw new EnvironmentError("environment is closed");
    if (this.database !== undefined) await this.database.close();
    this.committed = undefined;
    this.database = await this.options.engine.createDatabase(recordTables(this.record));
  }

  async step(call: ToolCall): Promise<ToolResult> {
    const started = this.options.now();
    const finish = (result: Omit<ToolResult, "elapsedMs">): ToolResult => ({
      ...result,
      elapsedMs: Math.max(0, this.options.now() - started),
    });
    if (this.database === undefined) throw new EnvironmentError("step() before reset()");
    if (this.committed !== undefined) {
      return finish({ content: "Error: the final answer was already committed.", isError: true, done: true });
    }
    if (call.name === "execute_sql") {
      const query = call.arguments.query ?? Object.values(call.arguments)[0];
      if (typeof query !== "string") {
        return finish({
          content: "Error: execute_sql expects a string argument 'query'.",
          isError: true,
          done: false,
        });
      }
      const sql = this.options.protocol === "v0.2" ? v02Sql(query) : query;
      const outcome = await this.database.execute(sql);
      if (!outcome.ok) {
        return finish({
          content: outcome.message,
          isError: true,
          done: false,
          data: { reason: outcome.reason },
        });
      }
      const content = pythonRepr({
        kind: "list",
        items: outcome.rows.map((row) => ({ kind: "tuple", items: row })),
      });
      return finish({
        content,
        isError: false,
        done: false,
        data: { rowCount: outcome.rows.length, columns: outcome.columns, affectedRows: outcome.affectedRows },
      });
    }
    if (call.name === "commit_final_answer") {
      const line = call.arguments[v02AnswerArgument];
      this.committed =
        typeof line === "string"
          ? { kind: "v0.2-line", line }
          : {
              kind: "tool-call",
              arguments: call.arguments,
              ...(call.argumentsText === undefined ? {} : { argumentsText: call.argumentsText }),
            };
      return finish({ content: "Final answer committed.", isError: false, done: true });
    }
    return finish({
      content: "Invalid function call. Please call a tool instead.",
      isError: true,
      done: false,
    });
  }

  private protocolOfEpisode(): GradingProtocol {
    if (this.options.protocol !== "auto") return this.options.protocol;
    return this.committed?.kind === "tool-call" ? "fc" : "v0.2";
  }

  private async expectedHash(): Promise<string | null> {
    if (this.record.answer_md5 !== undefined && this.record.answer_md5 !== "")
      return hashFromAnswerMd5(this.record.answer_md5);
    const tables = recordTables(this.record);
    const reference = await this.options.engine.createDatabase(tables);
    try {
      const sql = recordLabel(this.record)[0] ?? this.record.sql?.query ?? "";
      await reference.execute(sql);
      return await reference.tableHash(tables);
    } finally {
      await reference.close();
    }
  }

  /** Under FC, a commit AgentBench's task.py cannot read ends the episode in a task error (lines 172-176). */
  private fcCommitProblem(): string | undefined {
    if (this.committed === undefined) return "no answer committed";
    if (this.committed.kind !== "tool-call") return undefined;
    const commit = fcCommitOfCall(this.committed);
    return commit.ok ? undefined : commit.reason;
  }

  private async gradeModification(protocol: GradingProtocol, category: string): Promise<Grade> {
    const committed = this.committed !== undefined;
    const problem = protocol === "fc" ? this.fcCommitProblem() : undefined;
    if (problem !== undefined)
      return { reward: 0, success: false, details: { protocol, category, reason: problem } };
    const tables = recordTables(this.record);
    const actual = await (this.database as EpisodeDatabase).tableHash(tables);
    const expected = await this.expectedHash();
    // an emptied table hashes to NULL on both sides, `[(None,)]`, and AgentBench counts that as equal
    // (v0.2 __init__.py lines 148 and 187: `str(answer) == cor`; FC result_processor.py lines 27-28,
    // where both sides normalise "None" to "0")
    const success = actual === expected;
    return {
      reward: success ? 1 : 0,
      success,
      details: { protocol, category, committed, expectedHash: expected, actualHash: actual },
    };
  }

  private gradeQuery(protocol: GradingProtocol): boolean {
    const committed = this.committed as Committed;
    const label = this.record.label;
    if (committed.kind === "v0.2-line") {
      return protocol === "v0.2"
        ? gradeV02Answer(v02AnswerText(committed.line) ?? committed.line, label)
        : gradeFcAnswer(committed.line, label);
    }
    if (protocol === "fc") {
      const commit = fcCommitOfCall(committed);
      return commit.ok && gradeFcValue(commit.value, { kind: "list", items: label.map(labelValue) });
    }
    // a tool call graded by v0.2's rules (protocol "v0.2"): a string as the text after "Final Answer:",
    // a list as the Python list of its items' text
    const answer = committed.arguments.answers ?? Object.values(committed.arguments)[0] ?? null;
    const text =
      typeof answer === "string"
        ? (v02AnswerText(answer) ?? answer)
        : pythonRepr({
            kind: "list",
            items: (Array.isArray(answer) ? answer : [answer]).map((item) => ({
              kind: "str",
              value: String(item),
            })),
          });
    return gradeV02Answer(text, label);
  }

  async grade(): Promise<Grade> {
    if (this.database === undefined) throw new EnvironmentError("grade() before reset()");
    const category = recordCategory(this.record);
    const protocol = this.protocolOfEpisode();
    if (modificationTypes.has(category)) return this.gradeModification(protocol, category);
    const problem =
      this.committed === undefined
        ? "no answer committed"
        : protocol === "fc"
          ? this.fcCommitProblem()
          : undefined;
    if (this.committed === undefined || problem !== undefined) {
      return { reward: 0, success: false, details: { protocol, category, reason: problem } };
    }
    const success = this.gradeQuery(protocol);
    const answer =
      this.committed.kind === "v0.2-line"
        ? this.committed.line
        : (Object.values(this.committed.arguments)[0] ?? null);
    return {
      reward: success ? 1 : 0,
      success,
      details: { protocol, category, answer, label: recordLabel(this.record) },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const database = this.database;
    this.database = undefined;
    if (database !== undefined) await database.close();
  }
}
