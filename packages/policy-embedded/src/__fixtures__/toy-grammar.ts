import type { ActionGrammarV1, GrammarStep, PolicyView } from "@hs/spec";

/**
 * A toy grammar: pick an operation (`add`, `say`, `stop`), then for `add` one number seen in the last
 * user message and, for `say`, a word of it. Features: a one-hot of the option and two view cues.
 */
export function createToyGrammar(): ActionGrammarV1 {
  const featureCount = 6;
  return {
    specificationVersion: "v1",
    featureCount,
    next(view: PolicyView, chosen: readonly string[]): GrammarStep {
      const text = [...view.messages].reverse().find((message) => message.role === "user")?.content ?? "";
      const words = text.split(/\s+/).filter((word) => word.length > 0);
      const numbers = words.filter((word) => /^\d+$/.test(word));
      if (chosen.length === 0) {
        const kinds = numbers.length > 0 ? ["add", "say", "stop"] : ["say", "stop"];
        return {
          done: false,
          decision: {
            name: "operation",
            options: kinds.map((kind, index) => ({
              label: kind,
              features: [
                index === 0 ? 1 : 0,
                index === 1 ? 1 : 0,
                index === 2 ? 1 : 0,
                numbers.length / 10,
                0,
                1,
              ],
            })),
          },
        };
      }
      const kind = chosen[0] ?? "stop";
      const argument = chosen[1];
      if (kind === "stop") return { done: true, content: "stop", toolCalls: [] };
      const pool = kind === "add" ? numbers : words.slice(0, 8);
      if (argument === undefined) {
        return {
          done: false,
          decision: {
            name: kind === "add" ? "number" : "word",
            options: pool.map((item, index) => ({
              label: `${index}:${item}`,
              features: [0, 0, 0, index / 10, item.length / 10, 1],
            })),
          },
        };
      }
      const value = argument.slice(argument.indexOf(":") + 1);
      return {
        done: true,
        content: `${kind} ${value}`,
        toolCalls: [{ id: "call-0", name: kind, arguments: { value } }],
      };
    },
  };
}

/** A text view with one user message. */
export function toyView(text: string): PolicyView {
  return {
    messages: [
      { role: "system", content: "toy" },
      { role: "user", content: text },
    ],
    tools: [],
    actionFormat: "text",
  };
}
