import type { ChatMessage, PolicyView } from "@hs/spec";

/** The first turns of an AgentBench v0.2 DB episode (instruction prompt, "Ok.", the task). */
export function v02Messages(description: string, table: string, headers: readonly string[]): ChatMessage[] {
  return [
    {
      role: "user",
      content:
        'I will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.\nAction: Operation\n```sql\nSELECT * FROM table WHERE condition;\n```\nAction: Answer\nFinal Answer: ["ANSWER1", "ANSWER2", ...]',
    },
    { role: "assistant", content: "Ok." },
    {
      role: "user",
      content: `${description}\nThe name of this table is ${table}, and the headers of this table are ${headers.join(",")}.`,
    },
  ];
}

/** A text-protocol view with earlier (reply, result) turns appended. */
export function v02View(
  description: string,
  table: string,
  headers: readonly string[],
  turns: readonly [string, string][] = [],
): PolicyView {
  const messages = v02Messages(description, table, headers);
  for (const [reply, result] of turns) {
    messages.push({ role: "assistant", content: reply }, { role: "user", content: result });
  }
  return { messages, tools: [], actionFormat: "text" };
}
