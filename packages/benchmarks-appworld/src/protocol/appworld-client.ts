import { ApiCallError, CancelledError, EnvironmentError, TimeoutError } from "@hs/spec";
import { z } from "zod";
import {
  type ApiDocs,
  apiDocsSchema,
  type EvaluateAll,
  type Evaluation,
  evaluateAllSchema,
  evaluationSchema,
  type InitializeOptions,
  outputEnvelope,
  type TaskInfo,
  taskInfoSchema,
} from "./schemas.js";

/** Options of an AppWorld environment-server client. */
export interface AppWorldClientOptions {
  /** Base URL of one `appworld serve environment` process, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  /** fetch implementation (injectable for tests; default the global one). */
  fetch?: typeof fetch;
  /** Milliseconds any call but `execute` may take (default 30000). */
  requestTimeoutMs?: number;
  /** Milliseconds an `execute` call may take (default 120000). */
  executeTimeoutMs?: number;
  /** Retries of a call that is safe to repeat, after a network error, a timeout or a 5xx (default 2). */
  retries?: number;
  /** First back-off in milliseconds, doubled per retry (default 200). */
  retryDelayMs?: number;
}

interface CallSpec<Schema extends z.ZodType> {
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
  output: Schema;
  /** Whether repeating the call cannot change the world twice. */
  safeToRetry: boolean;
  /** The reply is the value itself, not `{"output": ...}` (GET /api_docs). */
  bare?: boolean;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const bodyPreviewChars = 500;

/**
 * A client of the AppWorld environment server protocol (src/appworld/serve/environment.py in
 * ace-agent/ace-appworld, appworld 0.1.4). One client talks to one server, and one server holds one
 * world at a time (a request for another task id is a 400), so a parallel run needs one server per
 * episode (as verl-agent starts one per environment). Every reply is checked with zod; `execute` is
 * never retried (it may have changed the world), the other calls are retried after network errors,
 * timeouts and 5xx replies.
 */
export class AppWorldClient {
  /** Base URL of the server. */
  readonly baseUrl: string;
  private readonly fetchImplementation: typeof fetch;
  private readonly requestTimeoutMs: number;
  private readonly executeTimeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private activeTaskId: string | undefined;

  constructor(options: AppWorldClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetchImplementation = options.fetch ?? globalThis.fetch;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.executeTimeoutMs = options.executeTimeoutMs ?? 120_000;
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 200;
  }

  /** The task the server was initialized with, when it was. */
  get taskId(): string | undefined {
    return this.activeTaskId;
  }

  /** POST /initialize: loads the task's world. Fails when the server answers for another task. */
  async initialize(taskId: string, options: InitializeOptions = {}, signal?: AbortSignal): Promise<TaskInfo> {
    const info = await this.post("/initialize", { ...options, task_id: taskId }, taskInfoSchema, signal);
    if (info.task_id !== taskId) {
      throw new EnvironmentError(
        `AppWorld server ${this.baseUrl} initialized task "${info.task_id}" when asked for "${taskId}"`,
      );
    }
    this.activeTaskId = taskId;
    return info;
  }

  /** POST /execute: runs code in the task's shell and returns its output text. Never retried. */
  async execute(code: string, signal?: AbortSignal): Promise<string> {
    return await this.call({
      method: "POST",
      path: "/execute",
      body: { task_id: this.requireTask("execute"), code },
      output: z.string(),
      safeToRetry: false,
      timeoutMs: this.executeTimeoutMs,
      signal,
    });
  }

  /** POST /evaluate: the test results of the task's world. */
  async evaluate(options: { suppressErrors?: boolean } = {}, signal?: AbortSignal): Promise<Evaluation> {
    return await this.post(
      "/evaluate",
      {
        task_id: this.requireTask("evaluate"),
        suppress_errors: options.suppressErrors ?? true,
        report: false,
      },
      evaluationSchema,
      signal,
    );
  }

  /** POST /evaluate with `report: true`: the server's printed report text. */
  async evaluationReport(signal?: AbortSignal): Promise<string> {
    return await this.post(
      "/evaluate",
      { task_id: this.requireTask("evaluate"), suppress_errors: true, report: true },
      z.string(),
      signal,
    );
  }

