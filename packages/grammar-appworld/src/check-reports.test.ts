import { renderHarnessCall } from "@hs/harness";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { episode } from "./__fixtures__/episode-views.js";
import { createAppWorldGrammar } from "./appworld-grammar.js";
import { checkReports } from "./check-reports.js";
import { featureNames } from "./features.js";

const grammar = createAppWorldGrammar();
const emptied = featureNames.indexOf("filter:empty-after-check");
const keptPart = featureNames.indexOf("filter:kept-after-check");
const loop = 'for item in [item for item in notes_show_notes if item["pinned"] == True]:\n    print(item)';
const report = (list: string, kept: number, total: number) => ({
  code: "_kept = ...",
  output: `harness check: your filter on ${list} keeps ${kept} of ${total} items`,
});

const contacts =
  "[{'contact_id': 1, 'name': 'Ada Okafor', 'relationship': 'family', 'is_favorite': True}, {'contact_id': 2, 'name': 'Ben Moreno', 'relationship': 'friend', 'is_favorite': False}, {'contact_id': 3, 'name': 'Cy Rahman', 'relationship': 'family', 'is_favorite': False}]";
const paging =
  "phone_contacts = []\npage_index = 0\nwhile True:\n    page = apis.phone.show_contacts(access_token=phone_token, page_index=page_index, page_limit=20)\n    if not page:\n        break\n    phone_contacts.extend(page)\n    page_index += 1\nprint(phone_contacts)";

/** The contacts episode's last view, every contact paged, then (when checked) a held answer whose filter the check found empty. */
function contactsView(checked: boolean): PolicyView {
  const view = episode("contactrelcount_1").views.at(-1) as PolicyView;
  const held =
    'answer = len([item for item in phone_contacts if item["is_favorite"] == True and item["is_favorite"] == False])\nprint(answer)\napis.supervisor.complete_task(answer=answer)';
  const check = renderHarnessCall(
    "execute",
    { code: "_kept = [...]" },
    "harness check: your filter on phone_contacts keeps 0 of 3 items",
  );
  const messages = [
    ...view.messages,
    { role: "assistant" as const, content: `I page the contacts.\n\`\`\`python\n${paging}\n\`\`\`` },
    { role: "user" as const, content: contacts },
  ];
  if (checked)
    messages.push(
      { role: "assistant", content: `I have the answer.\n\`\`\`python\n${held}\n\`\`\`` },
      { role: "user", content: `The harness held this complete_task call.\n\n${check}` },
    );
  return { ...view, messages };
}

function conditionOptions(view: PolicyView, chosen: string[]) {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("expected a condition decision");
  return step.decision.options;
}

describe("checkReports", () => {
  it("reads which lists a check found filtered to nothing and which earlier loops changed nothing", () => {
    const cells = [
      { code: loop, output: "Execution successful.", failed: false },
      {
        code: "apis.supervisor.complete_task()",
        output: "held",
        failed: false,
        harness: [report("notes_show_notes", 0, 5)],
      },
      { code: "print(1)", output: "1", failed: false, harness: [report("todo_show_tasks", 3, 9)] },
    ];
    const read = checkReports(cells);
    // the check after an answerless complete re-ran the last loop's filter: its conditions are kept
    expect([...read.emptyFilters]).toEqual([["notes_show_notes", ['item["pinned"] == True']]]);
    expect([...read.emptyLoops]).toEqual([0]);
    // a later check that finds the list's filter keeping items clears it; the earlier loop stays empty
    const later = checkReports([
      ...cells,
      { code: loop, output: "ok", failed: false, harness: [report("notes_show_notes", 2, 5)] },
    ]);
    expect(later.emptyFilters.size).toBe(0);
    expect([...later.emptyLoops]).toEqual([0]);
    expect(
      checkReports([
        {
          code: loop,
          output: "harness check: your filter on notes_show_notes keeps 0 of 5 items",
          failed: false,
        },
      ]).emptyFilters.size,
    ).toBe(0);
  });

  it("after the check, a condition that again leaves no item is marked; under the base harness none is", () => {
    const prefix = ["kind:complete", "answer:count", "list:phone_contacts"];
    const marked = (view: PolicyView, chosen: string[]) =>
      conditionOptions(view, [...prefix, ...chosen])
        .filter((option) => option.features[emptied] === 1)
        .map((option) => option.label);
    const checked = contactsView(true);
    expect(marked(checked, [])).toEqual([]);
    expect(marked(checked, ["cond:is_favorite:true"])).toEqual(["cond:is_favorite:false"]);
    expect(marked(checked, ["cond:relationship:is:family"])).toEqual([]);
    expect(marked(checked, ["cond:relationship:is:family", "cond:is_favorite:true"])).toEqual([
      "cond:is_favorite:false",
    ]);
    // the refuted filter's own conditions that still leave items are marked too
    const parts = (chosen: string[]) =>
      conditionOptions(checked, [...prefix, ...chosen])
        .filter((option) => option.features[keptPart] === 1)
        .map((option) => option.label);
    expect(parts([])).toEqual(["cond:is_favorite:true", "cond:is_favorite:false"]);
    expect(parts(["cond:is_favorite:true"])).toEqual([]);
    const base = contactsView(false);
    expect(marked(base, ["cond:is_favorite:true"])).toEqual([]);
    expect(conditionOptions(base, prefix).every((option) => option.features[keptPart] === 0)).toBe(true);
    expect(grammar.prior?.[emptied]).toBeLessThan(0);
  });

  it("a hint that each field takes one condition marks a second condition on a field already filtered", () => {
    const taken = featureNames.indexOf("cond:field-taken-hinted");
    const base = contactsView(false);
    const task = base.messages.findLastIndex((message) => /\nTask: /.test(message.content));
    const hinted: PolicyView = {
      ...base,
      messages: base.messages.map((message, index) =>
        index === task
          ? {
              ...message,
              content: `${message.content}\n\nHints:\n- Filter a list with one condition per field: two conditions on the same field cannot both hold.`,
            }
          : message,
      ),
    };
    const prefix = ["kind:complete", "answer:count", "list:phone_contacts", "cond:is_favorite:true"];
    const marked = (view: PolicyView) =>
      conditionOptions(view, prefix)
        .filter((option) => option.features[taken] === 1)
        .map((option) => option.label);
    expect(marked(hinted)).toEqual(["cond:is_favorite:false"]);
    expect(marked(base)).toEqual([]);
    // the hint is not part of the instruction
    const instruction = (view: PolicyView) => grammar.next(view, []);
    expect(instruction(hinted)).toEqual(instruction(base));
    expect(grammar.prior?.[taken]).toBeLessThan(0);
  });
});
