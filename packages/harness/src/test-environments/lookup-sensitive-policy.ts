import type { PolicyV1, PolicyView } from "@hs/spec";

/**
 * Test equipment: a deterministic policy for the lookup benchmark whose behaviour depends on what the
 * harness shows it, the way an LLM's does. France and Peru are guessed ("Paris") unless a hint says to
 * use a tool first or a check asks to submit again; Japan is looked up only after five dumps (needs more
 * than 6 steps); Kenya is misspelt first and retried only when the error text says to retry.
 */
export function createLookupSensitivePolicy(): PolicyV1 {
  return {
    specificationVersion: "v1",
    id: "lookup-sensitive",
    version: "1",
    async act(view: PolicyView) {
      const all = view.messages.map((message) => message.content).join("\n");
      const country = /capital of (\w+)\?/.exec(all)?.[1] ?? "france";
      const assistants = view.messages.filter((message) => message.role === "assistant");
      const previous = assistants[assistants.length - 1]?.content ?? "";
      const last = view.messages[view.messages.length - 1]?.content ?? "";
      const reply = (content: string) => ({ content, logprob: null });
      if (/^lookup: /.test(previous) && !/error|no such key/i.test(last))
        return reply(`answer: ${last.trim()}`);
      const hinted = /before you answer/i.test(all);
      const checking = /submit again/i.test(last);
      const retryHelp = /retry|again/i.test(last) && /no such key/i.test(last);
      if (country === "japan") {
        return reply(assistants.length < 5 ? "dump" : "lookup: japan");
      }
      if (country === "kenya") {
        if (assistants.length === 0) return reply("lookup: kenia");
        return reply(retryHelp || checking || hinted ? "lookup: kenya" : "answer: unknown");
      }
      return reply(hinted || checking ? `lookup: ${country}` : "answer: Paris");
    },
  };
}
