import { renderHarnessCall } from "@hs/harness";
import {
  decisionProbability,
  firstOptionsAfter,
  harnessCallCredit,
  rescueUpdate,
} from "@hs/learner-embedded";
import { createEmbeddedPolicy, type EmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyView, ToolCall, TrajectoryStep } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { episode } from "./__fixtures__/episode-views.js";
import { createAppWorldGrammar } from "./appworld-grammar.js";

const grammar = createAppWorldGrammar();
const last = episode("contactrelcount_1").views.at(-1) as PolicyView;

function after(view: PolicyView, code: string, reply: string): PolicyView {
  const cell = { role: "assistant" as const, content: `Next.\n\`\`\`python\n${code}\n\`\`\`` };
  return { ...view, messages: [...view.messages, cell, { role: "user", content: reply }] };
}

const refusedCall = "print(apis.phone.show_account(access_token=phone_token, verbose=True))";
const refused =
  'Execution failed. Traceback:\n  File "<cell>", line 1, in <module>\nException: Response status code is 422:\n{"message": "Unexpected argument: verbose."}';
const docCall: ToolCall = {
  id: "call-9.follow-up-1.0",
  name: "execute",
  arguments: { code: "print(apis.api_docs.show_api_doc(app_name='phone', api_name='show_account'))" },
};
const doc =
  "{'api_name': 'show_account', 'description': 'Show your phone account details.', 'parameters': [{'name': 'access_token', 'type': 'string', 'required': True, 'description': 'Access token.', 'default': None, 'constraints': []}]}";
// what the error-recovery sibling of the evolution library appends after the refusal
const followUpFeedback = `The call of apis.phone.show_account was refused (a wrong API name or argument). The harness showed its doc:\n\n${renderHarnessCall("execute", docCall.arguments, doc)}`;
const base = after(last, refusedCall, refused);
const sibling = after(last, refusedCall, `${refused}\n\n${followUpFeedback}`);

function step(index: number, view: PolicyView, extra: Partial<TrajectoryStep> = {}): TrajectoryStep {
  const action = { content: "", logprob: null };
  return {
    index,
    view,
    action,
    parsed: [],
    executed: [],
    feedback: "",
    events: [],
    policyMs: 0,
    environmentMs: 0,
    ...extra,
  };
}

/** The sibling's rescued steps: the refused call, then (the doc shown by the harness) the next cell. */
const rescued = {
  steps: [
    step(0, last, {
      harnessCalls: [{ call: docCall, result: { content: doc, isError: false, done: false } }],
      followUpFeedback,
    }),
    step(1, sibling),
  ],
};

/** One update on the rescued group (the sibling's next cell +1, a completion -1), with or without the credit. */
async function updated(credit: boolean): Promise<{ before: EmbeddedPolicy; after: EmbeddedPolicy }> {
  const group = [
    { view: sibling, labels: firstOptionsAfter(grammar, sibling, ["kind:call"]), advantage: 1 },
    { view: sibling, labels: firstOptionsAfter(grammar, sibling, ["kind:complete"]), advantage: -1 },
  ];
  const creditedSteps = (policy: EmbeddedPolicy) => (credit ? harnessCallCredit(policy)(rescued) : []);
  return rescueUpdate(grammar, group, { usePrior: false, creditedSteps });
}

describe("harness-call credit", () => {
  it("recovers a follow-up's doc read as the policy's decisions under the view without the follow-up", async () => {
    expect(grammar.decisionsFor?.(base, docCall)).toEqual(["kind:doc", "api:phone.show_account"]);
    const policy = await createEmbeddedPolicy({ grammar, seed: 3, usePrior: false });
    const credited = harnessCallCredit(policy)(rescued);
    expect(credited).toHaveLength(1);
    expect(credited[0]?.view).toEqual(base);
    expect(credited[0]?.action.trace).toEqual({
      kind: "embedded-decisions",
      labels: ["kind:doc", "api:phone.show_account"],
    });
    expect(credited[0]?.action.content).toContain('show_api_doc(app_name="phone", api_name="show_account")');
  });

  it("recovers no decisions for a cell the grammar cannot write, or an API the view never listed", () => {
    const loop = {
      ...docCall,
      arguments: {
        code: "for app in ['phone']:\n    print(apis.api_docs.show_api_doc(app_name=app, api_name='login'))",
      },
    };
    expect(grammar.decisionsFor?.(base, loop)).toBeNull();
    const unlisted = {
      ...docCall,
      arguments: { code: "print(apis.api_docs.show_api_doc(app_name='venmo', api_name='show_account'))" },
    };
    expect(grammar.decisionsFor?.(base, unlisted)).toBeNull();
  });

  // from zero weights: the grammar's prior alone already reads this doc with probability 0.90 here
  it("with it, the rescue raises reading the refused API's doc under the base harness; without it, barely", async () => {
    const [{ before: untrained, after: withCredit }, { after: withoutCredit }] = [
      await updated(true),
      await updated(false),
    ];
    const docRead = (policy: EmbeddedPolicy) => decisionProbability(policy, grammar, base, [], "kind:doc");
    const api = (policy: EmbeddedPolicy) =>
      decisionProbability(policy, grammar, base, ["kind:doc"], "api:phone.show_account");
    // measured: kind:doc 0.111 -> 0.118 with the credit, 0.112 without; the API 0.053 -> 0.061, 0.053
    expect(docRead(withCredit) / docRead(untrained)).toBeGreaterThan(1.04);
    expect(docRead(withoutCredit) / docRead(untrained)).toBeLessThan(1.02);
    expect(api(withCredit) / api(untrained)).toBeGreaterThan(1.1);
    expect(api(withoutCredit) / api(untrained)).toBeLessThan(1.03);
  });
});
