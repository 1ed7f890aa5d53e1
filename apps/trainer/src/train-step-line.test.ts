import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatStatistic } from "./format-statistic.js";
import { main } from "./main.js";
import { loadBenchmarkPlugin } from "./plugins.js";
import { trainStepLine } from "./train-step-line.js";

const tinyBenchmark = join(import.meta.dirname, "__fixtures__", "plugins", "tiny-benchmark");

describe("the step line of hs train", () => {
  it("says how many rescues the gate held back", () => {
    const metrics = {
      ...{ step: 3, rolloutsTotal: 40, reward: 0.25, signalShare: 0.5, rolloutsRescue: 8, wallMs: 12 },
      learner: { loss: 0.1, gradNorm: 0.2 },
      rescue: { attempts: 1, successes: 0, gated: 2 },
    } as unknown as Parameters<typeof trainStepLine>[0];
    expect(trainStepLine(metrics, 64)).toContain("rescued 0/1 (8 rollouts) held back 2 rescue(s)");
    expect(trainStepLine({ ...metrics, rescue: { attempts: 1, successes: 1 } }, 64)).not.toContain(
      "held back",
    );
  });

  it("shows a small loss and the gradient norm as the metrics hold them, not 0.0000", async () => {
    const root = mkdtempSync(join(tmpdir(), "hs-step-line-"));
    // the tiny benchmark's base harness allows one step, too few to succeed: four steps give the
    // groups mixed rewards, so every update has a gradient
    const benchmark = await (await loadBenchmarkPlugin(tinyBenchmark)).createBenchmark({});
    const harness = join(root, "four-steps.json");
    const base = benchmark.presets[benchmark.defaultPreset];
    writeFileSync(harness, JSON.stringify({ ...base, budget: { maxSteps: 4, maxOutputChars: null } }));
    let stderr = "";
    const out = join(root, "run");
    const code = await main(
      [
        ...["train", "--bench", tinyBenchmark, "--method", "grpo", "--harness", harness],
        ...["--budget", "32", "--group-size", "4", "--prompts-per-step", "2", "--out", out],
      ],
      { stdout: () => {}, stderr: (text) => (stderr += text) },
    );
    expect(code, stderr).toBe(0);
    const steps = readFileSync(join(out, "metrics.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { step: number; learner: { loss: number; gradNorm: number } });
    const lines = stderr.split("\n").filter((line) => line.startsWith("step "));
    expect(lines.length).toBe(steps.length);
    expect(steps.some((step) => step.learner.gradNorm > 0)).toBe(true);
    for (const [index, step] of steps.entries()) {
      const shown = /loss (\S+) grad norm (\S+)/.exec(lines[index] ?? "");
      expect(shown, lines[index]).not.toBeNull();
      const [, loss, gradNorm] = shown as RegExpExecArray;
      const close = (text: string, value: number) =>
        value === 0 ? Number(text) === 0 : Math.abs(Number(text) - value) <= Math.abs(value) * 1e-3;
      expect(close(loss as string, step.learner.loss), `${lines[index]} vs loss ${step.learner.loss}`).toBe(
        true,
      );
      expect(close(gradNorm as string, step.learner.gradNorm), lines[index]).toBe(true);
    }
  }, 60_000);

  it("writes four significant digits, in exponent form below 0.001", () => {
    expect(formatStatistic(3.2e-9)).toBe("3.200e-9");
    expect(formatStatistic(-0.000412)).toBe("-4.120e-4");
    expect(formatStatistic(0.4213789)).toBe("0.4214");
    expect(formatStatistic(12.5)).toBe("12.5");
    expect(formatStatistic(0)).toBe("0");
    expect(formatStatistic(undefined)).toBe("-");
  });
});
