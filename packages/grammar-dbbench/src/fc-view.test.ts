import { dbbenchTools, fcPreset } from "@hs/benchmarks-dbbench";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createDbBenchGrammar } from "./dbbench-grammar.js";
import { readView } from "./read-view.js";

// The FC task message (THUDM/AgentBench main src/server/tasks/dbbench/task.py lines 110-113): the table
// sentence rides on the `Additional table information` line and the question follows as `Question: ...`.
const taskMessage =
  "Additional table information about the question: The name of this table is Scorers, and the headers of this table are Player,Team,Points.\nQuestion: How many points did Ann score?\n";
const system = fcPreset.prompt.system ?? "";

function fcView(turns: PolicyView["messages"] = []): PolicyView {
  return {
    messages: [{ role: "system", content: system }, { role: "user", content: taskMessage }, ...turns],
    tools: [...dbbenchTools],
    actionFormat: "tool-calls",
  };
}

describe("the grammar under the FC preset", () => {
  it("reads the question from the Question line and the table from the table sentence", () => {
    const read = readView(fcView());
    expect(read.instruction).toBe("How many points did Ann score?");
    expect(read.table).toBe("Scorers");
    expect(read.headers).toEqual(["Player", "Team", "Points"]);
  });

  it("answers with the commit tool's list argument, read from the tool result", () => {
    const grammar = createDbBenchGrammar();
    const view = fcView([
      {
        role: "assistant",
        content: "",
        toolCalls: [
          {
            id: "c1",
            name: "execute_sql",
            arguments: { query: "SELECT `Points` FROM `Scorers` WHERE `Player` = 'Ann';" },
          },
        ],
      },
      { role: "tool", content: "[('12',)]", toolCallId: "c1", name: "execute_sql" },
    ]);
    const step = grammar.next(view, ["kind:answer", "result:0", "format:all"]);
    expect(step.done && step.toolCalls).toEqual([
      { id: "call-answer", name: "commit_final_answer", arguments: { answers: ["12"] } },
    ]);
  });
});
