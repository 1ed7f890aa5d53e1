import { floatTensor, intTensor, TinkerClient, tokensInput } from "@hs/tinker";
import { TinkerTestServer } from "@hs/tinker/test-server";

// Test equipment: the package's own Tinker API server on 127.0.0.1 with a tiny learning model.
const baseModel = "hs/tiny-bag-bigram";
const server = new TinkerTestServer({ baseModels: { [baseModel]: { vocabSize: 8, seed: 3 } } });
const client = new TinkerClient({ baseUrl: await server.start(), heartbeatIntervalMs: 60_000 });
const adam = { learning_rate: 0.1, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0, grad_clip_norm: 0 };
const tokens = [1, 2, 3, 4, 5];
const datum = {
  model_input: tokensInput(tokens.slice(0, -1)),
  loss_fn_inputs: { target_tokens: intTensor(tokens.slice(1)), weights: floatTensor([1, 1, 1, 1]) },
};
try {
  await client.createSession();
  const health = await client.healthz();
  if (health.status !== "ok") throw new Error(`healthz answered ${JSON.stringify(health)}`);
  const model = await client.createModel(baseModel, { rank: 8, seed: 5 });
  const first = await client.forwardBackward(model, [datum], "cross_entropy");
  await client.optimStep(model, adam);
  for (let step = 0; step < 5; step++) {
    await client.forwardBackward(model, [datum], "cross_entropy");
    await client.optimStep(model, adam);
  }
  const last = await client.forwardBackward(model, [datum], "cross_entropy");
  const before = first.metrics["loss:sum"];
  const after = last.metrics["loss:sum"];
  if (!(after < before / 2)) throw new Error(`loss did not fall: ${before} -> ${after}`);
  console.log(
    `tinker: 7 forward_backward + 6 optim_step over HTTP; loss ${before.toFixed(3)} -> ${after.toFixed(3)}`,
  );
} finally {
  await client.close();
  await server.close();
}
