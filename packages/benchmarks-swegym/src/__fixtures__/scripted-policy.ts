import type { PolicyAction, PolicyV1, PolicyView } from "@hs/spec";

/** A policy that replies with fixed texts in order (test equipment), recording every view it was shown. */
export function scriptedPolicy(
  replies: readonly (string | PolicyAction)[],
): PolicyV1 & { views: PolicyView[] } {
  const views: PolicyView[] = [];
  let index = 0;
  return {
    specificationVersion: "v1",
    id: "scripted",
    version: "1",
    views,
    async act(view: PolicyView): Promise<PolicyAction> {
      views.push(view);
      const reply = replies[Math.min(index, replies.length - 1)] ?? "";
      index += 1;
      return typeof reply === "string" ? { content: reply, logprob: 0 } : reply;
    },
  } as PolicyV1 & { views: PolicyView[] };
}
