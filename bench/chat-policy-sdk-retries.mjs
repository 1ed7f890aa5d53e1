// Why @hs/chat-policy keeps its own retry loop and body timer on top of the openai SDK: the same five
// faults of a local chat-completions server (127.0.0.1 only) sent once through the SDK alone
// (`maxRetries`, `timeout`, `signal` as the SDK does them) and once through createChatPolicy.
// Build first: pnpm --filter @hs/chat-policy build. Usage: node bench/chat-policy-sdk-retries.mjs
// Runs about 15 s. Figures of the last run are in packages/chat-policy/README.md.

import { createServer } from "node:http";
import { createRequire } from "node:module";

const require = createRequire(new URL("../packages/chat-policy/package.json", import.meta.url));
const { OpenAI } = require("openai");
const { createChatPolicy } = await import("../packages/chat-policy/dist/index.js");

const reply = JSON.stringify({
  id: "x",
  object: "chat.completion",
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
});

/** A server that answers by the fault named in the first path segment. */
async function startServer() {
  const counts = new Map();
  const server = createServer((request, response) => {
    const fault = request.url.split("/")[1];
    counts.set(fault, (counts.get(fault) ?? 0) + 1);
    request.resume();
    request.on("end", () => {
      const first = counts.get(fault) === 1;
      if (fault.startsWith("wait3") && first)
        return response.writeHead(429, { "retry-after": "3" }).end("{}");
      if (fault.startsWith("wait5") && first)
        return response.writeHead(429, { "retry-after": "5" }).end("{}");
      if (fault === "stall") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.write(reply.slice(0, 20));
      }
      if (fault === "detail") {
        return response
          .writeHead(500, { "content-type": "application/json" })
          .end('{"detail":"CUDA out of memory"}');
      }
      response.writeHead(200, { "content-type": "application/json" }).end(reply);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}`, counts };
}

const messages = [{ role: "user", content: "hi" }];
const view = { actionFormat: "text", tools: [], messages };

async function timed(run, capMs) {
  const started = performance.now();
  const outcome = await Promise.race([
    run().then(
      () => "resolved",
      (error) => `rejected: ${error.message.slice(0, 110)}`,
    ),
    new Promise((resolve) => setTimeout(() => resolve(`still pending at the ${capMs} ms cap`), capMs)),
  ]);
  return `${Math.round(performance.now() - started)} ms, ${outcome}`;
}

const { server, base } = await startServer();
const sdk = (fault, options = {}) =>
  new OpenAI({ baseURL: `${base}/${fault}/v1`, apiKey: "k", maxRetries: 2, timeout: 500, ...options });
const policy = (fault, options = {}) =>
  createChatPolicy({ baseURL: `${base}/${fault}/v1`, model: "m", env: {}, timeoutMs: 500, ...options });

// Warm-up: the first request of a process spends a few hundred ms loading before it is sent.
await sdk("ok").chat.completions.create({ model: "m", messages });
await policy("ok").act(view, { seed: 1 });

const rows = [];
{
  const abortAfter = (ms) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), ms);
    return controller.signal;
  };
  rows.push([
    "cancel 300 ms into a 3 s Retry-After wait",
    await timed(
      () => sdk("wait3").chat.completions.create({ model: "m", messages }, { signal: abortAfter(300) }),
      6_000,
    ),
    await timed(() => policy("wait3-b").act(view, { seed: 1, signal: abortAfter(300) }), 6_000),
  ]);
}
rows.push([
  "Retry-After 5 s, caller allows 1 s",
  await timed(() => sdk("wait5").chat.completions.create({ model: "m", messages }), 8_000),
  await timed(() => policy("wait5-b", { maxRetryAfterMs: 1_000 }).act(view, { seed: 1 }), 8_000),
]);
rows.push([
  "headers sent, body stalls; time limit 500 ms",
  await timed(() => sdk("stall", { maxRetries: 0 }).chat.completions.create({ model: "m", messages }), 3_000),
  await timed(() => policy("stall", { maxRetries: 0 }).act(view, { seed: 1 }), 3_000),
]);
rows.push([
  'HTTP 500 {"detail":...} (vLLM/FastAPI style)',
  await timed(
    () => sdk("detail", { maxRetries: 0 }).chat.completions.create({ model: "m", messages }),
    3_000,
  ),
  await timed(() => policy("detail", { maxRetries: 0 }).act(view, { seed: 1 }), 3_000),
]);
{
  // Cost per call against the same local server: the policy (SDK inside) vs a bare fetch of the body.
  const calls = 300;
  const chat = policy("ok");
  let started = performance.now();
  for (let index = 0; index < calls; index += 1) await chat.act(view, { seed: index });
  const policyMs = (performance.now() - started) / calls;
  started = performance.now();
  for (let index = 0; index < calls; index += 1) {
    const response = await fetch(`${base}/ok/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages, seed: index }),
    });
    JSON.parse(await response.text());
  }
  const fetchMs = (performance.now() - started) / calls;
  console.log(
    `per call, ${calls} sequential calls: createChatPolicy ${policyMs.toFixed(2)} ms, bare fetch ${fetchMs.toFixed(2)} ms`,
  );
}
for (const [fault, sdkResult, policyResult] of rows) {
  console.log(`${fault}\n  openai SDK alone : ${sdkResult}\n  createChatPolicy : ${policyResult}`);
}
server.closeAllConnections();
server.close();
