import type { PolicyAction, PolicyV1, PolicyView } from "@hs/spec";

/** One scripted reply: text, a full action, or a function of the view. */
export type ScriptedReply =
  | string
  | PolicyAction
  | ((view: PolicyView, seed: number) => PolicyAction | string);

/**
 * Test equipment: a policy that replays replies in order (the last one repeats). It records every
 * view it was shown in `views`.
 */
export function createScriptedPolicy(
  replies: readonly ScriptedReply[],
  id = "scripted",
): PolicyV1 & { views: PolicyView[] } {
  const views: PolicyView[] = [];
  return {
    specificationVersion: "v1",
    id,
    version: "0",
    views,
    async act(view, options) {
      const reply = replies[Math.min(views.length, replies.length - 1)];
      views.push(view);
      if (reply === undefined) throw new Error("scripted policy has no replies");
      const value = typeof reply === "function" ? reply(view, options.seed) : reply;
      return typeof value === "string" ? { content: value, logprob: null } : value;
    },
  };
}
