import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HarnessConfig, parseHarnessConfig, runEpisode, type Task } from "@hs/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedPolicy } from "./__fixtures__/scripted-policy.js";
import { createSweGym, type SweGym } from "./create-swegym.js";
import { sweGymLibrary } from "./evolution-library.js";
import { sweGymHarnessCallLibrary } from "./harness-call-directions.js";

const cache = mkdtempSync(join(tmpdir(), "hs-swegym-directions-cache-"));
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-directions-scratch-"));
let benchmark: SweGym;
let task: Task;

beforeAll(async () => {
  benchmark = await createSweGym({
    cacheDirectory: cache,
    scratchDirectory: scratch,
    commandTimeLimitMs: 20_000,
  });
  task = (await benchmark.loadTasks({ split: "train" })).tasks[0] as Task;
}, 120_000);
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const bash = (command: string) => `THOUGHT: next\n\n\`\`\`bash\n${command}\n\`\`\``;
const submit = bash("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached");

function sibling(patch: (config: HarnessConfig) => void): HarnessConfig {
  const base = benchmark.presets["mini-swe-agent"];
  if (base === undefined) throw new Error("missing preset");
  const config = structuredClone(base);
  patch(config);
  return parseHarnessConfig(config);
}

describe("SWE-Gym harness-call directions", () => {
  it("the library offers them to the operators", () => {
    expect(sweGymLibrary.preludes).toBe(sweGymHarnessCallLibrary.preludes);
    expect(sweGymLibrary.macros.map((macro) => macro.name)).toContain("run_failing_tests");
  });

  it("the prelude runs the tests, and a failing test's traceback is followed by the lines it names", {
    timeout: 120_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.context.prelude = sweGymHarnessCallLibrary.preludes[0]!;
      draft.errorRecovery.followUps = [sweGymHarnessCallLibrary.followUps[0]!];
    });
    const probe =
      "printf 'def test_probe():\\n    assert 1 == 2\\n' > test_hs_probe.py && python3 -m pytest -x -q -p no:cacheprovider --tb=short test_hs_probe.py";
    const policy = scriptedPolicy([bash(probe), submit]);
    const trajectory = await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    const prelude = policy.views[0]?.messages.at(-1)?.content ?? "";
    expect(prelude).toMatch(/^Before you start, the harness ran the tests/);
    expect(prelude).toMatch(
      /\[harness ran bash: \{ timeout 20 python3 -m pytest[\s\S]*<returncode>\d+<\/returncode>/,
    );
    const shown = policy.views[1]?.messages.at(-1)?.content ?? "";
    const frame = /The traceback ends at ([\w./-]+\.py):(\d+); the harness opened those lines:/.exec(shown);
    expect(frame).not.toBeNull();
    expect(shown).toContain(`[harness ran bash: nl -ba '${frame?.[1]}'`);
    expect(frame?.slice(1)).toEqual(["test_hs_probe.py", "2"]);
    expect(shown).toMatch(/\n\s+2\t {4}assert 1 == 2/);
    expect(trajectory.steps[0]?.harnessCalls).toHaveLength(1);
    expect(trajectory.preludeCalls).toHaveLength(1);
  });

  it("the check holds a bash submission, runs the tests and shows them before accepting the next", {
    timeout: 120_000,
  }, async () => {
    const check = sweGymHarnessCallLibrary.checkCalls[0]!;
    const config = sibling((draft) => {
      draft.verification = {
        enabled: true,
        prompt: check.prompt,
        maxChecks: 1,
        calls: check.calls,
        ...(check.submitMatch === undefined ? {} : { submitMatch: check.submitMatch }),
      };
    });
    const policy = scriptedPolicy([submit, submit]);
    const trajectory = await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toMatch(
      /^Before submitting, the harness ran the tests \(below\)[\s\S]*\[harness ran bash: \{ timeout 20 python3 -m pytest/,
    );
    expect(trajectory.steps[0]?.executed).toEqual([]);
    expect(trajectory.endReason).toBe("submitted");
  });
});
