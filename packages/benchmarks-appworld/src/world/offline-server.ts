import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TaskInfo } from "../protocol/schemas.js";
import type { WorldSession } from "./api-definition.js";
import { allApiDocs } from "./apps/registry.js";
import { callApi, newSession } from "./call-api.js";
import { cloneDatabase, type WorldDatabase } from "./database.js";
import { gradeWorld } from "./grade-world.js";
import { offlineTask } from "./offline-tasks.js";
import { PythonShell, type SandboxMode } from "./python-shell.js";
import type { WorldTask } from "./world-task.js";

/** Options of an offline AppWorld environment server. */
export interface OfflineServerOptions {
  /** Sandbox of the agent's Python (default bwrap when installed). */
  sandbox?: SandboxMode;
  /** Seconds one execute may run (default 10). */
  timeoutSeconds?: number;
  /** Characters of output per execute (default 50,000). */
  maxOutputChars?: number;
  /** Where `/save_logs` writes (`<dir>/<experiment>/<task_id>.json`); absent: save_logs answers null. */
  logsDirectory?: string;
}

interface ActiveWorld {
  task: WorldTask;
  database: WorldDatabase;
  session: WorldSession;
  shell: PythonShell;
  experimentName: string;
  log: Array<{ code: string; output: string }>;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function taskInfo(task: WorldTask): TaskInfo {
  const supervisor = task.start.people[0];
  return {
    task_id: task.taskId,
    instruction: task.instruction,
    supervisor: {
      first_name: supervisor?.first_name ?? "",
      last_name: supervisor?.last_name ?? "",
      email: supervisor?.email ?? "",
      phone_number: supervisor?.phone_number ?? "",
    },
    datetime: task.start.datetime,
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of request) text += chunk;
  if (text === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through to the 422 below
  }
  throw new HttpProblem(422, "the body must be a JSON object");
}

function apiDocsReply(): unknown {
  const docs = allApiDocs();
  for (const byName of Object.values(docs)) {
    for (const doc of Object.values(byName)) {
      const schemas = doc.response_schemas;
      doc.response_schemas = {
        success: `\`\`\`json\n${JSON.stringify(schemas.success, null, 1)}\n\`\`\``,
        failure: `\`\`\`json\n${JSON.stringify(schemas.failure, null, 1)}\n\`\`\``,
      };
    }
  }
  return docs;
}

/**
 * The offline world as an AppWorld environment server on 127.0.0.1: the same endpoints, bodies and
 * `{"output": ...}` replies as `appworld serve environment` (ace-agent/ace-appworld
 * src/appworld/serve/environment.py), one world at a time (another task id is a 400, as there), so
 * the package's client code is the same for both. Written for this project; AppWorld's own tasks and
 * apps are not used.
 */
export class OfflineAppWorldServer {
  private readonly server: Server;
  private world: ActiveWorld | undefined;
  private address: string | undefined;
  /** A shell started ahead of the next `/initialize`, so starting Python overlaps other work. */
  private spare: Promise<PythonShell> | undefined;

  constructor(private readonly options: OfflineServerOptions = {}) {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
  }

  /** Base URL, once listening. */
  get url(): string {
    if (this.address === undefined) throw new Error("the offline AppWorld server is not listening");
    return this.address;
  }

