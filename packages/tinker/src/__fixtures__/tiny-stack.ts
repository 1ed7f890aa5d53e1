import { fileURLToPath } from "node:url";
import { runEpisode } from "@hs/harness";
import type { PolicyV1, Task } from "@hs/spec";
import { TinkerClient } from "../client/tinker-client.js";
import { TinkerGrpoLearner } from "../learner/tinker-learner.js";
import { TinkerSamplerPolicy } from "../policy/tinker-policy.js";
import { ChatRenderer } from "../render/chat-renderer.js";
import { capitalsHarness, createCapitalsBenchmark } from "../server/capitals-benchmark.js";
import { type TestServerMode, TinkerTestServer } from "../server/test-server.js";

/** Directory of the tiny test tokenizer. */
export const tinyTokenizerDirectory = fileURLToPath(new URL("./tiny-tokenizer", import.meta.url));
/** The test server's base model for the tiny tokenizer. */
export const tinyBaseModel = "hs/tiny-capitals";

/** A test server, a client, the tiny renderer, and a policy/learner pair on them. */
export async function startTinyStack(
  options: {
    url?: string;
    learningRate?: number;
    extraServerVocabulary?: number;
    mode?: TestServerMode;
  } = {},
) {
  const renderer = await ChatRenderer.fromDirectory(tinyTokenizerDirectory);
  const vocabSize = renderer.tokenizer.get_vocab(true).size + (options.extraServerVocabulary ?? 0);
  const server =
    options.url === undefined
      ? new TinkerTestServer({
          baseModels: { [tinyBaseModel]: { vocabSize, seed: 11 } },
          ...(options.mode === undefined ? {} : { mode: options.mode }),
        })
      : undefined;
  const url = options.url ?? (await server?.start()) ?? "";
  const client = new TinkerClient({ baseUrl: url });
  await client.createSession(["test"]);
  const policy = new TinkerSamplerPolicy({ client, renderer, baseModel: tinyBaseModel, maxTokens: 3 });
  const learner = new TinkerGrpoLearner({
    client,
    policy,
    baseModel: tinyBaseModel,
    loraConfig: { rank: 4, seed: 11 },
    runName: "capitals",
    adamParams: { learning_rate: options.learningRate ?? 1, beta1: 0.9, beta2: 0.95, eps: 1e-8 },
  });
  const benchmark = createCapitalsBenchmark();
  const close = async () => {
    await client.close();
    await server?.close();
  };
  return { server, client, renderer, policy, learner, benchmark, harness: capitalsHarness, close };
}

/** Mean reward of sampled episodes over `tasks` x `seeds`. */
export async function meanReward(
  benchmark: ReturnType<typeof createCapitalsBenchmark>,
  policy: PolicyV1,
  tasks: readonly Task[],
  seeds: number,
): Promise<number> {
  let total = 0;
  for (const task of tasks) {
    for (let seed = 0; seed < seeds; seed++) {
      const trajectory = await runEpisode({
        task,
        benchmark,
        harness: capitalsHarness,
        policy,
        seed: 1000 + seed,
        mode: "sample",
      });
      total += trajectory.reward;
    }
  }
  return total / (tasks.length * seeds);
}