  /** POST /task_completed: whether the agent called `apis.supervisor.complete_task`. */
  async taskCompleted(signal?: AbortSignal): Promise<boolean> {
    return await this.post(
      "/task_completed",
      { task_id: this.requireTask("task_completed") },
      z.boolean(),
      signal,
    );
  }

  /** POST /save_logs: asks the server to write the episode's logs; returns what it answers. */
  async saveLogs(signal?: AbortSignal): Promise<unknown> {
    return await this.post("/save_logs", { task_id: this.requireTask("save_logs") }, z.unknown(), signal);
  }

  /** POST /close: releases the world. Calling it again, or before initialize, does nothing. */
  async close(signal?: AbortSignal): Promise<void> {
    const taskId = this.activeTaskId;
    if (taskId === undefined) return;
    this.activeTaskId = undefined;
    await this.post("/close", { task_id: taskId }, z.unknown(), signal);
  }

  /** POST /save_state: checkpoints the world under `stateId`; returns the id (environment.py:204-211). */
  async saveState(stateId: string, signal?: AbortSignal): Promise<string> {
    return await this.post(
      "/save_state",
      { task_id: this.requireTask("save_state"), state_id: stateId },
      z.string(),
      signal,
    );
  }

  /** POST /load_state: returns the world to a checkpoint saved with `saveState` (environment.py:214-218). */
  async loadState(stateId: string, signal?: AbortSignal): Promise<void> {
    await this.post(
      "/load_state",
      { task_id: this.requireTask("load_state"), state_id: stateId },
      z.unknown(),
      signal,
    );
  }

  /** POST /close_all: closes whatever world the server holds, whoever opened it (environment.py:146-151). */
  async closeAll(signal?: AbortSignal): Promise<void> {
    this.activeTaskId = undefined;
    await this.post("/close_all", {}, z.unknown(), signal);
  }

  /**
   * POST /evaluate_all: `evaluate_tasks` over the saved outputs of an experiment (environment.py:181-194,
   * evaluator.py:542-566). Upstream raises (a 500) while the server holds an open world, and with
   * `include_details: false`, so the details are always asked for.
   */
  async evaluateAll(
    taskIds: readonly string[],
    experimentName: string,
    signal?: AbortSignal,
  ): Promise<EvaluateAll> {
    return await this.post(
      "/evaluate_all",
      { task_ids: taskIds, experiment_name: experimentName, suppress_errors: true, include_details: true },
      evaluateAllSchema,
      signal,
    );
  }

  /** GET /tasks/{id}: a task's public description. */
  async getTask(taskId: string, signal?: AbortSignal): Promise<TaskInfo> {
    const info = await this.call({
      method: "GET",
      path: `/tasks/${encodeURIComponent(taskId)}`,
      output: taskInfoSchema,
      safeToRetry: true,
      timeoutMs: this.requestTimeoutMs,
      signal,
    });
    if (info.task_id !== taskId) {
      throw new EnvironmentError(
        `AppWorld server ${this.baseUrl} described task "${info.task_id}" when asked for "${taskId}"`,
      );
    }
    return info;
  }

  /**
   * GET /api_docs: every app's API docs. Upstream returns the bare object, not `{"output": ...}`
   * (ace-agent/ace-appworld src/appworld/serve/environment.py:246-258).
   */
  async apiDocs(signal?: AbortSignal): Promise<ApiDocs> {
    return await this.call({
      method: "GET",
      path: "/api_docs",
      output: apiDocsSchema,
      bare: true,
      safeToRetry: true,
      timeoutMs: this.requestTimeoutMs,
      signal,
    });
  }

  private requireTask(endpoint: string): string {
    if (this.activeTaskId === undefined) {
      throw new EnvironmentError(`AppWorld /${endpoint} before /initialize on ${this.baseUrl}`);
    }
    return this.activeTaskId;
  }

  /** A POST that may be retried, under the request time limit. */
  private async post<Schema extends z.ZodType>(
    path: string,
    body: Record<string, unknown>,
    output: Schema,
    signal: AbortSignal | undefined,
  ): Promise<z.infer<Schema>> {
    return await this.call({
      method: "POST",
      path,
      body,
      output,
      safeToRetry: true,
      timeoutMs: this.requestTimeoutMs,
      signal,
    });
  }