  /** Starts listening on a free port of 127.0.0.1. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.server.unref();
    this.spare = this.startShell();
    return this.address;
  }

  private startShell(): Promise<PythonShell> {
    const shell = new PythonShell({
      callApi: (app, api, args) => {
        const world = this.world;
        if (world === undefined || world.shell !== shell)
          return { ok: false, status: 400, message: "AppWorld has not been initialized." };
        return callApi(world.database, world.session, app, api, args);
      },
      ...(this.options.sandbox === undefined ? {} : { sandbox: this.options.sandbox }),
      ...(this.options.timeoutSeconds === undefined ? {} : { timeoutSeconds: this.options.timeoutSeconds }),
      ...(this.options.maxOutputChars === undefined ? {} : { maxOutputChars: this.options.maxOutputChars }),
    });
    const started = shell.start().then(() => shell);
    started.catch(() => {});
    return started;
  }

  private async takeShell(): Promise<PythonShell> {
    const spare = this.spare ?? this.startShell();
    this.spare = this.startShell();
    return await spare;
  }

  /** Closes the world and the server. */
  async close(): Promise<void> {
    await this.closeWorld();
    const spare = this.spare;
    this.spare = undefined;
    await spare?.then(
      (shell) => shell.close(),
      () => {},
    );
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const method = request.method ?? "GET";
      const path = request.url ?? "/";
      const output = await this.route(method, path, request);
      // GET /api_docs answers the bare object upstream (src/appworld/serve/environment.py:246-258)
      const reply = method === "GET" && path === "/api_docs" ? output : { output };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    } catch (error) {
      const status = error instanceof HttpProblem ? error.status : 500;
      const detail = error instanceof Error ? error.message : String(error);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ detail }));
    }
  }

  private async route(method: string, path: string, request: IncomingMessage): Promise<unknown> {
    if (method === "GET" && path === "/api_docs") return apiDocsReply();
    if (method === "GET" && path.startsWith("/tasks/"))
      return taskInfo(this.task(decodeURIComponent(path.slice(7))));
    if (method !== "POST") throw new HttpProblem(404, `no endpoint ${method} ${path}`);
    const body = await readJson(request);
    if (path === "/initialize") return await this.initialize(body);
    const world = this.active(body.task_id);
    switch (path) {
      case "/execute":
        return await this.execute(world, body.code);
      case "/evaluate":
        return this.evaluate(world, body.report === true);
      case "/task_completed":
        return world.session.completed;
      case "/save_logs":
        return await this.saveLogs(world);
      case "/close":
        await this.closeWorld();
        return null;
      default:
        throw new HttpProblem(404, `no endpoint POST ${path}`);
    }
  }

  private task(taskId: string): WorldTask {
    const task = offlineTask(taskId);
    if (task === undefined) throw new HttpProblem(404, `there is no task "${taskId}" in the offline world`);
    return task;
  }

  private active(taskId: unknown): ActiveWorld {
    const world = this.world;
    if (world === undefined) throw new HttpProblem(400, "AppWorld has not been initialized.");
    if (world.task.taskId !== taskId)
      throw new HttpProblem(
        400,
        `The active task world is ${world.task.taskId}. But you have requested to operate on ${String(taskId)}`,
      );
    return world;
  }

  private async initialize(body: Record<string, unknown>): Promise<TaskInfo> {
    if (typeof body.task_id !== "string")
      throw new HttpProblem(422, 'field "task_id" (a string) is required');
    const task = this.task(body.task_id);
    await this.closeWorld();
    const database = cloneDatabase(task.start);
    const session = newSession();
    const shell = await this.takeShell();
    if (typeof body.timeout_seconds === "number" && body.timeout_seconds > 0)
      shell.setTimeoutSeconds(body.timeout_seconds);
    const experimentName = typeof body.experiment_name === "string" ? body.experiment_name : "default";
    this.world = { task, database, session, shell, experimentName, log: [] };
    return taskInfo(task);
  }

  private async execute(world: ActiveWorld, code: unknown): Promise<string> {
    if (typeof code !== "string") throw new HttpProblem(422, 'field "code" (a string) is required');
    const output = await world.shell.execute(code);
    world.log.push({ code, output });
    return output;
  }

  private evaluate(world: ActiveWorld, report: boolean): unknown {
    const evaluation = gradeWorld(world.task, world.database, world.session.answer);
    if (!report) return evaluation;
    const lines = [
      `Num Passed Tests : ${evaluation.passes.length}`,
      `Num Failed Tests : ${evaluation.failures.length}`,
      `Num Total  Tests : ${evaluation.num_tests}`,
    ];
    for (const failure of evaluation.failures) lines.push(`FAILED: ${failure.requirement}: ${failure.trace}`);
    return lines.join("\n");
  }

  private async saveLogs(world: ActiveWorld): Promise<string | null> {
    if (this.options.logsDirectory === undefined) return null;
    const directory = join(this.options.logsDirectory, world.experimentName);
    await mkdir(directory, { recursive: true });
    const file = join(directory, `${world.task.taskId}.json`);
    await writeFile(
      file,
      JSON.stringify(
        { task_id: world.task.taskId, api_calls: world.session.apiCalls, steps: world.log },
        null,
        1,
      ),
    );
    return file;
  }

  private async closeWorld(): Promise<void> {
    const world = this.world;
    this.world = undefined;
    await world?.shell.close();
  }
}
