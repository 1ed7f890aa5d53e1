import { parseHarnessConfig } from "@hs/harness";
import type { HarnessConfig } from "@hs/spec";
import { v02AnswerArgument } from "./environment.js";

/**
 * AgentBench v0.2's instruction prompt, injected as the first user turn and answered "Ok.".
 * Source: THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py (`big_prompt`, `start_sample`).
 */
export const v02InstructionPrompt = `
I will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.
You have to explain the problem and your solution to me and write down your thoughts.
After thinking and explaining thoroughly, every round you can choose to operate or to answer.
your operation should be like this:
Action: Operation
\`\`\`sql
SELECT * FROM table WHERE condition;
\`\`\`
You MUST put SQL in markdown format without any other comments. Your SQL should be in one line.
Every time you can only execute one SQL statement. I will only execute the statement in the first SQL code block. Every time you write a SQL, I will execute it for you and give you the output.
If you are done operating, and you want to commit your final answer, then write down:
Action: Answer
Final Answer: ["ANSWER1", "ANSWER2", ...]
DO NOT write this pattern unless you are sure about your answer. I expect an accurate and correct answer.
Your answer should be accurate. Your answer must be exactly the same as the correct answer.
If the question is about modifying the database, then after done operation, your answer field can be anything.
If your response cannot match any pattern I mentioned earlier, you will be judged as FAIL immediately.
Your input will be raw MySQL response, you have to deal with it by yourself.
`;

/**
 * AgentBench FC's system prompt. Source: THUDM/AgentBench (main, "AgentBench FC")
 * src/server/tasks/dbbench/task.py (`SYSTEM_PROMPT`).
 */
export const fcSystemPrompt = `I will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.
You have to explain the problem and your solution to me and write down your thoughts.
After thinking and explaining thoroughly, every round you can choose to operate or to answer with the two specific tools provided.
If you should execute a SQL query, use the \`execute_sql\` function, Your SQL should be in one line.
Every time you can only execute one SQL statement. I will only execute the statement in the first SQL code block. Every time you write a SQL, I will execute it for you and give you the output.
If you are done operating, and you want to commit your final answer, then use the \`commit_final_answer\` function.
DO NOT use this tool unless you are sure about your answer. I expect an accurate and correct answer.
Your answer should be accurate. Your answer must be exactly the same as the correct answer.
If the question is about modifying the database, then after done operation, your answer field can be anything.
If your response cannot match any pattern I mentioned earlier, you will be judged as FAIL immediately.
You should always use the tools provided to submit your answer. Be careful not to write it in the content field.
Your input will be raw MySQL response, you have to deal with it by yourself.`;

/**
 * v0.2 reads the first `Action: X` line (`re.search(r"Action: (.*?)\n", res)`); when X is exactly
 * `Operation` it executes the first ```sql block (`r"```sql\n([\s\S]*?)\n```"`), and a missing block
 * fails the episode. Otherwise it takes `r"\nFinal Answer:(.*)"` untrimmed (`group(1)`, v0.2
 * __init__.py line 123-125); a reply matching neither fails.
 * The two rules below encode exactly that order (the lookaheads pin "the first Action line").
 */
const firstActionIsOperation = "(?:(?!Action: [^\\n]*\\n)[\\s\\S])*Action: Operation\\n";

/** Both protocols cut results at 800 characters with `[TRUNCATED]` (AgentBench interaction.py) and keep every turn. */
const agentBenchContext: HarnessConfig["context"] = {
  keepLastTurns: null,
  truncateObservationChars: 800,
  truncationMarker: "[TRUNCATED]",
  pinTask: true,
};

/** Both protocols expose the SQL tool and the answer tool, no macros. */
const agentBenchTools: HarnessConfig["tools"] = {
  expose: ["execute_sql", "commit_final_answer"],
  macros: [],
};

/** The AgentBench v0.2 text protocol as a base harness. */
export const v02Preset: HarnessConfig = parseHarnessConfig({
  schemaVersion: 1,
  id: "dbbench-v0.2-base",
  description:
    "AgentBench v0.2 DBBench protocol (THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py, configs/tasks/dbbench.yaml): " +
    "instruction prompt as a user turn answered 'Ok.', question + table description, 'Action: Operation' with a sql block or " +
    "'Action: Answer' with 'Final Answer: [...]', 15 operations then one answer round, results cut at 800 characters with " +
    "'[TRUNCATED]' (Interaction.py), an unparsable reply fails the episode.",
  prompt: {
    system: "",
    taskTemplate: "{instruction}",
    hints: [],
    hintPlacement: "task",
    examples: [
      { role: "user", content: v02InstructionPrompt },
      { role: "assistant", content: "Ok." },
    ],
  },
  actionFormat: {
    kind: "text",
    rules: [
      {
        tool: "execute_sql",
        pattern: `^(?=${firstActionIsOperation})[\\s\\S]*?\`\`\`sql\\n([\\s\\S]*?)\\n\`\`\``,
        flags: "",
        arguments: { query: 1 },
      },
      {
        tool: "commit_final_answer",
        // the capture keeps the colon and is not trimmed: AgentBench takes `group(1)` as it is (v0.2
        // task.py lines 123-125), so `" Giza"` and a trailing no-break space reach the grader; the
        // environment takes the text after the colon; its own argument name tells it from an FC string
        pattern: `^(?!${firstActionIsOperation})[\\s\\S]*?\\nFinal Answer(:[^\\n]*)`,
        flags: "",
        arguments: { [v02AnswerArgument]: 1 },
        trim: false,
      },
    ],
  },
  context: agentBenchContext,
  errorRecovery: {
    toolErrorTemplate: "{error}",
    malformedActionTemplate: "",
    maxReprompts: 0,
    toolErrorSuffix: "",
  },
  budget: { maxSteps: 16, maxOutputChars: null },
  tools: agentBenchTools,
  verification: { enabled: false, prompt: "", maxChecks: 0 },
});

/** The AgentBench FC (function-calling) protocol as a base harness. */
export const fcPreset: HarnessConfig = parseHarnessConfig({
  schemaVersion: 1,
  id: "dbbench-fc-base",
  description:
    "AgentBench FC DBBench protocol (THUDM/AgentBench src/server/tasks/dbbench/task.py, configs/tasks/dbbench.yaml): " +
    "system prompt, evidence/table information and question, native tools execute_sql and commit_final_answer, 15 rounds, " +
    "a reply without tool calls is answered 'Internal error: No tool calls found despite finish reason.' and costs a round, " +
    "results cut at 800 characters with '[TRUNCATED]' (interaction.py).",
  prompt: {
    system: fcSystemPrompt,
    taskTemplate: "{metadata.fcContext}Question: {metadata.description}\n",
    hints: [],
    hintPlacement: "task",
    examples: [],
  },
  actionFormat: { kind: "tool-calls" },
  context: agentBenchContext,
  errorRecovery: {
    toolErrorTemplate: "{error}",
    malformedActionTemplate: "Internal error: No tool calls found despite finish reason.",
    maxReprompts: 15,
    toolErrorSuffix: "",
  },
  budget: { maxSteps: 15, maxOutputChars: null },
  tools: agentBenchTools,
  verification: { enabled: false, prompt: "", maxChecks: 0 },
});

/** Both presets by name. */
export const dbbenchPresets: Readonly<Record<string, HarnessConfig>> = { "v0.2": v02Preset, fc: fcPreset };
