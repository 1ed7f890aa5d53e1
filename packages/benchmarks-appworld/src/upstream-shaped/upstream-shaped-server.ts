import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { computeAppWorldMetrics } from "../metrics/appworld-metrics.js";
import type { Evaluation } from "../protocol/schemas.js";
import type { WorldSession } from "../world/api-definition.js";
import { allApiDocs } from "../world/apps/registry.js";
import { type ApiOutcome, callApi, newSession } from "../world/call-api.js";
import { cloneDatabase, type WorldDatabase } from "../world/database.js";
import { gradeWorld } from "../world/grade-world.js";
import { PythonShell, type SandboxMode } from "../world/python-shell.js";
import { HttpDetail, replyError, replyJson, validateBody } from "./fastapi-replies.js";
import { loadUpstreamTask, requesterPreamble, type UpstreamTask } from "./upstream-task.js";

/** Options of the upstream-shaped AppWorld server. */
export interface UpstreamShapedServerOptions {
  /** An AppWorld root holding `data/tasks/<id>/...` in AppWorld's layout. */
  root: string;
  /** Sandbox of the agent's Python (default bwrap when installed). */
  sandbox?: SandboxMode;
}

interface OpenWorld {
  task: UpstreamTask;
  experimentName: string;
  database: WorldDatabase;
  session: WorldSession;
  shell: PythonShell;
  interactions: number;
  maxInteractions: number;
  states: Map<string, { database: WorldDatabase; session: WorldSession }>;
}

/** AppWorldInitDefaults (ace-agent/ace-appworld src/appworld/environment.py:85-98). */
const defaultExperimentName = "default";
const defaultMaxInteractions = 1000;

const taskIdField = { task_id: { kind: "string", required: true } } as const;

/**
 * An AppWorld environment server of our own that follows `appworld serve environment` as written in
 * ace-agent/ace-appworld src/appworld/serve/environment.py (appworld 0.1.4), not the offline world's
 * conveniences: `{"output": ...}` replies except the bare GET /api_docs (:246-258), 400 `detail` for a
 * missing or other world (:65-75), 422 detail lists for bad bodies, plain-text 500 for any other
 * exception (an unknown task id included, as `Task.load` raises there), and the routes /initialize,
 * /execute, /close, /close_all, /evaluate, /evaluate_all, /save_logs, /save_state, /load_state,
 * /task_completed, GET /tasks/{id}. Test equipment: tasks come from an AppWorld-layout data directory
 * of our own, worlds and checks from the offline world (see `loadUpstreamTask`).
 */
export class UpstreamShapedServer {
  /** Every `/initialize` body received, in order (for tests of what a client sends). */
  readonly initializations: Array<Record<string, unknown>> = [];
  private readonly server: Server;
  private readonly tasks = new Map<string, Promise<UpstreamTask>>();
  /** The end state of each (experiment, task), as AppWorld saves it after every execute (environment.py:553). */
  private readonly outputs = new Map<
    string,
    { task: UpstreamTask; database: WorldDatabase; session: WorldSession }
  >();
  private world: OpenWorld | undefined;
  private address: string | undefined;

  constructor(private readonly options: UpstreamShapedServerOptions) {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
  }

  /** Base URL, once listening. */
  get url(): string {
    if (this.address === undefined) throw new Error("the upstream-shaped AppWorld server is not listening");
    return this.address;
  }

