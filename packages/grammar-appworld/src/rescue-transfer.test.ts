import { harnessCallMarker } from "@hs/harness";
import { decisionProbability, firstOptionsAfter, rescueUpdate } from "@hs/learner-embedded";
import type { ActionGrammarV1, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { episode } from "./__fixtures__/episode-views.js";
import { createAppWorldGrammar } from "./appworld-grammar.js";

const grammar = createAppWorldGrammar();
const names = grammar.featureNames ?? [];

/** `prefix` completed with each later decision's first option. */
const completed = (view: PolicyView, prefix: readonly string[]) => firstOptionsAfter(grammar, view, prefix);

/** The grammar with some features always 0 (an ablation: the decision without its shared features). */
function without(names: readonly string[]): ActionGrammarV1 {
  const zeroed = names.map((name) => (grammar.featureNames ?? []).indexOf(name));
  return {
    ...grammar,
    next(view, chosen) {
      const step = grammar.next(view, chosen);
      if (step.done) return step;
      const options = step.decision.options.map((option) => ({
        label: option.label,
        features: option.features.map((value, index) => (zeroed.includes(index) ? 0 : value)),
      }));
      return { done: false, decision: { name: step.decision.name, options } };
    },
  };
}

function kindFeatures(view: PolicyView, label: string): readonly number[] {
  const step = grammar.next(view, []);
  if (step.done) throw new Error("no decision");
  const option = step.decision.options.find((entry) => entry.label === label);
  if (option === undefined) throw new Error(`${label} not offered`);
  return option.features;
}

describe("a rescued decision transfers to the base harness (one GRPO update)", () => {
  it("paging a list until a page is empty, once logged in (the harness logged in after a 401, or the policy did)", async () => {
    const views = episode("contactrelcount_1").views as PolicyView[];
    // under the base harness the policy logged in itself; the next decision pages the contacts
    const base = views[6] as PolicyView;
    const beforeLogin = views[5] as PolicyView;
    const login = /```python\n([\s\S]*?)```/.exec(base.messages[20]?.content ?? "")?.[1]?.trim() ?? "";
    expect(login).toMatch(/^phone_token = apis\.phone\.login\(/);
    // the login follow-up sibling: a call without a token got a 401, and the harness logged in itself
    const sibling: PolicyView = {
      ...beforeLogin,
      messages: [
        ...beforeLogin.messages,
        {
          role: "assistant",
          content:
            "I page through the contacts.\n```python\nprint(apis.phone.show_contacts(page_index=0))\n```",
        },
        {
          role: "user",
          content: `Execution failed. Traceback:\n  File "<cell>", line 1, in <module>\nException: Response status code is 401:\n{"message": "phone.show_contacts needs an access_token from phone.login."}\n\nNot logged in to phone. The harness logged in for you (pass access_token=phone_token):\n\n${harnessCallMarker}execute: ${login.replace(/\n/g, " ")}]\nlogged in to phone`,
        },
      ],
    };
    // the same decision with the same features under both harnesses, but for the sibling's failed call
    const differing = names.filter(
      (_, index) => kindFeatures(base, "kind:page")[index] !== kindFeatures(sibling, "kind:page")[index],
    );
    expect(differing).toEqual(["kind:after-failure"]);
    const { before, after } = await rescueUpdate(grammar, [
      { view: sibling, labels: completed(sibling, ["kind:page"]), advantage: 1 },
      { view: sibling, labels: completed(sibling, ["kind:complete"]), advantage: -1 },
    ]);
    const page = (policy: typeof before) => decisionProbability(policy, grammar, base, [], "kind:page");
    // a relative rise: the update's size depends on the feature count (+0.0100 here before the zero-valued
    // features that read harness checks and hints were added, just under after), not on this decision's
    expect(page(after) / page(before)).toBeGreaterThan(1.01);
  });

  it("logging in after an unauthorized reply (a note-only sibling named the cause; the base harness shows the 401 alone)", async () => {
    const views = episode("contactrelcount_1").views as PolicyView[];
    const withPasswords = views[5] as PolicyView;
    const refused =
      'Execution failed. Traceback:\n  File "<cell>", line 1, in <module>\nException: Response status code is 401:\n{"message": "phone.show_contacts needs an access_token from phone.login."}';
    const call = {
      role: "assistant" as const,
      content: "I page through the contacts.\n```python\nprint(apis.phone.show_contacts(page_index=0))\n```",
    };
    const base: PolicyView = {
      ...withPasswords,
      messages: [...withPasswords.messages, call, { role: "user", content: refused }],
    };
    const sibling: PolicyView = {
      ...withPasswords,
      messages: [
        ...withPasswords.messages,
        call,
        {
          role: "user",
          content: `${refused}\n\nNot logged in to phone: log in with apis.phone.login(...) first.`,
        },
      ],
    };
    for (const view of [base, sibling])
      expect(kindFeatures(view, "kind:login")[names.indexOf("kind:login-after-unauthorized")]).toBe(1);
    const group = [
      { view: sibling, labels: completed(sibling, ["kind:login"]), advantage: 1 },
      { view: sibling, labels: completed(sibling, ["kind:complete"]), advantage: -1 },
    ];
    const rise = async (scoring: ActionGrammarV1) => {
      const { before, after } = await rescueUpdate(scoring, group);
      const login = (policy: typeof before) => decisionProbability(policy, scoring, base, [], "kind:login");
      return login(after) / login(before);
    };
    const shared = await rise(grammar);
    expect(shared).toBeGreaterThan(1.02);
    expect(shared).toBeGreaterThan(await rise(without(["kind:login-after-unauthorized"])));
  });
});
