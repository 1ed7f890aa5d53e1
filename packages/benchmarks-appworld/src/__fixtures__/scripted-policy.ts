import type { PolicyAction, PolicyV1, PolicyView } from "@hs/spec";

/** A policy that replies with fixed texts in order and records every view it was shown. */
export function scriptedPolicy(replies: readonly string[]): PolicyV1 & { views: PolicyView[] } {
  const views: PolicyView[] = [];
  return {
    specificationVersion: "v1",
    id: "scripted",
    version: "0",
    views,
    async act(view: PolicyView): Promise<PolicyAction> {
      views.push(view);
      return { content: replies[views.length - 1] ?? "I am done.", logprob: null };
    },
  };
}
