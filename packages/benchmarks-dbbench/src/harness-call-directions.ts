import type { EvolutionLibrary } from "@hs/spec";

/** The table of a DBBench task, as its public metadata names it. */
const table = "`{metadata.tableName}`";

/**
 * The column a query's first WHERE condition filters on (`WHERE \`Venue\` = 'x'`, `WHERE Venue LIKE ...`)
 * as `column`, and the column of its last `AND` condition, when it has one, as `last`.
 */
export const filteredColumnPattern =
  "\\bWHERE\\s+`?(?<column>[^`=<>!\\n]+?)`?\\s*(?:=|!=|<>|<=|>=|<|>|\\bLIKE\\b|\\bIN\\b)(?:[\\s\\S]*\\bAND\\s+`?(?<last>[^`=<>!\\n]+?)`?\\s*(?:=|!=|<>|<=|>=|<|>|\\bLIKE\\b|\\bIN\\b))?";

/**
 * Directions that change what the policy sees and can do on DBBench (not what it is told): calls the
 * harness makes itself, each shown as `[harness ran execute_sql: ...]` and recorded as a harness call.
 */
export const dbbenchHarnessCallLibrary: Required<
  Pick<EvolutionLibrary, "preludes" | "followUps" | "checkCalls" | "macros" | "stepBudgets">
> = {
  preludes: [
    {
      header: "Before you start, the harness looked at the distinct values of each column:",
      calls: [
        {
          tool: "execute_sql",
          arguments: { query: `SELECT DISTINCT \`{item}\` FROM ${table} LIMIT 12;` },
          each: "headers",
          maxEach: 12,
        },
      ],
    },
    {
      header: "Before you start, the harness looked at the first rows of the table:",
      calls: [{ tool: "execute_sql", arguments: { query: `SELECT * FROM ${table} LIMIT 5;` } }],
    },
  ],
  followUps: [
    {
      tools: ["execute_sql"],
      resultPattern: "^\\s*\\[\\s*\\]\\s*$",
      resultFlags: "",
      capture: { source: "argument", argument: "query", pattern: filteredColumnPattern, flags: "i" },
      note: "No rows matched: a value you filtered on may be written differently in the table. The harness listed the values of the columns you filtered on:",
      calls: [
        { tool: "execute_sql", arguments: { query: `SELECT DISTINCT \`{column}\` FROM ${table} LIMIT 30;` } },
        { tool: "execute_sql", arguments: { query: `SELECT DISTINCT \`{last}\` FROM ${table} LIMIT 30;` } },
      ],
      maxPerEpisode: 2,
    },
    {
      tools: ["execute_sql"],
      resultPattern: "^\\d{4} \\([0-9A-Z]{5}\\)",
      resultFlags: "",
      capture: { source: "result", pattern: "^\\d{4} \\([0-9A-Z]{5}\\): (?<cause>[^\\n]*)", flags: "" },
      note: "The query failed ({cause}). The harness showed the table's columns and first rows:",
      calls: [{ tool: "execute_sql", arguments: { query: `SELECT * FROM ${table} LIMIT 3;` } }],
      maxPerEpisode: 2,
    },
  ],
  checkCalls: [
    {
      prompt:
        "Before committing {answer}, the harness read back the rows your last UPDATE should have reached (none means its WHERE missed them). Submit again to confirm, or fix the change.",
      calls: {
        captureTool: "execute_sql",
        capture: {
          source: "argument",
          argument: "query",
          pattern:
            "^\\s*UPDATE\\s+`?(?<table>[^`]+?)`?\\s+SET\\s[\\s\\S]*?\\sWHERE\\s+(?<where>[\\s\\S]+?);?\\s*$",
          flags: "i",
        },
        calls: [
          { tool: "execute_sql", arguments: { query: "SELECT * FROM `{table}` WHERE {where} LIMIT 10;" } },
        ],
      },
    },
    {
      prompt:
        "Before committing {answer}, the harness ran your last SELECT again; compare the answer with what it returns. Submit again to confirm, or query again.",
      calls: {
        captureTool: "execute_sql",
        capture: {
          source: "argument",
          argument: "query",
          pattern: "^(?<query>\\s*SELECT\\b[\\s\\S]*)$",
          flags: "i",
        },
        calls: [{ tool: "execute_sql", arguments: { query: "{query}" } }],
      },
    },
  ],
  macros: [
    {
      name: "distinct_values",
      description: "List the distinct values of one column of the task's table.",
      parameters: { type: "object", properties: { column: { type: "string" } }, required: ["column"] },
      steps: [
        { tool: "execute_sql", arguments: { query: `SELECT DISTINCT \`{column}\` FROM ${table} LIMIT 30;` } },
      ],
    },
    {
      name: "preview_table",
      description: "Show the first rows of the task's table.",
      parameters: { type: "object", properties: {} },
      steps: [{ tool: "execute_sql", arguments: { query: `SELECT * FROM ${table} LIMIT 10;` } }],
    },
  ],
  stepBudgets: [24, 32],
};
