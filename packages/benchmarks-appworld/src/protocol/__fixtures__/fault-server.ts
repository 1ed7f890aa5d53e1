import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How the fault server misbehaves on the next requests. */
export type Fault =
  | { kind: "none" }
  | { kind: "slow"; delayMs: number }
  | { kind: "status"; status: number; times: number }
  | { kind: "garbage" }
  | { kind: "wrong-task" }
  | { kind: "bad-shape" };

/** A protocol-speaking AppWorld environment server with injectable faults (test equipment). */
export interface FaultServer {
  url: string;
  fault: Fault;
  /** Requests seen, as `METHOD path`. */
  requests: string[];
  /** Bodies of /execute requests. */
  executed: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

function taskInfo(taskId: string) {
  return {
    task_id: taskId,
    instruction: `instruction of ${taskId}`,
    supervisor: { first_name: "Ada", last_name: "Moreno", email: "ada@example.com", phone_number: "5550100" },
    datetime: "2026-05-01T10:00:00",
  };
}

/** Starts the fault server on 127.0.0.1 on a free port. */
export async function startFaultServer(): Promise<FaultServer> {
  let world: string | undefined;
  const state: FaultServer = {
    url: "",
    fault: { kind: "none" },
    requests: [],
    executed: [],
    close: async () => {},
  };
  const answer = (taskId: string, path: string, body: Record<string, unknown>): unknown => {
    if (path === "/initialize") {
      world = taskId;
      return taskInfo(state.fault.kind === "wrong-task" ? "other_9" : taskId);
    }
    if (path.startsWith("/tasks/"))
      return taskInfo(state.fault.kind === "wrong-task" ? "other_9" : decodeURIComponent(path.slice(7)));
    if (path === "/api_docs") return { notes: {} };
    if (world !== taskId) return undefined;
    if (path === "/execute") {
      state.executed.push(String(body.code));
      return `ran: ${String(body.code)}`;
    }
    if (path === "/evaluate")
      return {
        success: false,
        difficulty: 2,
        num_tests: 2,
        passes: [{ requirement: "a", label: "no_op_pass" }],
        failures: [{ requirement: "b", trace: "x", label: "no_op_fail" }],
      };
    if (path === "/task_completed") return true;
    if (path === "/close") world = undefined;
    return null;
  };
  const server: Server = createServer(async (request, response) => {
    const path = request.url ?? "/";
    state.requests.push(`${request.method} ${path}`);
    const body = await readBody(request);
    const fault = state.fault;
    if (fault.kind === "slow") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault.kind === "status" && fault.times > 0) {
      fault.times -= 1;
      // FastAPI's answer to an unhandled exception: plain text, not JSON
      response
        .writeHead(fault.status, { "content-type": "text/plain; charset=utf-8" })
        .end("Internal Server Error");
      return;
    }
    if (fault.kind === "garbage") {
      response.writeHead(200, { "content-type": "application/json" }).end("<html>oops");
      return;
    }
    const output = answer(String(body.task_id ?? ""), path, body);
    if (output === undefined) {
      response.writeHead(400, { "content-type": "application/json" }).end(
        JSON.stringify({
          detail: `The active task world is ${world}. But you have requested to operate on ${String(body.task_id)}`,
        }),
      );
      return;
    }
    const bare = path === "/api_docs" && request.method === "GET";
    const shaped = fault.kind === "bad-shape" ? { result: output } : bare ? output : { output };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(shaped));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
