import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatRenderer } from "@hs/tinker";
import { TinkerTestServer } from "@hs/tinker/test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "./main.js";

const tokenizer = resolve(import.meta.dirname, "../../../packages/tinker/src/__fixtures__/tiny-tokenizer");
const bench = join(import.meta.dirname, "__fixtures__", "plugins", "tinker-capitals.js");
const baseModel = "hs/tiny-capitals";

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe("hs train --policy tinker:MODEL", () => {
  let server: TinkerTestServer;
  let url = "";
  beforeAll(async () => {
    const renderer = await ChatRenderer.fromDirectory(tokenizer);
    server = new TinkerTestServer({
      baseModels: { [baseModel]: { vocabSize: renderer.tokenizer.get_vocab(true).size, seed: 11 } },
    });
    url = await server.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("trains an LLM through the Tinker API over HTTP and checkpoints its Tinker paths", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "hs-tinker-train-")), "run");
    const args = ["train", "--bench", bench, "--method", "grpo", "--policy", `tinker:${baseModel}`];
    const tinker = ["--tinker-url", url, "--tokenizer", tokenizer, "--max-tokens", "3", "--lora-rank", "4"];
    const budget = ["--budget", "32", "--group-size", "4", "--prompts-per-step", "2", "--out", out];
    const result = await run([...args, ...tinker, ...budget, "--json"]);
    expect(result.stderr).toContain("step 3: rollouts 32/32");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ steps: 4, rollouts: 32 });
    const checkpoint = JSON.parse(readFileSync(join(out, "final", "tinker-checkpoint.json"), "utf8"));
    expect(checkpoint).toMatchObject({ format: "hs-tinker-checkpoint", baseModel });
    expect(String(checkpoint.trainingPath)).toMatch(/^tinker:\/\//);
    const steps = readFileSync(join(out, "trajectories.jsonl"), "utf8").trim().split("\n");
    expect(steps).toHaveLength(32);
    expect(existsSync(join(out, "final", "policy.json"))).toBe(false);
    const evaluated = await run([
      ...[
        "eval",
        "--bench",
        bench,
        "--split",
        "heldout",
        "--policy",
        `tinker:${baseModel}`,
        "--tinker-run",
        out,
      ],
      ...tinker,
      "--json",
    ]);
    expect(evaluated.code).toBe(0);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ policy: expect.stringContaining("tinker") });
  }, 120_000);

  it("asks for what a tinker policy needs and refuses the embedded policy's options", async () => {
    const base = ["train", "--bench", bench, "--method", "grpo", "--policy", `tinker:${baseModel}`];
    const out = join(mkdtempSync(join(tmpdir(), "hs-tinker-bad-")), "run");
    expect((await run([...base, "--out", out])).stderr).toContain("--tinker-url URL is required");
    expect((await run([...base, "--hidden", "8", "--out", out])).stderr).toContain(
      "a tinker: policy starts from its base model",
    );
    expect(
      (await run(["train", "--bench", bench, "--method", "grpo", "--policy", "gpt:x", "--out", out])).stderr,
    ).toContain("expected embedded, chat or tinker:BASE_MODEL");
  });

  it.each([
    ["file:///etc/hosts", /--tinker-url: .*uses file:; only http: and https:/],
    ["not a url", /--tinker-url: .*is not a URL/],
  ])("refuses --tinker-url %s at once, before any request", async (tinkerUrl, message) => {
    const started = Date.now();
    const result = await run([
      "eval",
      "--bench",
      bench,
      "--policy",
      `tinker:${baseModel}`,
      "--tinker-url",
      tinkerUrl,
      "--tokenizer",
      tokenizer,
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("fails hs eval with the server's error on stderr when the Tinker replies are broken", async () => {
    const renderer = await ChatRenderer.fromDirectory(tokenizer);
    // the served model has 400 more token ids than the tokenizer: its samples name ids no tokenizer has
    const broken = new TinkerTestServer({
      baseModels: { [baseModel]: { vocabSize: renderer.tokenizer.get_vocab(true).size + 400, seed: 11 } },
    });
    const brokenUrl = await broken.start();
    try {
      const result = await run([
        ...["eval", "--bench", bench, "--split", "heldout", "--policy", `tinker:${baseModel}`],
        ...["--tinker-url", brokenUrl, "--tokenizer", tokenizer, "--max-tokens", "3", "--json"],
      ]);
      expect(result.stderr).toMatch(/asample answered token id \d+, which the tokenizer does not have/);
      expect(result.code).not.toBe(0);
    } finally {
      await broken.close();
    }
  });
});
