import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GrammarStep, PolicyView } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { scratchRepository } from "./__fixtures__/scratch-repository.js";
import { exploreCommand, showCommand } from "./commands.js";
import { featureNames, priorVector } from "./features.js";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
const prior = priorVector();
const source =
  "def clamp(value, low, high):\n    if value < low:\n        return high\n    return min(value, high)\n";
const statement = "clamp() below the range\n\n`clamp(-5, 0, 10)` returns `10`. I expect `0`, the low end.";
const { directory, bash, viewAfter, remove } = scratchRepository(
  { "pkg/__init__.py": "from .core import clamp\n", "pkg/core.py": source },
  statement,
);
afterAll(remove);

const score = (features: readonly number[]) =>
  features.reduce((total, value, index) => total + value * (prior[index] ?? 0), 0);

/** The prior's greedy walk over one view's decisions. */
function priorWalk(view: PolicyView): { labels: string[]; step: GrammarStep & { done: true } } {
  const labels: string[] = [];
  let step = grammar.next(view, labels);
  while (!step.done) {
    const best = step.decision.options.reduce((top, entry) =>
      score(entry.features) > score(top.features) ? entry : top,
    );
    labels.push(best.label);
    step = grammar.next(view, labels);
  }
  return { labels, step };
}

function commandOf(step: GrammarStep & { done: true }): string {
  return String(step.toolCalls?.[0]?.arguments.command ?? "");
}

describe("probe: every rewrite of the lines near one line, run against the statement's calls", () => {
  const shown = [exploreCommand, showCommand("pkg/core.py", 1, 4)];

  it("is the prior's next action once lines are shown, and leaves the file as it was", () => {
    const { labels, step } = priorWalk(viewAfter(shown));
    expect(labels[0]).toBe("kind:probe");
    const output = bash(commandOf(step));
    expect(output).toContain("probed pkg/core.py:3 with");
    expect(output).toMatch(/original: return high\n {2}\[0\] => 10\n/);
    expect(output).toMatch(/rewrite: return low\n {2}\[0\] => 0\n/);
    expect(readFileSync(join(directory, "pkg", "core.py"), "utf8")).toBe(source);
  });

  it("then edits the rewrite that gives the value the statement expects, and submits it without a test run", () => {
    const probe = commandOf(priorWalk(viewAfter(shown)).step);
    const edit = priorWalk(viewAfter([...shown, probe]));
    expect(edit.labels[0]).toBe("kind:edit");
    expect(edit.labels[1]).toBe("line:pkg/core.py:3");
    expect(commandOf(edit.step)).toContain('"        return low"');
    const submit = priorWalk(viewAfter([...shown, probe, commandOf(edit.step)]));
    expect(submit.labels).toEqual(["kind:submit"]);
    writeFileSync(join(directory, "pkg", "core.py"), source);
  });

  it("gives every option the grammar's feature count", () => {
    const step = grammar.next(viewAfter(shown), ["kind:probe"]);
    expect(step.done).toBe(false);
    if (!step.done)
      for (const entry of step.decision.options) expect(entry.features).toHaveLength(featureNames.length);
  });
});
