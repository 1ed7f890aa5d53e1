import { harnessValuesTraceCommand, valuesLinesHeader } from "@hs/benchmarks-swegym";
import type { ChatMessage, PolicyView } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { commandFor, labelsOf, optionsOf } from "./__fixtures__/grammar-choices.js";
import { scratchRepository } from "./__fixtures__/scratch-repository.js";
import { sweGymCallLabels } from "./call-labels.js";
import { exploreCommand, showCommand } from "./commands.js";
import { featureIndex } from "./features.js";

// a unit table built at import (the bug: a rounded factor) and a long function the calls run, so that
// probing its lines goes on until the prior would submit, the table never in view
const steps = Array.from({ length: 44 }, (_, index) => `    total = total + ${index % 2}`);
const source = [
  "FACTORS = {",
  '    "m": 1.0,',
  '    "km": 1000.0,',
  '    "mi": 1609.0,',
  "}",
  "",
  "",
  "def to_metres(value, unit):",
  "    total = 0",
  ...steps,
  "    return value * FACTORS[unit] + total - 22",
  "",
].join("\n");
const statement =
  'Miles are converted with a rounded factor\n\n`to_metres(1, "mi")` returns `1609.0`; a mile is exactly `1609.344` m.';
const { bash, remove } = scratchRepository(
  { "units/__init__.py": "from .table import to_metres\n", "units/table.py": source },
  statement,
);
afterAll(remove);

/** A view grown one real step at a time (each command runs once). */
function growingView() {
  const messages: ChatMessage[] = [
    { role: "system", content: "You are a helpful assistant." },
    {
      role: "user",
      content: `<pr_description>\nConsider the following PR description:\n${statement}\n</pr_description>`,
    },
  ];
  const view = (): PolicyView => ({ messages: [...messages], tools: [], actionFormat: "text" });
  const run = (command: string): string => {
    const output = bash(command);
    messages.push({ role: "assistant", content: `THOUGHT: next.\n\n\`\`\`bash\n${command}\n\`\`\`` });
    messages.push({ role: "user", content: `<returncode>0</returncode>\n<output>\n${output}</output>` });
    return output;
  };
  return { view, run };
}

const fit = featureIndex.get("option-fit") ?? -1;

describe("the values trace before the empty patch is submitted, offered under the base harness", () => {
  it("is offered once the prior would submit, one below the submit's fit; it shows the table's line, and the pressure to submit waits while a probe fixes it", () => {
    const { view, run } = growingView();
    run(exploreCommand);
    run(showCommand("units/table.py", 1, 60));
    run(commandFor(view(), ["kind:trace", "trace:plain"]));
    const fitOf = (label: string) =>
      optionsOf(view(), []).find((entry) => entry.label === label)?.features[fit];
    for (let steps = 0; ; steps++) {
      if (steps > 30) throw new Error("the values trace was never offered");
      if (labelsOf(view(), []).includes("kind:trace")) {
        const traces = labelsOf(view(), ["kind:trace"]);
        if (traces.includes("trace:values")) break;
        // before that, the only trace is the ranked one after a fruitless probe
        expect(traces).toEqual(["trace:ranked"]);
        run(commandFor(view(), ["kind:trace", "trace:ranked"]));
        continue;
      }
      expect(fitOf("kind:submit")).toBeLessThan(3);
      const line = labelsOf(view(), ["kind:probe"]).find((label) => !label.endsWith(":4")) as string;
      run(commandFor(view(), ["kind:probe", line]));
    }
    expect(fitOf("kind:submit")).toBeGreaterThanOrEqual(3);
    expect(fitOf("kind:trace")).toBe((fitOf("kind:submit") ?? 0) - 1);
    expect(labelsOf(view(), ["kind:trace"])).toEqual(["trace:values"]);
    const command = commandFor(view(), ["kind:trace", "trace:values"]);
    // the grammar's command and the values check's harness call are the same decision
    for (const written of [command, harnessValuesTraceCommand])
      expect(sweGymCallLabels({ id: "c", name: "bash", arguments: { command: written } })).toEqual([
        ["kind:trace", "trace:values"],
      ]);
    const output = run(command);
    expect(output).toContain(
      `${valuesLinesHeader}\nunits/table.py:1 x0\tFACTORS = {\nunits/table.py:2 x0\t    "m": 1.0,\nunits/table.py:4 x0\t    "mi": 1609.0,`,
    );
    // once run it is not offered again; the submit waits, and the table's line is a line to probe
    expect(labelsOf(view(), [])).not.toContain("kind:trace");
    expect(fitOf("kind:submit")).toBeLessThan(fitOf("kind:probe") ?? 0);
    expect(labelsOf(view(), ["kind:probe"])).toContain("line:units/table.py:4");
    const probed = run(commandFor(view(), ["kind:probe", "line:units/table.py:4"]));
    expect(probed).toContain('"mi": 1609.344,');
    expect(fitOf("kind:edit")).toBe(4);
  });
});
