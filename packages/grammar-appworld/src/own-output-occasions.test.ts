import { renderHarnessCall } from "@hs/harness";
import { decisionProbability, firstOptionsAfter, rescueUpdate } from "@hs/learner-embedded";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { episode } from "./__fixtures__/episode-views.js";
import { createAppWorldGrammar } from "./appworld-grammar.js";
import { featureNames } from "./features.js";

const grammar = createAppWorldGrammar();

/** The contacts episode's last view (contacts paged, delete_contact's doc shown) and one more cell with its reply. */
function after(code: string, reply: string): PolicyView {
  const view = episode("contactrelcount_1").views.at(-1) as PolicyView;
  return {
    ...view,
    messages: [
      ...view.messages,
      { role: "assistant", content: `Next.\n\`\`\`python\n${code}\n\`\`\`` },
      { role: "user", content: reply },
    ],
  };
}

/** The value of a feature on an option of the decision after `chosen`. */
function featureOf(view: PolicyView, chosen: string[], label: string, name: string): number {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("no decision");
  const option = step.decision.options.find((entry) => entry.label === label);
  if (option === undefined) throw new Error(`${label} not offered`);
  return option.features[featureNames.indexOf(name as (typeof featureNames)[number])] ?? Number.NaN;
}

/** `prefix` completed with each later decision's first option. */
const completed = (view: PolicyView, prefix: readonly string[]) => firstOptionsAfter(grammar, view, prefix);

const emptyLoop =
  'for item in [item for item in phone_show_contacts if item["relationship"] == "coworker"]:\n    print(apis.phone.delete_contact(access_token=phone_token, contact_id=item["contact_id"]))';

describe("a loop that ran for no item, read from its own output", () => {
  // the shell prints `Execution successful.` alone for a cell that printed nothing
  const base = after(emptyLoop, "Execution successful.");
  // the follow-up sibling adds its note and re-runs the filter
  const sibling = after(
    emptyLoop,
    `Execution successful.\n\nThe loop over phone_show_contacts printed nothing: it ran for no item. The harness re-ran its filter on phone_show_contacts (below):\n\n${renderHarnessCall(
      "execute",
      { code: "_kept = [...]" },
      "harness check: your filter on phone_show_contacts keeps 0 of 3 items",
    )}`,
  );

  it("offers another loop and paging with the shared feature on, under the base harness and the sibling", () => {
    for (const view of [base, sibling])
      for (const label of ["kind:each", "kind:page"])
        expect(featureOf(view, [], label, "kind:retry-after-empty-loop")).toBe(1);
  });

  it("is off after a loop that printed something", () => {
    const ran = after(emptyLoop, "{'message': 'Contact deleted.'}");
    expect(featureOf(ran, [], "kind:each", "kind:retry-after-empty-loop")).toBe(0);
  });

  it("a rescue under the sibling raises looping again under the base harness", async () => {
    const { before, after: updated } = await rescueUpdate(grammar, [
      { view: sibling, labels: completed(sibling, ["kind:each"]), advantage: 1 },
      { view: sibling, labels: completed(sibling, ["kind:complete"]), advantage: -1 },
    ]);
    const each = (policy: typeof before) => decisionProbability(policy, grammar, base, [], "kind:each");
    expect(each(updated) / each(before)).toBeGreaterThan(1.01);
  });
});

describe("a call refused with a 422, read from its own output", () => {
  const call = "print(apis.phone.show_account(access_token=phone_token, verbose=True))";
  const refused =
    'Execution failed. Traceback:\n  File "<cell>", line 1, in <module>\nException: Response status code is 422:\n{"message": "Unexpected argument: verbose."}';
  const base = after(call, refused);

  it("offers the doc of the refused API under the base harness, with the shared features on", () => {
    expect(featureOf(base, [], "kind:doc", "kind:doc-after-refusal")).toBe(1);
    expect(featureOf(base, ["kind:doc"], "api:phone.show_account", "api:refused")).toBe(1);
    expect(featureOf(base, ["kind:doc"], "api:phone.show_contacts", "api:refused")).toBe(0);
  });

  it("reads the same from a note-only reply, and is off once a follow-up showed the doc", () => {
    const noted = after(call, `${refused}\n\nThe call of apis.phone.show_account was refused.`);
    expect(featureOf(noted, [], "kind:doc", "kind:doc-after-refusal")).toBe(1);
    // the follow-up sibling of the evolution library shows the doc itself: reading it again is not offered as this decision
    const shown = after(
      call,
      `${refused}\n\nThe call of apis.phone.show_account was refused (a wrong API name or argument). The harness showed its doc:\n\n${renderHarnessCall(
        "execute",
        { code: "print(apis.api_docs.show_api_doc(app_name='phone', api_name='show_account'))" },
        "{'api_name': 'show_account', 'description': 'Show your phone account details.', 'parameters': [{'name': 'access_token', 'type': 'string', 'required': True, 'description': 'Access token.', 'default': None, 'constraints': []}]}",
      )}`,
    );
    expect(featureOf(shown, [], "kind:doc", "kind:doc-after-refusal")).toBe(0);
  });

  it("is off after a refusal of another kind (a 401)", () => {
    const other = after(call, refused.replace("422", "401"));
    expect(featureOf(other, [], "kind:doc", "kind:doc-after-refusal")).toBe(0);
  });
});
