import type {
  EnvironmentCallOptions,
  EnvironmentV1,
  Grade,
  Task,
  ToolCall,
  ToolResult,
  ToolSpec,
} from "@hs/spec";
import { EnvironmentError } from "@hs/spec";
import { executeToolName } from "./presets.js";
import { AppWorldClient, type AppWorldClientOptions } from "./protocol/appworld-client.js";
import type { Evaluation, InitializeOptions } from "./protocol/schemas.js";
import type { ServerLease, ServerPool } from "./protocol/server-pool.js";

/** The one tool of an AppWorld episode: run Python in the task's shell. */
export const appworldTools: readonly ToolSpec[] = [
  {
    name: executeToolName,
    description:
      "Run Python code in the task's shell (variables persist between calls) and return what it printed. Apps are reached through the `apis` object; call apis.supervisor.complete_task(...) when done.",
    parameters: {
      type: "object",
      properties: { code: { type: "string", description: "Python code." } },
      required: ["code"],
      additionalProperties: false,
    },
  },
];

/** Options of an AppWorld episode. */
export interface AppWorldEnvironmentOptions {
  /** Servers to lease one from. */
  pool: ServerPool;
  /** Experiment name sent to `/initialize`, or a function giving each episode its own. */
  experimentName: string | ((appworldTaskId: string) => string);
  /** Other `/initialize` options (max_interactions, random_seed, remote_apis_url, timeout_seconds...). */
  initializeOptions?: InitializeOptions;
  /** Called with each `/evaluate` result and the episode's experiment name. */
  onEvaluated?: (experimentName: string, appworldTaskId: string, evaluation: Evaluation) => unknown;
  /** Client settings beyond the URL. */
  client?: Omit<AppWorldClientOptions, "baseUrl">;
  /** Whether to ask the server to save its logs at close (default false). */
  saveLogs?: boolean;
}

/** AppWorld's failure prefix of an execute output. */
export const executionFailedPrefix = "Execution failed.";

/**
 * One AppWorld episode over the environment-server protocol: leases one server for the episode,
 * initializes the task there, runs each `execute` call, ends when the agent completed the task, and
 * grades with `/evaluate` (reward 1 when every test passes, as verl-agent rewards `success`).
 */
export class AppWorldEnvironment implements EnvironmentV1 {
  readonly specificationVersion = "v1";
  readonly tools = appworldTools;
  private lease: ServerLease | undefined;
  private client: AppWorldClient | undefined;
  private closed = false;
  private experiment: string | undefined;

  constructor(
    private readonly task: Task,
    private readonly options: AppWorldEnvironmentOptions,
  ) {}

  /** The server this episode runs on, once reset. */
  get serverUrl(): string | undefined {
    return this.lease?.url;
  }

  async reset(options: EnvironmentCallOptions = {}): Promise<void> {
    if (this.closed) throw new EnvironmentError("the AppWorld environment is closed");
    if (this.lease === undefined) this.lease = await this.options.pool.lease(options.signal);
    this.client = new AppWorldClient({ ...this.options.client, baseUrl: this.lease.url });
    const appworldTaskId = this.appworldTaskId;
    const name = this.options.experimentName;
    this.experiment = typeof name === "string" ? name : name(appworldTaskId);
    await this.client.initialize(
      appworldTaskId,
      { ...this.options.initializeOptions, experiment_name: this.experiment },
      options.signal,
    );
  }

  /** The experiment name this episode was initialized with. */
  get experimentName(): string | undefined {
    return this.experiment;
  }

  private get appworldTaskId(): string {
    return String(this.task.metadata.appworldTaskId ?? this.task.id);
  }

  async step(call: ToolCall, options: EnvironmentCallOptions = {}): Promise<ToolResult> {
    const client = this.requireClient();
    if (call.name !== executeToolName) {
      return {
        content: `Unknown tool "${call.name}"; the only tool is ${executeToolName}.`,
        isError: true,
        done: false,
      };
    }
    const code = call.arguments.code;
    if (typeof code !== "string")
      return { content: 'The "code" argument must be a string of Python.', isError: true, done: false };
    const started = Date.now();
    const output = await client.execute(code, options.signal);
    const done = await client.taskCompleted(options.signal);
    return {
      content: output,
      isError: output.startsWith(executionFailedPrefix),
      done,
      elapsedMs: Date.now() - started,
    };
  }

  async grade(options: EnvironmentCallOptions = {}): Promise<Grade> {
    const evaluation: Evaluation = await this.requireClient().evaluate({}, options.signal);
    await this.options.onEvaluated?.(this.experiment ?? "", this.appworldTaskId, evaluation);
    return {
      reward: evaluation.success ? 1 : 0,
      success: evaluation.success,
      details: {
        difficulty: evaluation.difficulty,
        num_tests: evaluation.num_tests,
        num_passes: evaluation.passes.length,
        passes: evaluation.passes.map((entry) => entry.requirement),
        failures: evaluation.failures.map((entry) => ({
          requirement: entry.requirement,
          trace: entry.trace,
        })),
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const client = this.client;
    const lease = this.lease;
    this.client = undefined;
    this.lease = undefined;
    try {
      if (client !== undefined && this.options.saveLogs === true) await client.saveLogs();
      await client?.close();
    } finally {
      lease?.release();
    }
  }

  private requireClient(): AppWorldClient {
    if (this.client === undefined)
      throw new EnvironmentError("call reset() before using the AppWorld environment");
    return this.client;
  }
}
