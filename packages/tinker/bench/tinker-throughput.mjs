// Throughput of the Tinker path against the local test server (test equipment, not Tinker or SkyRL):
// rollout steps per second (render the view with the chat template, tokenize, /asample + futures,
// decode) and learner updates per second (cookbook Datums, forward_backward, optim_step,
// save_weights_for_sampler), with the share of wall time spent in the server's handlers, in the
// client waiting on HTTP, and in client-side work (rendering, tokenizing, building Datums).
//
// Usage (after `pnpm --filter @hs/tinker build`):
//   node packages/tinker/bench/tinker-throughput.mjs [--steps 400] [--updates 20] [--batch 32]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ChatRenderer, TinkerClient, TinkerGrpoLearner, TinkerSamplerPolicy } from "../dist/index.js";
import { TinkerTestServer } from "../dist/server/index.js";

const { values } = parseArgs({
  options: { steps: { type: "string" }, updates: { type: "string" }, batch: { type: "string" } },
});
const steps = Number(values.steps ?? 400);
const updates = Number(values.updates ?? 20);
const batchSize = Number(values.batch ?? 32);
const tokenizer = fileURLToPath(new URL("../src/__fixtures__/tiny-tokenizer", import.meta.url));
const baseModel = "hs/tiny-capitals";

const renderer = await ChatRenderer.fromDirectory(tokenizer);
const server = new TinkerTestServer({
  baseModels: { [baseModel]: { vocabSize: renderer.tokenizer.get_vocab(true).size } },
});
const client = new TinkerClient({ baseUrl: await server.start() });
await client.createSession(["bench"]);
const policy = new TinkerSamplerPolicy({ client, renderer, baseModel, maxTokens: 3 });
const learner = new TinkerGrpoLearner({
  client,
  policy,
  baseModel,
  loraConfig: { rank: 4 },
  adamParams: { learning_rate: 0.1, beta1: 0.9, beta2: 0.95, eps: 1e-8 },
});
const countries = ["france", "peru", "japan", "kenya"];
const view = (index) => ({
  messages: [{ role: "user", content: `capital ${countries[index % countries.length]}` }],
  tools: [],
  actionFormat: "text",
});

function snapshot() {
  return {
    wall: performance.now(),
    server: server.handlerMs,
    waiting: client.transport.waitingMs,
    attempts: client.transport.attempts,
  };
}
function report(name, count, unit, start) {
  const end = snapshot();
  const wall = end.wall - start.wall;
  const serverMs = end.server - start.server;
  const waitingMs = end.waiting - start.waiting;
  console.log(
    `${name}: ${count} ${unit} in ${(wall / 1000).toFixed(2)} s = ${((count * 1000) / wall).toFixed(1)} ${unit}/s; ` +
      `server handlers ${((100 * serverMs) / wall).toFixed(1)}%, client waiting on HTTP ${((100 * waitingMs) / wall).toFixed(1)}% ` +
      `(HTTP stack + server), client work ${((100 * (wall - waitingMs)) / wall).toFixed(1)}%; ` +
      `${end.attempts - start.attempts} HTTP requests`,
  );
}

await policy.act(view(0), { seed: 0 });
let start = snapshot();
const actions = [];
for (let step = 0; step < steps; step++)
  actions.push({ view: view(step), action: await policy.act(view(step), { seed: step }) });
report("rollout steps", steps, "steps", start);

start = snapshot();
for (let update = 0; update < updates; update++) {
  const samples = actions
    .slice((update * batchSize) % actions.length)
    .slice(0, batchSize)
    .map((entry, index) => ({
      trajectoryId: `t${update}-${index}`,
      harnessId: "bench",
      steps: [entry],
      advantage: index % 2 === 0 ? 1 : -1,
    }));
  await learner.update({ samples });
}
report(`learner updates (batch ${batchSize})`, updates, "updates", start);
await client.close();
await server.close();
