import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BenchmarkV1, EnvironmentV1, EpisodeOutcome, Task, ToolSpec } from "@hs/spec";
import { ApiCallError } from "@hs/spec";
import { createHarnessConfig } from "../parse-harness-config.js";

interface World {
  balance: number;
  target: number;
}

/**
 * Test equipment with the shape of AppWorld's environment server: worlds live on the server, the
 * environment is an HTTP client (initialize / execute / evaluate / close). The "code" language is a
 * tiny one: `balance`, `deposit N`, `withdraw N`.
 */
export async function startRemoteWorldServer(): Promise<{
  url: string;
  worlds: Map<string, World>;
  close(): Promise<void>;
}> {
  const worlds = new Map<string, World>();
  let next = 0;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const input = body === "" ? {} : (JSON.parse(body) as Record<string, unknown>);
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      const world = worlds.get(String(input.world_id));
      if (request.url === "/initialize") {
        const id = `world-${next++}`;
        worlds.set(id, { balance: 100, target: Number(input.target) });
        return reply(200, { world_id: id });
      }
      if (world === undefined) return reply(404, { error: `no world ${String(input.world_id)}` });
      if (request.url === "/execute") {
        const [verb, amount] = String(input.code).trim().split(/\s+/);
        if (verb === "balance") return reply(200, { output: String(world.balance) });
        if ((verb === "deposit" || verb === "withdraw") && Number.isFinite(Number(amount))) {
          world.balance += (verb === "deposit" ? 1 : -1) * Number(amount);
          return reply(200, { output: `ok, balance ${world.balance}` });
        }
        return reply(200, { output: `SyntaxError: cannot run ${String(input.code)}`, error: true });
      }
      if (request.url === "/evaluate") return reply(200, { success: world.balance === world.target });
      if (request.url === "/close") {
        worlds.delete(String(input.world_id));
        return reply(200, {});
      }
      return reply(404, { error: "unknown endpoint" });
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    worlds,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const tools: ToolSpec[] = [
  {
    name: "execute",
    description: "Execute code in the app world.",
    parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
  },
  {
    name: "complete_task",
    description: "Finish the task.",
    parameters: { type: "object", properties: {} },
    terminal: true,
  },
];

/** Test equipment: a benchmark whose environments are clients of a remote world server. */
export function createRemoteBenchmark(
  serverUrl: string,
  fetchImplementation: typeof fetch = fetch,
): BenchmarkV1 {
  const post = async (
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> => {
    const response = await fetchImplementation(`${serverUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
    const text = await response.text();
    if (!response.ok)
      throw new ApiCallError(`${path} failed with ${response.status}`, {
        status: response.status,
        responseBody: text,
      });
    return JSON.parse(text) as Record<string, unknown>;
  };
  return {
    specificationVersion: "v1",
    id: "remote",
    splits: ["train"],
    presets: { tools: createHarnessConfig({ id: "remote-tools" }) },
    defaultPreset: "tools",
    async loadTasks() {
      const task: Task = {
        id: "remote/deposit",
        benchmark: "remote",
        split: "train",
        category: "wallet",
        instruction: "Make the balance 130.",
        metadata: { target: 130 },
      };
      return { tasks: [task], problems: [] };
    },
    async createEnvironment(task): Promise<EnvironmentV1> {
      let worldId: string | null = null;
      return {
        specificationVersion: "v1",
        tools,
        async reset(options) {
          worldId = String(
            (await post("/initialize", { target: task.metadata.target }, options?.signal)).world_id,
          );
        },
        async step(call, options) {
          if (call.name === "complete_task") return { content: "task completed", isError: false, done: true };
          const result = await post(
            "/execute",
            { world_id: worldId, code: call.arguments.code },
            options?.signal,
          );
          return { content: String(result.output), isError: result.error === true, done: false };
        },
        async grade(options) {
          const success = (await post("/evaluate", { world_id: worldId }, options?.signal)).success === true;
          return { reward: success ? 1 : 0, success, details: {} };
        },
        async close() {
          if (worldId !== null) await post("/close", { world_id: worldId });
          worldId = null;
        },
      };
    },
    summarize(outcomes: readonly EpisodeOutcome[]) {
      return {
        task_goal_completion:
          outcomes.filter((outcome) => outcome.success).length / Math.max(1, outcomes.length),
      };
    },
  };
}
