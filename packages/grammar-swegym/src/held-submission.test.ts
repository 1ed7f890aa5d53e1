import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rankedTraceCommand } from "@hs/benchmarks-swegym";
import { renderHarnessCall } from "@hs/harness";
import type { ChatMessage, PolicyView } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { exploreCommand, submitCommand } from "./commands.js";
import { featureIndex } from "./features.js";
import { readView } from "./read-view.js";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
const listed = viewAfter(fixtureView("exprcalc-8-text"), 1);
const repository = mkdtempSync(join(tmpdir(), "hs-grammar-held-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));
cpSync(join(import.meta.dirname, "..", "..", "benchmarks-swegym", "data", "repos", "exprcalc"), repository, {
  recursive: true,
});
const calls = JSON.stringify(readView(listed).terms.expressions);
const observation = (output: string) =>
  `<returncode>0</returncode>\n<output>\n${output.trimEnd()}\n</output>`;
const action = (command: string): ChatMessage => ({
  role: "assistant",
  content: `THOUGHT: next\n\n\`\`\`bash\n${command}\n\`\`\``,
});

/** `view`, then `steps` more listings (past 11 steps, submitting is pressed for). */
function later(view: PolicyView, steps: number): PolicyView {
  const listing = listed.messages.at(-1) as ChatMessage;
  const padding = Array.from({ length: steps }, () => [action(exploreCommand), listing]).flat();
  return { ...view, messages: [...view.messages, ...padding] };
}

/** `view`, then a submission a check held back: the harness ran the ranked trace and showed it. */
function heldBy(view: PolicyView, command: string): PolicyView {
  const output = execFileSync("bash", ["-c", command], { cwd: repository, encoding: "utf8" });
  const check = `Before submitting, the harness ran the calls the issue writes and ranked the lines they execute (below). Submit again to confirm, or look at the lines ranked first.\n\n${renderHarnessCall("bash", { command }, observation(output))}`;
  return { ...view, messages: [...view.messages, action(submitCommand), { role: "user", content: check }] };
}

const fitOf = (view: PolicyView, label: string) => {
  const step = grammar.next(view, []);
  if (step.done) throw new Error("no decision");
  const chosen = step.decision.options.find((option) => option.label === label);
  return chosen?.features[featureIndex.get("option-fit") ?? -1];
};

describe("a submission a check held back", () => {
  const late = later(listed, 20);
  const held = heldBy(late, rankedTraceCommand(calls));

  it("starts the submit pressure over, so the lines the check ranked are probed before submitting again", () => {
    expect(readView(held).steps.at(-1)?.harness?.length).toBe(1);
    // twenty steps in, submitting is pressed for by ten points; after the held submission by none
    expect(fitOf(late, "kind:submit")).toBeGreaterThan(5);
    const submit = fitOf(held, "kind:submit") ?? Number.POSITIVE_INFINITY;
    const probe = fitOf(held, "kind:probe") ?? Number.NEGATIVE_INFINITY;
    expect(submit).toBeLessThan(0);
    expect(probe).toBeGreaterThan(submit);
  });

  it("presses for submitting again as many steps after the held submission as after the start", () => {
    const early = heldBy(listed, rankedTraceCommand(calls));
    expect(fitOf(later(early, 12), "kind:submit")).toBeLessThan(0);
    expect(fitOf(later(early, 20), "kind:submit")).toBeGreaterThan(5);
  });
});