  /** Starts listening on 127.0.0.1 (a free port unless one is given). */
  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, "127.0.0.1", resolve));
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.address;
  }

  /** Closes the open world and the server. */
  async close(): Promise<void> {
    await this.closeWorld();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const method = request.method ?? "GET";
      const path = (request.url ?? "/").split("?")[0] as string;
      if (method === "GET") {
        replyJson(response, await this.get(path));
        return;
      }
      if (method !== "POST") throw new HttpDetail(405, "Method Not Allowed");
      const body = await readBody(request);
      replyJson(response, { output: await this.post(path, body) });
    } catch (error) {
      replyError(response, error);
    }
  }

  private async get(path: string): Promise<unknown> {
    if (path === "/") return { message: "Welcome to AppWorld Server! (upstream-shaped test server)" };
    if (path === "/api_docs") return apiDocsBare();
    if (path.startsWith("/tasks/"))
      return { output: (await this.task(decodeURIComponent(path.slice(7)))).info };
    throw new HttpDetail(404, "Not Found");
  }

  private async post(path: string, body: unknown): Promise<unknown> {
    switch (path) {
      case "/initialize":
        return await this.initialize(body);
      case "/execute": {
        const values = validateBody(body, { ...taskIdField, code: { kind: "string", required: true } });
        return await this.execute(this.active(values.task_id), values.code as string);
      }
      case "/close":
        this.active(validateBody(body, taskIdField).task_id);
        await this.closeWorld();
        return null;
      case "/close_all":
        await this.closeWorld();
        return null;
      case "/evaluate":
        return this.evaluate(body);
      case "/evaluate_all":
        return this.evaluateAll(body);
      case "/save_logs":
        this.active(validateBody(body, taskIdField).task_id);
        return null;
      case "/save_state":
        return this.saveState(body);
      case "/load_state":
        return this.loadState(body);
      case "/task_completed":
        return this.active(validateBody(body, taskIdField).task_id).session.completed;
      default:
        throw new HttpDetail(404, "Not Found");
    }
  }

  private task(taskId: string): Promise<UpstreamTask> {
    let task = this.tasks.get(taskId);
    if (task === undefined) {
      task = loadUpstreamTask(this.options.root, taskId, this.options.sandbox);
      task.catch(() => this.tasks.delete(taskId));
      this.tasks.set(taskId, task);
    }
    return task;
  }

  private active(taskId: unknown): OpenWorld {
    const world = this.world;
    if (world === undefined) throw new HttpDetail(400, "AppWorld has not been initialized.");
    if (world.task.info.task_id !== taskId)
      throw new HttpDetail(
        400,
        `The active task world is ${world.task.info.task_id}. But you have requested to operate on ${String(taskId)}`,
      );
    return world;
  }

  private async initialize(body: unknown): Promise<unknown> {
    const values = validateBody(body, {
      ...taskIdField,
      experiment_name: { kind: "string", required: false },
      remote_apis_url: { kind: "string", required: false },
      max_interactions: { kind: "integer", required: false },
      random_seed: { kind: "integer", required: false },
      timeout_seconds: { kind: "integer", required: false },
    });
    this.initializations.push(values);
    const task = await this.task(values.task_id as string);
    await this.closeWorld();
    const database = cloneDatabase(task.world.start);
    const session = newSession();
    const shell: PythonShell = new PythonShell({
      callApi: (app, api, args): ApiOutcome =>
        this.world?.shell === shell
          ? callApi(database, session, app, api, args)
          : { ok: false, status: 400, message: "AppWorld has not been initialized." },
      ...(this.options.sandbox === undefined ? {} : { sandbox: this.options.sandbox }),
      ...(typeof values.timeout_seconds === "number" ? { timeoutSeconds: values.timeout_seconds } : {}),
    });
    await shell.start();
    const experimentName = (values.experiment_name as string | undefined) ?? defaultExperimentName;
    this.world = {
      task,
      experimentName,
      database,
      session,
      shell,
      interactions: 0,
      maxInteractions: (values.max_interactions as number | undefined) ?? defaultMaxInteractions,
      states: new Map(),
    };
    await shell.execute(requesterPreamble);
    // a new world of the same experiment and task replaces the old outputs (environment.py:434)
    this.outputs.set(outputKey(experimentName, task.info.task_id), { task, database, session });
    return task.info;
  }

  /** `AppWorld.execute` (environment.py:473-556): the interaction limit, empty code, then the shell. */
  private async execute(world: OpenWorld, code: string): Promise<string> {
    let source = code.trim();
    if (world.interactions >= world.maxInteractions)
      source = `raise Exception("Maximum number of executions (${world.maxInteractions}) reached.")`;
    if (source === "") return "No code available to execute.";
    const output = await world.shell.execute(source);
    world.interactions += 1;
    return output;
  }

  private evaluate(body: unknown): Evaluation | string {
    const values = validateBody(body, {
      ...taskIdField,
      suppress_errors: { kind: "boolean", required: false },
      report: { kind: "boolean", required: false },
      experiment_name: { kind: "string", required: false },
    });
    // with experiment_name, upstream assigns evaluate_task's (tracker, report) tuple to one name and
    // calls a method on it (environment.py:161-177 against evaluator.py:539): a 500 there, so here
    if (values.experiment_name !== undefined) throw new Error("evaluate_task returns a tuple");
    const world = this.active(values.task_id);
    const evaluation = gradeWorld(world.task.world, world.database, world.session.answer);
    if (values.report !== true) return evaluation;
    return [
      `Num Passed Tests : ${evaluation.passes.length}`,
      `Num Failed Tests : ${evaluation.failures.length}`,
      `Num Total  Tests : ${evaluation.num_tests}`,
    ].join("\n");
  }

  /** `evaluate_tasks` (evaluator.py:542-566) over the saved outputs of an experiment. */
  private evaluateAll(body: unknown): unknown {
    const values = validateBody(body, {
      task_ids: { kind: "string-list", required: true },
      experiment_name: { kind: "string", required: true },
      suppress_errors: { kind: "boolean", required: false },
      include_details: { kind: "boolean", required: false },
    });
    // an open world leaves the cached DB handler non-empty, and evaluate_tasks raises (evaluator.py:550-555)
    if (this.world !== undefined) throw new Error("The cached DB handler is not empty.");
    const individual: Record<string, Evaluation> = {};
    for (const taskId of values.task_ids as string[]) {
      const saved = this.outputs.get(outputKey(values.experiment_name as string, taskId));
      if (saved === undefined)
        throw new Error(`no outputs of ${taskId} in ${String(values.experiment_name)}`);
      individual[taskId] = gradeWorld(saved.task.world, saved.database, saved.session.answer);
    }
    // compute_metrics pops "passes" and "failures" that the metrics never hold (evaluator.py:395-398)
    if (values.include_details === false) throw new Error("KeyError: 'passes'");
    const metrics = computeAppWorldMetrics(
      Object.entries(individual).map(([taskId, evaluation]) => ({
        taskId,
        success: evaluation.success,
        difficulty: evaluation.difficulty,
      })),
    );
    return {
      aggregate: {
        task_goal_completion: metrics.aggregate.task_goal_completion,
        scenario_goal_completion: metrics.aggregate.scenario_goal_completion,
      },
      individual,
    };
  }

  /** `save_state` (environment.py:740-746): the state id, by default the number of interactions. */
  private saveState(body: unknown): string {
    const values = validateBody(body, { ...taskIdField, state_id: { kind: "string", required: true } });
    const world = this.active(values.task_id);
    const stateId = values.state_id as string;
    world.states.set(stateId, {
      database: cloneDatabase(world.database),
      session: cloneSession(world.session),
    });
    return stateId;
  }

  private loadState(body: unknown): null {
    const values = validateBody(body, { ...taskIdField, state_id: { kind: "string", required: true } });
    const world = this.active(values.task_id);
    const saved = world.states.get(values.state_id as string);
    if (saved === undefined) throw new Error(`no saved state ${String(values.state_id)}`);
    replaceContents(world.database, cloneDatabase(saved.database));
    Object.assign(world.session, cloneSession(saved.session));
    return null;
  }

  private async closeWorld(): Promise<void> {
    const world = this.world;
    this.world = undefined;
    await world?.shell.close();
  }
}

function outputKey(experimentName: string, taskId: string): string {
  return `${experimentName}\u0000${taskId}`;
}

function cloneSession(session: WorldSession): WorldSession {
  return { ...session, tokens: new Map(session.tokens) };
}

function replaceContents(target: WorldDatabase, source: WorldDatabase): void {
  Object.assign(target, source);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of request) text += chunk;
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpDetail(422, [
      { type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {} },
    ]);
  }
}

/** GET /api_docs: the bare object, each response schema a fenced block of text (environment.py:246-258). */
function apiDocsBare(): unknown {
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
