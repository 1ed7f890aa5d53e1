import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { harnessCallMarker } from "@hs/harness";
import { decisionProbability, rescueUpdate } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { ChatMessage, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { editEvidence, refutedRewrite } from "./edit-evidence.js";
import { featureIndex } from "./features.js";
import { readView } from "./read-view.js";
import { createSweGymGrammar } from "./swegym-grammar.js";
import { viewContext } from "./view-context.js";

const grammar = createSweGymGrammar();
// the fixture: list, reproduce (a traceback), show, edit line 96, run the tests (1 failed)
const full = fixtureView("exprcalc-8-text");
const afterEdit = viewAfter(full, 4);
const userTexts = full.messages
  .filter((message) => message.role === "user")
  .map((message) => message.content);
const testCommand = "python3 -m pytest -x -q -p no:cacheprovider --tb=short 2>&1 | tail -n 60";
const submission = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached";

function extended(view: PolicyView, ...messages: ChatMessage[]): PolicyView {
  return { ...view, messages: [...view.messages, ...messages] };
}

/** After the edit the policy submitted; the verification check ran the tests first and showed `output`. */
function checked(output: string): PolicyView {
  return extended(
    afterEdit,
    { role: "assistant", content: `THOUGHT: submit\n\n\`\`\`bash\n${submission}\n\`\`\`` },
    {
      role: "user",
      content: `Before submitting, the harness ran the tests (below). Submit again to confirm, or fix what still fails.\n\n${harnessCallMarker}bash: ${testCommand}]\n${output}`,
    },
  );
}

const passingRun = "<returncode>0</returncode>\n<output>\n.......\n7 passed in 1.02s\n</output>";
const withPassingRun = extended(viewAfter(full, 4), full.messages.at(-2) as ChatMessage, {
  role: "user",
  content: passingRun,
});

const evidenceOf = (view: PolicyView) => viewContext(view).evidence;

function kindOptions(view: PolicyView) {
  const step = grammar.next(view, []);
  if (step.done) throw new Error("no decision");
  const steps = featureIndex.get("steps-taken") as number;
  return step.decision.options.map((option) => ({
    label: option.label,
    features: option.features.filter((_, index) => index !== steps),
  }));
}

describe("the evidence after an edit", () => {
  it("is none before anything ran after the edit", () => {
    expect(evidenceOf(afterEdit)).toBeNull();
    expect(editEvidence(readView(viewAfter(full, 3)), undefined)).toBeNull();
  });

  it("is failing after a failing test run, whether the policy ran it or a check before a submit did", () => {
    expect(evidenceOf(full)).toBe("failing");
    expect(evidenceOf(checked(userTexts[5] as string))).toBe("failing");
  });

  it("is fixed after a passing run, and failing after a later traceback", () => {
    expect(evidenceOf(withPassingRun)).toBe("fixed");
    expect(evidenceOf(checked(passingRun))).toBe("fixed");
    // the policy then reproduces the issue again and the traceback is still there
    const reproduce = full.messages[4] as ChatMessage;
    const traceback = extended(withPassingRun, reproduce, { role: "user", content: userTexts[2] as string });
    expect(evidenceOf(traceback)).toBe("failing");
  });

  it("marks the submit and revert options the same way under the base harness and under the check", () => {
    const base = kindOptions(full);
    expect(kindOptions(checked(userTexts[5] as string))).toEqual(base);
    const value = (label: string, name: string) =>
      base.find((option) => option.label === label)?.features[(featureIndex.get(name) as number) - 1];
    expect(value("kind:submit", "submit-evidence-failing")).toBe(1);
    expect(value("kind:revert", "revert-evidence-failing")).toBe(1);
  });

  it("makes the untrained policy revert rather than submit what the check showed failing", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 3 });
    const held = checked(userTexts[5] as string);
    const probability = (label: string) => decisionProbability(policy, grammar, held, [], label);
    expect(probability("kind:revert")).toBeGreaterThan(probability("kind:submit") * 5);
    const passed = checked(passingRun);
    expect(decisionProbability(policy, grammar, passed, [], "kind:submit")).toBeGreaterThan(0.5);
    policy.dispose();
  });

  it("a revert rescued under the check raises the revert under the base harness (one GRPO update)", async () => {
    const held = checked(userTexts[5] as string);
    const { before, after } = await rescueUpdate(grammar, [
      { view: held, labels: ["kind:revert", "revert:exprcalc/evaluator.py"], advantage: 1 },
      { view: held, labels: ["kind:submit"], advantage: -1 },
    ]);
    const revert = (policy: typeof before) => decisionProbability(policy, grammar, full, [], "kind:revert");
    expect(revert(after)).toBeGreaterThan(revert(before));
    for (const policy of [before, after]) policy.dispose();
  });

  it("counts an edit reverted after failing evidence as a refuted rewrite", () => {
    const revert = extended(
      full,
      {
        role: "assistant",
        content: "THOUGHT: undo\n\n```bash\ngit checkout -- 'exprcalc/evaluator.py'\n```",
      },
      { role: "user", content: "<returncode>0</returncode>\n<output>\n</output>" },
    );
    const edit = readView(full).edits[0];
    expect(edit).toBeDefined();
    const text = edit?.replacement.trim() ?? "";
    expect(refutedRewrite(readView(full), "exprcalc/evaluator.py", 96, text)).toBe(false);
    expect(refutedRewrite(readView(revert), "exprcalc/evaluator.py", 96, text)).toBe(true);
    expect(evidenceOf(revert)).toBeNull();
  });
});

describe("weights saved before the evidence features", () => {
  it("do not load, and the error names the saved and the current feature counts", async () => {
    const count = grammar.featureCount;
    const older = { ...grammar, featureCount: count - 5, prior: (grammar.prior ?? []).slice(0, count - 5) };
    const directory = await mkdtemp(join(tmpdir(), "hs-swegym-weights-"));
    const saved = await createEmbeddedPolicy({ grammar: older, seed: 3 });
    await saved.save(directory);
    const current = await createEmbeddedPolicy({ grammar, seed: 3 });
    await expect(current.load(directory)).rejects.toThrow(
      new RegExp(`has ${count - 5} features.*this policy has ${count} features.*grammar's features changed`),
    );
    for (const policy of [saved, current]) policy.dispose();
    await rm(directory, { recursive: true, force: true });
  });
});
