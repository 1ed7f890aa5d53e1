import { join, resolve } from "node:path";
import { connectRedis } from "@hs/queue";
import { ChatRenderer } from "@hs/tinker";
import { TinkerTestServer } from "@hs/tinker/test-server";
import { describe, expect, it } from "vitest";
import {
  runHs as hs,
  jsonlWithoutClock,
  startWorkerProcess,
  temporaryDirectories,
  testRedisUrl,
} from "../__fixtures__/queue-worker.js";

const redisUrl = testRedisUrl("hs train --policy tinker: --redis test");
const tokenizer = resolve(import.meta.dirname, "../../../../packages/tinker/src/__fixtures__/tiny-tokenizer");
const bench = join(import.meta.dirname, "..", "__fixtures__", "plugins", "tinker-capitals.js");
const baseModel = "hs/tiny-capitals";
const apiKey = "tinker-key-of-this-test";
const scratch = temporaryDirectories();

/** A fresh server per run: model ids and sampler paths then read the same in both runs. */
async function startServer(): Promise<TinkerTestServer> {
  const renderer = await ChatRenderer.fromDirectory(tokenizer);
  const server = new TinkerTestServer({
    baseModels: { [baseModel]: { vocabSize: renderer.tokenizer.get_vocab(true).size, seed: 11 } },
    clientConfig: { pjwt_auth_enabled: true },
    apiKeys: [apiKey],
  });
  await server.start();
  return server;
}

/** Every value stored in Redis, as text. */
async function everythingIn(url: string): Promise<string> {
  const redis = connectRedis(url);
  const texts: string[] = [];
  try {
    for (const key of await redis.keys("*")) {
      const type = await redis.type(key);
      if (type === "hash") texts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === "string") texts.push((await redis.get(key)) ?? "");
      else if (type === "list") texts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === "zset") texts.push(JSON.stringify(await redis.zrange(key, "0", "-1")));
      else if (type === "set") texts.push(JSON.stringify(await redis.smembers(key)));
    }
  } finally {
    redis.disconnect();
  }
  return texts.join("\n");
}

describe.skipIf(redisUrl === undefined)("hs train --policy tinker: --redis", () => {
  it("samples on a worker process with the trajectories and metrics of the same run in process", async () => {
    const url = redisUrl as string;
    const directory = await scratch("hs-tinker-queue-");
    const train = (server: TinkerTestServer, out: string, ...extra: string[]) =>
      hs([
        ...["train", "--bench", bench, "--method", "grpo", "--policy", `tinker:${baseModel}`, "--seed", "3"],
        ...["--tinker-url", server.url, "--tokenizer", tokenizer, "--max-tokens", "3", "--lora-rank", "4"],
        ...["--budget", "16", "--group-size", "4", "--prompts-per-step", "2", "--out", join(directory, out)],
        ...extra,
      ]);
    const previousKey = process.env.TINKER_API_KEY;
    process.env.TINKER_API_KEY = apiKey;
    const queuedServer = await startServer();
    const localServer = await startServer();
    try {
      const worker = await startWorkerProcess(url, [], { ...process.env, TINKER_API_KEY: apiKey });
      try {
        const queued = await train(queuedServer, "queued", "--redis", url);
        expect(queued.code, queued.stderr).toBe(0);
      } finally {
        await worker.stop();
      }
      expect(worker.episodesDone()).toBeGreaterThan(0);
      // the trainer's own sampler never sampled: every /asample came from a worker
      const samples = (server: TinkerTestServer) =>
        server.received.filter((entry) => entry.endpoint === "/asample").length;
      expect(samples(queuedServer)).toBeGreaterThanOrEqual(16);
      const local = await train(localServer, "local");
      expect(local.code, local.stderr).toBe(0);
      expect(samples(localServer)).toBe(16);
      // the servers number their models in one count: the sampler paths differ by the model id only
      const comparable = (out: string, file: string) =>
        jsonlWithoutClock(join(directory, out, file)).map((line) =>
          line.replaceAll(/tinker:\/\/model_\d+\//g, "tinker://MODEL/"),
        );
      for (const file of ["trajectories.jsonl", "metrics.jsonl"])
        expect(comparable("queued", file)).toEqual(comparable("local", file));
      const stored = await everythingIn(url);
      expect(stored).toContain('\\"kind\\":\\"tinker\\"');
      expect(stored).toContain("sampler_weights");
      expect(stored).not.toContain(apiKey);
    } finally {
      if (previousKey === undefined) delete process.env.TINKER_API_KEY;
      else process.env.TINKER_API_KEY = previousKey;
      await queuedServer.close();
      await localServer.close();
    }
  }, 120_000);
});
