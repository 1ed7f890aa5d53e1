import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ReceivedRequest, startChatServer } from "@hs/harness/test-environments";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkerProcess, testRedisUrl, withoutClock } from "../__fixtures__/queue-worker.js";
import { main } from "../main.js";
import { servedModelStateFile } from "../served-model-learner.js";

const redisUrl = testRedisUrl("hs train --policy chat --redis test");
const tinyBenchmark = join(
  import.meta.dirname,
  "..",
  "__fixtures__",
  "plugins",
  "tiny-benchmark",
  "index.js",
);
const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

async function hs(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/**
 * The model of the test server: a right answer for even request seeds, a wrong one for odd seeds, so
 * groups have both rewards (the reply depends only on the request, so any process asking gets it).
 */
function reply(request: ReceivedRequest) {
  const digit = Number(/digit (\d)/.exec(request.messages.at(-1)?.content ?? "")?.[1]);
  const seed = (request as ReceivedRequest & { seed?: number }).seed ?? 0;
  return { content: `answer: ${seed % 2 === 0 ? words[digit] : "none"}`, delayMs: 5 };
}

/** A trajectory line without clock fields and without the server's response trace (ids count requests). */
function comparable(file: string): unknown[] {
  const withoutTrace = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(withoutTrace)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key]) => key !== "trace")
              .map(([key, inner]) => [key, withoutTrace(inner)]),
          )
        : value;
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => withoutTrace(withoutClock(JSON.parse(line))));
}

let server: Awaited<ReturnType<typeof startChatServer>>;
let directory = "";
beforeAll(async () => {
  server = await startChatServer(reply);
  directory = await mkdtemp(join(tmpdir(), "hs-train-chat-"));
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

const train = (out: string, ...extra: string[]) => [
  ...["train", "--bench", tinyBenchmark, "--method", "grpo", "--seed", "3", "--budget", "16"],
  ...["--group-size", "4", "--prompts-per-step", "2", "--out", join(directory, out)],
  ...["--policy", "chat", "--chat-url", server.baseURL, "--chat-model", "test-model", ...extra],
];

describe("hs train --policy chat", () => {
  it("trains against a chat endpoint over HTTP: every rollout one call, advantages from mixed groups", async () => {
    const before = server.requests.length;
    const result = await hs(train("local"));
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.length - before).toBe(16);
    expect(server.requests.slice(before).every((request) => request.model === "test-model")).toBe(true);
    const trajectories = comparable(join(directory, "local", "trajectories.jsonl")) as {
      policyId: string;
      policyVersion: string;
      success: boolean;
    }[];
    expect(trajectories).toHaveLength(16);
    expect(new Set(trajectories.map((trajectory) => trajectory.success))).toEqual(new Set([true, false]));
    expect(trajectories[0]).toMatchObject({
      policyId: "openai-compatible:test-model",
      policyVersion: "test-model",
    });
    const metrics = readFileSync(join(directory, "local", "metrics.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(metrics).toHaveLength(2);
    expect(JSON.parse(metrics[0] as string).learner).toMatchObject({ samples: expect.any(Number) });
    const state = join(directory, "local", "final", servedModelStateFile);
    expect(JSON.parse(readFileSync(state, "utf8"))).toEqual({ updates: 2, model: "test-model" });
  }, 60_000);

  it("refuses chat options without --policy chat, and --policy chat without its endpoint", async () => {
    const stray = await hs([
      ...["train", "--bench", tinyBenchmark, "--method", "grpo", "--out", join(directory, "stray")],
      ...["--chat-model", "m"],
    ]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--chat-model is an option of --policy chat/);
    const missing = await hs([
      ...["train", "--bench", tinyBenchmark, "--method", "grpo", "--out", join(directory, "missing")],
      ...["--policy", "chat", "--chat-model", "m"],
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--policy chat: --chat-url is required/);
    const hidden = await hs([...train("hidden"), "--hidden", "8"]);
    expect(hidden.code).toBe(2);
    expect(hidden.stderr).toMatch(/--init and --hidden are the embedded policy's; a chat policy acts/);
    const credit = await hs([...train("credit"), "--credit-harness-calls"]);
    expect(credit.code).toBe(2);
    expect(credit.stderr).toMatch(/--credit-harness-calls is the embedded policy's/);
    const help = await hs(["train", "--help"]);
    expect(help.stdout).toMatch(/--chat-url URL/);
    expect(help.stdout).toMatch(/--chat-model NAME/);
    expect(existsSync(join(directory, "stray"))).toBe(false);
  });

  it.skipIf(redisUrl === undefined)(
    "runs the rollouts on an hs worker that calls the endpoint the jobs name, with the in-process results",
    async () => {
      const worker = await startWorkerProcess(redisUrl as string);
      let queued: Awaited<ReturnType<typeof hs>>;
      try {
        queued = await hs(train("queued", "--redis", redisUrl as string));
      } finally {
        await worker.stop();
      }
      expect(queued.code, queued.stderr).toBe(0);
      expect(worker.episodesDone()).toBeGreaterThan(0);
      if (!existsSync(join(directory, "local", "trajectories.jsonl"))) await hs(train("local"));
      for (const file of ["trajectories.jsonl", "metrics.jsonl"])
        expect(comparable(join(directory, "queued", file)), file).toEqual(
          comparable(join(directory, "local", file)),
        );
    },
    90_000,
  );
});
