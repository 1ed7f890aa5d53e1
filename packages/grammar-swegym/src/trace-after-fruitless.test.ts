import { fruitlessProbePattern } from "@hs/benchmarks-swegym";
import type { PolicyView } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { commandFor, labelsOf, optionsOf } from "./__fixtures__/grammar-choices.js";
import { scratchRepository } from "./__fixtures__/scratch-repository.js";
import { exploreCommand, showCommand } from "./commands.js";
import { featureIndex } from "./features.js";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
const source = [
  "def clamp(value, low, high):",
  "    if value < low:",
  "        return high",
  "    return min(value, high)",
  "",
  "",
  "def spread(low, high):",
  "    width = high - low",
  "    return width",
  "",
].join("\n");
const statement = "clamp() below the range\n\n`clamp(-5, 0, 10)` returns `10`. I expect `0`, the low end.";
const { bash, viewAfter, remove } = scratchRepository(
  { "pkg/__init__.py": "from .core import clamp, spread\n", "pkg/core.py": source },
  statement,
);
afterAll(remove);

const fit = featureIndex.get("option-fit") ?? -1;
function kindFit(view: PolicyView, kind: string): number | undefined {
  return optionsOf(view, []).find((entry) => entry.label === kind)?.features[fit];
}

describe("a ranked trace after a fruitless probe, offered under the base harness", () => {
  const listed = [exploreCommand, showCommand("pkg/core.py", 1, 10)];
  const traced = [...listed, commandFor(viewAfter(listed), ["kind:trace", "trace:plain"])];
  const fruitless = [...traced, commandFor(viewAfter(traced), ["kind:probe", "line:pkg/core.py:8"])];
  const found = [...traced, commandFor(viewAfter(traced), ["kind:probe", "line:pkg/core.py:3"])];

  it("the probe of lines the calls never run matches the harness's fruitless pattern; the probe of the bug does not", () => {
    const outputOf = (commands: string[]) => bash(commands.at(-1) ?? "");
    expect(outputOf(fruitless)).toContain("probed pkg/core.py:8 with");
    expect(new RegExp(fruitlessProbePattern, "m").test(outputOf(fruitless))).toBe(true);
    expect(new RegExp(fruitlessProbePattern, "m").test(outputOf(found))).toBe(false);
  });

  it("after a plain trace no trace is offered until a probe is fruitless; then the ranked one alone", () => {
    expect(labelsOf(viewAfter(traced), [])).not.toContain("kind:trace");
    expect(labelsOf(viewAfter(found), [])).not.toContain("kind:trace");
    expect(labelsOf(viewAfter(fruitless), [])).toContain("kind:trace");
    expect(labelsOf(viewAfter(fruitless), ["kind:trace"])).toEqual(["trace:ranked"]);
    expect(kindFit(viewAfter(fruitless), "kind:trace")).toBe(2);
  });

  it("once the ranked trace ran it is not offered again without an edit", () => {
    const ranked = [...fruitless, commandFor(viewAfter(fruitless), ["kind:trace", "trace:ranked"])];
    expect(bash(ranked.at(-1) ?? "")).toContain("repository lines the calls executed");
    expect(labelsOf(viewAfter(ranked), [])).not.toContain("kind:trace");
  });
});

describe("a ranked trace whose calls run no repository line", () => {
  const configSource = ["def read(text):", "    size = len(text) + 1", "    return size", ""].join("\n");
  const configStatement =
    'Reading the pool size\n\n`config.get("pool", "size")` returns `11`. I expect `10`.';
  const config = scratchRepository(
    { "pkg/__init__.py": "from . import config\n", "pkg/config.py": configSource },
    configStatement,
  );
  afterAll(config.remove);
  const commandIn = (view: PolicyView, labels: readonly string[]): string => {
    const step = grammar.next(view, labels);
    if (!step.done) throw new Error(`"${labels.join(" ")}" is not a whole action`);
    return String(step.toolCalls?.[0]?.arguments.command ?? "");
  };
  const listed = [exploreCommand, showCommand("pkg/config.py", 1, 4)];
  const probed = [...listed, commandIn(config.viewAfter(listed), ["kind:probe", "line:pkg/config.py:2"])];
  const ranked = [...probed, commandIn(config.viewAfter(probed), ["kind:trace", "trace:ranked"])];

  it("counts as run from its command, so it is not offered again (it printed no ranking to read)", () => {
    const output = config.bash(ranked.at(-1) ?? "");
    expect(output).toContain("raised AttributeError");
    expect(output).not.toContain("repository lines the calls executed");
    expect(new RegExp(fruitlessProbePattern, "m").test(config.bash(probed.at(-1) ?? ""))).toBe(true);
    expect(labelsOf(config.viewAfter(probed), [])).toContain("kind:trace");
    expect(labelsOf(config.viewAfter(ranked), [])).not.toContain("kind:trace");
  });
});