  private async call<Schema extends z.ZodType>(spec: CallSpec<Schema>): Promise<z.infer<Schema>> {
    const attempts = spec.safeToRetry ? this.retries + 1 : 1;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0) await delay(this.retryDelayMs * 2 ** (attempt - 1), spec.signal);
      try {
        return await this.callOnce(spec);
      } catch (error) {
        lastError = error;
        const retryable = error instanceof Error && "isRetryable" in error && error.isRetryable === true;
        if (!retryable) throw error;
      }
    }
    throw lastError;
  }

  private async callOnce<Schema extends z.ZodType>(spec: CallSpec<Schema>): Promise<z.infer<Schema>> {
    const where = `AppWorld ${spec.method} ${this.baseUrl}${spec.path}`;
    const text = await this.send(spec, where);
    const json = parseJson(text.body);
    if (text.status < 200 || text.status >= 300) {
      // FastAPI answers an HTTPException with {"detail": ...} (400), a bad body with a detail list
      // (422), and any other exception with the plain text "Internal Server Error" (500); the status
      // decides whether a retry helps (ace-agent/ace-appworld src/appworld/serve/environment.py:65-75).
      const detail = describeDetail(json, text.body);
      throw new ApiCallError(`${where} answered ${text.status}: ${preview(detail)}`, {
        status: text.status,
        responseBody: preview(text.body),
      });
    }
    if (json === notJson) {
      throw new ApiCallError(
        `${where}: the reply is not JSON: ${preview(text.body)}`,
        { status: text.status, responseBody: preview(text.body) },
        { isRetryable: false },
      );
    }
    const parsed = (spec.bare === true ? spec.output : outputEnvelope(spec.output)).safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = (issue?.path ?? []).join(".");
      throw new ApiCallError(
        `${where}: unexpected reply at field "${field}": ${issue?.message ?? "invalid"}: ${preview(text.body)}`,
        {
          status: text.status,
          responseBody: preview(text.body),
        },
        { isRetryable: false },
      );
    }
    const data = parsed.data as unknown;
    return (spec.bare === true ? data : (data as { output: unknown }).output) as z.infer<Schema>;
  }

  private async send(spec: CallSpec<z.ZodType>, where: string): Promise<{ status: number; body: string }> {
    if (spec.signal?.aborted) throw new CancelledError(`${where}: cancelled`);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, spec.timeoutMs);
    const onAbort = () => controller.abort();
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.fetchImplementation(`${this.baseUrl}${spec.path}`, {
        method: spec.method,
        headers: spec.body === undefined ? {} : { "content-type": "application/json" },
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        signal: controller.signal,
      });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      if (timedOut)
        throw new TimeoutError(`${where}: no reply within ${spec.timeoutMs} ms`, { cause: error });
      if (spec.signal?.aborted) throw new CancelledError(`${where}: cancelled`, { cause: error });
      throw new ApiCallError(
        `${where}: server unreachable (${describeNetworkError(error)})`,
        {},
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
    }
  }
}

const notJson = Symbol("not JSON");

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
}

/** The `detail` of a FastAPI error (a string, or a 422 list of `{loc, msg}`), or the plain text. */
function describeDetail(json: unknown, body: string): string {
  if (json === notJson) return body.trim() === "" ? "(empty body)" : body.trim();
  const detail = typeof json === "object" && json !== null && "detail" in json ? json.detail : json;
  if (typeof detail === "string") return JSON.stringify(detail);
  if (Array.isArray(detail)) {
    const parts = detail.map((item) => {
      const record = (typeof item === "object" && item !== null ? item : {}) as {
        loc?: unknown;
        msg?: unknown;
      };
      const location = Array.isArray(record.loc) ? record.loc.join(".") : "";
      return `${location}: ${String(record.msg ?? JSON.stringify(item))}`;
    });
    return parts.join("; ");
  }
  return JSON.stringify(detail);
}

function describeNetworkError(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function preview(text: string): string {
  return text.length > bodyPreviewChars ? `${text.slice(0, bodyPreviewChars)}...` : text;
}

async function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new CancelledError("cancelled while waiting to retry"));
      },
      { once: true },
    );
  });
}
