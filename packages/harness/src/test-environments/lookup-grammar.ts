import type { ActionGrammarV1, GrammarStep, PolicyView } from "@hs/spec";

const kinds = ["lookup", "dump", "answer"] as const;

/**
 * Test equipment: an action grammar for the lookup test benchmark (`lookup: KEY`, `dump`, `answer: TEXT`): it
 * reads the question and the earlier tool results from the view, nothing else.
 */
export function createLookupGrammar(): ActionGrammarV1 {
  const featureCount = 8;
  return {
    specificationVersion: "v1",
    featureCount,
    next(view: PolicyView, chosen: readonly string[]): GrammarStep {
      const userMessages = view.messages.filter(
        (message) => message.role === "user" || message.role === "tool",
      );
      const question = userMessages[0]?.content ?? "";
      const results = userMessages.slice(1).map((message) => message.content);
      const seen = results.flatMap((text) => text.split(/[^A-Za-z]+/).filter((word) => word.length > 2));
      const asked = question.split(/[^A-Za-z]+/).filter((word) => word.length > 0);
      const kind = chosen[0];
      if (kind === undefined) {
        return {
          done: false,
          decision: {
            name: "kind",
            options: kinds.map((name, index) => ({
              label: name,
              features: [
                index === 0 ? 1 : 0,
                index === 1 ? 1 : 0,
                index === 2 ? 1 : 0,
                results.length / 4,
                0,
                0,
                0,
                1,
              ],
            })),
          },
        };
      }
      const pool = kind === "lookup" ? asked : kind === "answer" ? [...new Set(seen)] : [];
      if (kind !== "dump" && chosen[1] === undefined) {
        const words = pool.length > 0 ? pool : ["nothing"];
        return {
          done: false,
          decision: {
            name: kind === "lookup" ? "key" : "answer",
            options: words.map((word, index) => ({
              label: word,
              features: [
                0,
                0,
                0,
                results.length / 4,
                index === words.length - 1 ? 1 : 0,
                /^[A-Z]/.test(word) ? 1 : 0,
                word.length / 10,
                1,
              ],
            })),
          },
        };
      }
      const text = kind === "dump" ? "dump" : `${kind}: ${chosen[1] ?? ""}`;
      const toolName = kind === "answer" ? "submit" : kind;
      const argumentsObject: Record<string, string> =
        kind === "lookup" ? { key: chosen[1] ?? "" } : kind === "answer" ? { answer: chosen[1] ?? "" } : {};
      return {
        done: true,
        content: text,
        toolCalls: [{ id: "call", name: toolName, arguments: argumentsObject }],
      };
    },
  };
}
