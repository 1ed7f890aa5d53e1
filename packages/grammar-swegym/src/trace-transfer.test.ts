import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTraceOutput, traceStatementCommand } from "@hs/benchmarks-swegym";
import { renderHarnessCall } from "@hs/harness";
import { decisionProbability, rescueUpdate } from "@hs/learner-embedded";
import type { PolicyView } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { readView } from "./read-view.js";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
const full = fixtureView("exprcalc-8-text");
const listed = viewAfter(full, 1);
const repository = mkdtempSync(join(tmpdir(), "hs-grammar-trace-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));
cpSync(join(import.meta.dirname, "..", "..", "benchmarks-swegym", "data", "repos", "exprcalc"), repository, {
  recursive: true,
});
const calls = readView(listed).terms.expressions;
const command = traceStatementCommand(JSON.stringify(calls));
// the real trace of the statement's calls over the bundled exprcalc sources
const output = execFileSync("bash", ["-c", command], { cwd: repository, encoding: "utf8" });
const observation = `<returncode>0</returncode>\n<output>\n${output.trimEnd()}\n</output>`;

/** The sibling's view: the harness traced the calls after the listing (a follow-up's block). */
const sibling: PolicyView = {
  ...listed,
  messages: listed.messages.map((message, index) =>
    index === listed.messages.length - 1
      ? {
          ...message,
          content: `${message.content}\n\nThe harness ran the calls the issue writes:\n\n${renderHarnessCall("bash", { command }, observation)}`,
        }
      : message,
  ),
};

/** The base harness's view: the policy chose `trace` itself after the listing. */
const base: PolicyView = {
  ...listed,
  messages: [
    ...listed.messages,
    { role: "assistant", content: `THOUGHT: trace the calls\n\n\`\`\`bash\n${command}\n\`\`\`` },
    { role: "user", content: observation },
  ],
};

const stepsTaken = (grammar.featureNames ?? []).indexOf("steps-taken");

function decisionAt(view: PolicyView, chosen: readonly string[]) {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("no decision");
  return step.decision;
}

function withoutStepCount(decision: ReturnType<typeof decisionAt>) {
  return decision.options.map((option) => ({
    label: option.label,
    features: option.features.filter((_, index) => index !== stepsTaken),
  }));
}

describe("the lines a trace executed (the harness traced, or the policy did)", () => {
  it("the trace is real and names the statement's calls and repository lines", () => {
    expect(calls.length).toBeGreaterThan(0);
    const reading = readTraceOutput(output);
    expect(reading?.lines.length).toBeGreaterThan(3);
    expect(reading?.packages).toEqual(["exprcalc"]);
  });

  it("`trace` is offered under the base harness until a trace ran, and the traced regions are `show` options", () => {
    const kinds = (view: PolicyView) => decisionAt(view, []).options.map((option) => option.label);
    expect(kinds(listed)).toContain("kind:trace");
    expect(kinds(base)).not.toContain("kind:trace");
    expect(kinds(sibling)).toEqual(kinds(base));
    const regions = decisionAt(base, ["kind:show"]).options.map((option) => option.label);
    const first = readTraceOutput(output)?.lines[0];
    expect(regions).toContain(`at:${first?.file}:${first?.line}`);
    expect(withoutStepCount(decisionAt(sibling, ["kind:show"]))).toEqual(
      withoutStepCount(decisionAt(base, ["kind:show"])),
    );
  });

  it("a rescued choice of a traced region raises that choice under the base harness", async () => {
    const first = readTraceOutput(output)?.lines[0];
    const region = `at:${first?.file}:${first?.line}`;
    const regions = decisionAt(sibling, ["kind:show"]).options.map((option) => option.label);
    const other = regions.find((label) => label !== region) ?? "";
    const { before, after } = await rescueUpdate(grammar, [
      { view: sibling, labels: ["kind:show", region], advantage: 1 },
      { view: sibling, labels: ["kind:show", other], advantage: -1 },
    ]);
    const probability = (policy: typeof before) =>
      decisionProbability(policy, grammar, base, ["kind:show"], region);
    expect(probability(after)).toBeGreaterThan(probability(before) + 5e-4);
  });
});
