import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";

const devFile = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../packages/benchmarks-dbbench/data/dev.jsonl",
);

async function hs(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await main(args, { stdout: () => {}, stderr: (text) => (stderr += text) });
  return { code, stderr };
}

const policyFile = (directory: string) =>
  JSON.parse(readFileSync(join(directory, "final", "policy.json"), "utf8")) as {
    origin: string;
    updates: number;
  };

describe("hs train --init", () => {
  it("continues from the given weights and records where they came from", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-init-"));
    const data = join(directory, "four.jsonl");
    writeFileSync(data, `${readFileSync(devFile, "utf8").split("\n").slice(40, 44).join("\n")}\n`);
    const train = (...extra: string[]) =>
      hs([
        "train",
        "--bench",
        "dbbench",
        "--method",
        "grpo",
        "--data",
        data,
        "--budget",
        "16",
        "--group-size",
        "4",
        "--prompts-per-step",
        "2",
        ...extra,
      ]);
    const first = join(directory, "first");
    const second = join(directory, "second");
    expect((await train("--seed", "2", "--out", first)).code).toBe(0);
    expect((await train("--seed", "5", "--init", first, "--out", second)).code).toBe(0);
    const before = policyFile(first);
    const after = policyFile(second);
    expect(before.origin).toBe("seed2");
    expect(after.origin).toBe("seed2");
    expect(after.updates).toBeGreaterThan(before.updates);
    const config = JSON.parse(readFileSync(join(second, "config.json"), "utf8")) as Record<string, unknown>;
    expect(config.initialPolicy).toBe(first);
    expect(config.seed).toBe(5);
    const withoutInit = await train("--seed", "5", "--out", second);
    expect(withoutInit.code).not.toBe(0);
    expect(withoutInit.stderr).toMatch(/an input changed since the run started: init \(sha256:/);
  }, 60_000);

  it("refuses --hidden beside --init and names a directory without weights", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-init-"));
    const common = [
      "train",
      "--bench",
      "dbbench",
      "--method",
      "grpo",
      "--budget",
      "16",
      "--out",
      join(directory, "run"),
    ];
    const both = await hs([...common, "--init", directory, "--hidden", "8"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--hidden and --init");
    const missing = await hs([...common, "--init", join(directory, "nothing")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(join(directory, "nothing", "policy.json"));
  });
});
