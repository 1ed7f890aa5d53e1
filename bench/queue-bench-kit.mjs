// Shared pieces of the queue benches: a private redis-server, rollout worker processes, a chat server.
import { spawn } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const workerScript = fileURLToPath(
  new URL("../packages/queue/src/__fixtures__/worker-process.mjs", import.meta.url),
);

export function freePort() {
  return new Promise((found) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => found(port));
    });
  });
}

/** A private redis-server (no data on disk) on a free port, or on `port`. */
export async function startRedis(port) {
  const chosen = port ?? (await freePort());
  const child = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(chosen), "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise((ready, fail) => {
    child.stdout.on("data", (chunk) => chunk.toString().includes("Ready to accept") && ready());
    child.on("exit", (code) => fail(new Error(`redis-server exited with ${code}`)));
  });
  return { url: `redis://127.0.0.1:${chosen}`, port: chosen, child, stop: () => stopProcess(child) };
}

export function stopProcess(child, signal = "SIGTERM") {
  return new Promise((gone) => {
    if (child.exitCode !== null || child.signalCode !== null) return gone();
    child.once("exit", () => gone());
    child.kill(signal);
  });
}

/** A worker process of packages/queue/src/__fixtures__/worker-process.mjs, once it is ready. */
export function startWorker(args) {
  const child = spawn(process.execPath, [workerScript, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((ready, fail) => {
    child.stdout.on("data", (chunk) => chunk.toString().includes("ready") && ready(child));
    child.on("exit", (code) => fail(new Error(`worker exited with ${code} before ready`)));
  });
}

/**
 * Test equipment: an OpenAI-compatible chat-completions server on 127.0.0.1 that holds at most
 * `capacity` requests at once (more wait their turn) and answers each after `latencyMs`. `timings()`
 * gives each request's arrival, start (a slot free) and answer, in epoch milliseconds.
 */
export async function startLatencyChatServer({ latencyMs, capacity, content }) {
  let active = 0;
  let served = 0;
  const waiting = [];
  const timings = [];
  const now = () => performance.timeOrigin + performance.now();
  const release = () => {
    active--;
    const next = waiting.shift();
    if (next !== undefined) next();
  };
  const server = createHttpServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const timing = { arrived: now(), started: 0, answered: 0 };
      timings.push(timing);
      const start = () => {
        active++;
        timing.started = now();
        setTimeout(() => {
          timing.answered = now();
          const { model } = JSON.parse(body);
          served++;
          response.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              id: `c${served}`,
              object: "chat.completion",
              created: 0,
              model,
              choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
              usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
            }),
          );
          release();
        }, latencyMs);
      };
      if (active < capacity) start();
      else waiting.push(start);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    served: () => served,
    timings: () => timings,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** Fields that hold wall-clock measurements (episode, step and statement times). */
const clockFields = new Set(["wallMs", "policyMs", "environmentMs", "timings", "elapsedMs"]);

/** A value without its wall-clock fields, at any depth. */
export function withoutClock(value) {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !clockFields.has(key))
      .map(([key, inner]) => [key, withoutClock(inner)]),
  );
}

/** Trajectories as JSON without wall-clock fields. */
export function comparable(trajectories) {
  return trajectories.map((trajectory) => JSON.stringify(withoutClock(trajectory)));
}
