import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatRenderer } from "@hs/tinker";
import { TinkerTestServer } from "@hs/tinker/test-server";
import { describe, expect, it } from "vitest";
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

/** The advantage each forward_backward Datum carried on its action tokens (the trained advantage). */
function trainedAdvantages(server: TinkerTestServer): number[] {
  return server.received
    .filter((request) => request.endpoint === "/forward_backward")
    .flatMap((request) => {
      const body = request.body as {
        forward_backward_input: { data: { loss_fn_inputs: { advantages?: { data: number[] } } }[] };
      };
      return body.forward_backward_input.data.map((datum) => {
        const values = datum.loss_fn_inputs.advantages?.data ?? [];
        return values.find((value) => value !== 0) ?? 0;
      });
    });
}

const rounded = (values: number[]) =>
  values.map((value) => Math.round(value * 1e6) / 1e6).sort((a, b) => a - b);

describe("hs export after hs train --policy tinker:MODEL", () => {
  it("exports the advantages the trainer trained on (sample std + 1e-6, the trainer's own function)", async () => {
    const renderer = await ChatRenderer.fromDirectory(tokenizer);
    const server = new TinkerTestServer({
      baseModels: { [baseModel]: { vocabSize: renderer.tokenizer.get_vocab(true).size, seed: 11 } },
    });
    const url = await server.start();
    try {
      const out = join(mkdtempSync(join(tmpdir(), "hs-tinker-export-")), "run");
      const train = await run([
        ...["train", "--bench", bench, "--method", "grpo", "--policy", `tinker:${baseModel}`],
        ...["--tinker-url", url, "--tokenizer", tokenizer, "--max-tokens", "3", "--lora-rank", "4"],
        ...["--budget", "32", "--group-size", "4", "--prompts-per-step", "2", "--seed", "3", "--out", out],
      ]);
      expect(train.code, train.stderr).toBe(0);
      const file = join(out, "export.jsonl");
      const exported = await run(["export", "--run", out, "--format", "trl", "--out", file]);
      expect(exported.code, exported.stderr).toBe(0);
      const rows = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { advantage: number });
      const trained = trainedAdvantages(server);
      expect(rows).toHaveLength(32);
      expect(trained.length).toBeGreaterThan(0);
      // groups with signal were trained; their exported advantages are exactly the trained ones
      const exportedNonZero = rows.map((row) => row.advantage).filter((value) => value !== 0);
      expect(exportedNonZero.length).toBeGreaterThan(0);
      expect(rounded(exportedNonZero)).toEqual(rounded(trained.filter((value) => value !== 0)));
    } finally {
      await server.close();
    }
  }, 120_000);
});
