import {
  EnvironmentError,
  type EnvironmentV1,
  type Grade,
  type ToolCall,
  type ToolResult,
  type ToolSpec,
} from "@hs/harness";
import {
  type DbBenchRecord,
  modificationTypes,
  recordCategory,
  recordLabel,
  recordTables,
} from "./data/dbbench-record.js";
import type { DatabaseEngine, EpisodeDatabase } from "./engines/database-engine.js";
import {
  type GradingProtocol,
  gradeFcAnswer,
  gradeV02Answer,
  hashFromAnswerMd5,
} from "./grading/grade-answer.js";
import { pythonRepr } from "./python/python-value.js";

/**
 * The answer text v0.2 grades, from the v0.2 preset's capture of `\nFinal Answer(:.*)`: what follows
 * the colon, untrimmed, as `re.search(r"\nFinal Answer:(.*)", res).group(1)` gives it
 * (THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py lines 123-125). Undefined for anything
 * that is not such a capture.
 */
export function v02AnswerText(value: unknown): string | undefined {
  return typeof value === "string" && value.startsWith(":") ? value.slice(1) : undefined;
}

/** How an environment decides which AgentBench grader applies. */
export type ProtocolChoice = GradingProtocol | "auto";

/**
 * The two tools, as AgentBench FC declares them (configs/tasks/dbbench.yaml). `commit_final_answer`
 * also accepts `answers` as the raw `[...]` text of v0.2's "Final Answer:" line.
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
   * Answer:` line (text starting with the colon) is graded by v0.2, anything else (an FC tool call's
   * list or string) by FC.
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
  private committed: { value: unknown } | undefined;
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
      const value = call.arguments.answers ?? Object.values(call.arguments)[0] ?? null;
      this.committed = { value };
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
    if (this.committed !== undefined && v02AnswerText(this.committed.value) === undefined) return "fc";
    return "v0.2";
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

  async grade(): Promise<Grade> {
    if (this.database === undefined) throw new EnvironmentError("grade() before reset()");
    const category = recordCategory(this.record);
    const protocol = this.protocolOfEpisode();
    const committed = this.committed !== undefined;
    if (modificationTypes.has(category)) {
      if (protocol === "fc" && !committed) {
        return { reward: 0, success: false, details: { protocol, category, reason: "no answer committed" } };
      }
      const tables = recordTables(this.record);
      const actual = await this.database.tableHash(tables);
      const expected = await this.expectedHash();
      const success = actual !== null && actual === expected;
      return {
        reward: success ? 1 : 0,
        success,
        details: { protocol, category, committed, expectedHash: expected, actualHash: actual },
      };
    }
    if (!committed) {
      return { reward: 0, success: false, details: { protocol, category, reason: "no answer committed" } };
    }
    const answer = this.committed?.value;
    const label = recordLabel(this.record);
    const success =
      protocol === "v0.2"
        ? gradeV02Answer(
            typeof answer === "string"
              ? (v02AnswerText(answer) ?? answer)
              : pythonRepr({
                  kind: "list",
                  items: (Array.isArray(answer) ? answer : [answer]).map((item) => ({
                    kind: "str",
                    value: String(item),
                  })),
                }),
            label,
          )
        : gradeFcAnswer(answer, label);
    return { reward: success ? 1 : 0, success, details: { protocol, category, answer, label } };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const database = this.database;
    this.database = undefined;
    if (database !== undefined) await database.close();
  }
}
