import { harnessCallMarker } from "@hs/harness";
import { decisionProbability, firstOptionsAfter, rescueUpdate } from "@hs/learner-embedded";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
const full = fixtureView("exprcalc-8-text");
const userTexts = full.messages
  .filter((message) => message.role === "user")
  .map((message) => message.content);
const showCommand = "nl -ba 'exprcalc/evaluator.py' | sed -n '84,108p'";

/** A view whose last message has `text` appended (what a sibling adds after a result). */
function appended(view: PolicyView, text: string): PolicyView {
  const last = view.messages.length - 1;
  return {
    ...view,
    messages: view.messages.map((message, index) =>
      index === last ? { ...message, content: `${message.content}\n\n${text}` } : message,
    ),
  };
}

const stepsTaken = (grammar.featureNames ?? []).indexOf("steps-taken");

/** A decision's options with the one feature that counts the policy's own steps left out. */
function withoutStepCount(decision: ReturnType<typeof decisionAt>) {
  return decision.options.map((option) => ({
    label: option.label,
    features: option.features.filter((_, index) => index !== stepsTaken),
  }));
}

function decisionAt(view: PolicyView, chosen: readonly string[]) {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("no decision");
  return step.decision;
}

describe("a rescued decision transfers to the base harness (one GRPO update)", () => {
  it("editing the line a traceback names, once its lines are open (the harness opened them, or the policy did)", async () => {
    // the traceback follow-up sibling: after the reproduction's traceback the harness opened the lines
    const sibling = appended(
      viewAfter(full, 2),
      `The Python traceback ends at exprcalc/evaluator.py:96; the harness opened those lines:\n\n${harnessCallMarker}bash: ${showCommand}]\n${userTexts[3]}`,
    );
    // under the base harness the policy opened them itself, one step later
    const base = viewAfter(full, 3);
    const line = "line:exprcalc/evaluator.py:96";
    // the edit decisions offer the same options with the same features under both harnesses (but for
    // the count of the policy's own steps: under the base harness it took one more)
    expect(stepsTaken).toBeGreaterThanOrEqual(0);
    expect(withoutStepCount(decisionAt(sibling, ["kind:edit"]))).toEqual(
      withoutStepCount(decisionAt(base, ["kind:edit"])),
    );
    const rewrite = decisionAt(sibling, ["kind:edit", line]).options[0]?.label ?? "";
    // one GRPO step on a freshly initialised network does not move every decision the same way on
    // every initialisation, so the transfer is asserted over five initialisations, allowing one miss
    let raised = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const { before, after } = await rescueUpdate(
        grammar,
        [
          { view: sibling, labels: ["kind:edit", line, rewrite], advantage: 1 },
          // the sibling's failed rollout of the group searched instead
          { view: sibling, labels: completed(sibling, ["kind:search"]), advantage: -1 },
        ],
        { seed },
      );
      const probability = (policy: typeof before) =>
        decisionProbability(policy, grammar, base, ["kind:edit"], line);
      const edit = (policy: typeof before) => decisionProbability(policy, grammar, base, [], "kind:edit");
      if (probability(after) > probability(before) + 5e-4 && edit(after) > edit(before)) raised++;
      for (const policy of [before, after]) policy.dispose();
    }
    expect(raised).toBeGreaterThanOrEqual(4);
  });

  it("not submitting over failing tests: the check sibling ran them, under the base harness the policy did", async () => {
    const submission = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached";
    const beforeTests = viewAfter(full, 4);
    const held = {
      ...beforeTests,
      messages: [
        ...beforeTests.messages,
        { role: "assistant" as const, content: `THOUGHT: submit\n\n\`\`\`bash\n${submission}\n\`\`\`` },
        {
          role: "user" as const,
          content: `Before submitting, the harness ran the tests (below). Submit again to confirm, or fix what still fails.\n\n${harnessCallMarker}bash: python3 -m pytest -x -q -p no:cacheprovider --tb=short 2>&1 | tail -n 60]\n${userTexts[5]}`,
        },
      ],
    };
    const base = full;
    const kinds = (view: PolicyView) => decisionAt(view, []).options.map((option) => option.label);
    expect(kinds(held)).toEqual(kinds(base));
    const { before, after } = await rescueUpdate(grammar, [
      { view: held, labels: completed(held, ["kind:revert"]), advantage: 1 },
      { view: held, labels: ["kind:submit"], advantage: -1 },
    ]);
    const submit = (policy: typeof before) => decisionProbability(policy, grammar, base, [], "kind:submit");
    expect(submit(after)).toBeLessThan(submit(before));
  });
});

/** `prefix` completed with each later decision's first option. */
const completed = (view: PolicyView, prefix: readonly string[]) => firstOptionsAfter(grammar, view, prefix);
