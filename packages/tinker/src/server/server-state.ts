import type { z } from "zod";
import { flattenModelInput } from "../protocol/datum.js";
import type {
  adamParamsSchema,
  forwardBackwardRequestSchema,
  loadWeightsRequestSchema,
  sampleRequestSchema,
  saveWeightsForSamplerRequestSchema,
  saveWeightsRequestSchema,
} from "../protocol/requests.js";
import { forwardBackwardDatum, LossInputError, sampleContinuation } from "./tiny-losses.js";
import { adamStep, copyTinyWeights, createTinyWeights, type TinyWeights } from "./tiny-model.js";

/** A queued request's future. */
export interface FutureRecord {
  /** Request id. */
  id: string;
  /** Result once done. */
  result?: unknown;
  /** Failure once done. */
  error?: { error: string; category: "user" | "server" | "unknown" };
  /** Not visible before this time (slow-future fault). */
  readyAt: number;
  /** Done (result or error set). */
  done: boolean;
}

interface ModelRecord {
  id: string;
  baseModel: string;
  weights: TinyWeights;
  nextSeqId: number;
  requests: number;
  waiting: Map<number, () => void>;
}

/** An HTTP-level refusal (status and detail), as SkyRL's HTTPException. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Everything the test server holds: sessions, models, checkpoints, futures, counters. */
export class ServerState {
  readonly sessions = new Map<string, { heartbeats: number }>();
  readonly models = new Map<string, ModelRecord>();
  readonly trainingCheckpoints = new Map<string, TinyWeights>();
  readonly samplerCheckpoints = new Map<string, TinyWeights>();
  readonly samplingSessions = new Map<string, string>();
  /** Checkpoints whose save is queued (SkyRL records them before the future). */
  readonly pendingCheckpoints = new Set<string>();
  readonly futures = new Map<string, FutureRecord>();
  /** (model, seq_id) -> request data and request id, to dedup retries and refuse reuse (409). */
  readonly sequence = new Map<string, { data: string; requestId: string }>();
  /** Applications per operation (a retried request must not count twice). */
  readonly applied: Record<string, number> = {};
  private counter = 0;

  constructor(
    readonly baseModels: ReadonlyMap<string, { vocabSize: number; seed: number }>,
    readonly now: () => number,
  ) {}

  nextId(prefix: string): string {
    this.counter++;
    return `${prefix}_${this.counter}`;
  }

  createModel(baseModel: string, seed: number | null | undefined): ModelRecord {
    const base = this.baseModels.get(baseModel);
    if (base === undefined) throw new HttpRefusal(400, `base model ${baseModel} is not served`);
    const model: ModelRecord = {
      id: this.nextId("model"),
      baseModel,
      weights: createTinyWeights(base.vocabSize, seed ?? base.seed),
      nextSeqId: 1,
      requests: 0,
      waiting: new Map(),
    };
    this.models.set(model.id, model);
    return model;
  }

  model(modelId: string): ModelRecord {
    const model = this.models.get(modelId);
    if (model === undefined) throw new HttpRefusal(404, "Model not found");
    return model;
  }

  /**
   * Queues `run` as a future of `modelId`. With `dedupe`, a known (model, seq_id) with the same data
   * answers the first request id (a retry); with other data, 409 (as SkyRL `create_future`). With
   * `ordered` (Tinker), requests with a seq_id run in seq_id order and wait for a gap to fill;
   * without it (SkyRL), in arrival order.
   */
  enqueue(
    modelId: string,
    seqId: number | null | undefined,
    data: unknown,
    run: () => unknown,
    delayMs: number,
    rules: { dedupe: boolean; ordered: boolean } = { dedupe: true, ordered: true },
  ): string {
    const model = this.model(modelId);
    const serialized = JSON.stringify(data);
    if (rules.dedupe && seqId !== null && seqId !== undefined) {
      const known = this.sequence.get(`${modelId}:${seqId}`);
      if (known !== undefined) {
        if (known.data !== serialized)
          throw new HttpRefusal(409, "Training request sequence number was reused");
        return known.requestId;
      }
    }
    const future: FutureRecord = { id: this.nextId("request"), readyAt: this.now() + delayMs, done: false };
    this.futures.set(future.id, future);
    const execute = () => this.execute(model, future, run);
    if (seqId !== null && seqId !== undefined && rules.dedupe) {
      this.sequence.set(`${modelId}:${seqId}`, { data: serialized, requestId: future.id });
    }
    if (seqId === null || seqId === undefined || !rules.ordered) {
      execute();
      if (seqId !== null && seqId !== undefined) model.nextSeqId = Math.max(model.nextSeqId, seqId + 1);
      return future.id;
    }
    model.waiting.set(seqId, execute);
    this.drain(model);
    return future.id;
  }

  private drain(model: ModelRecord): void {
    let next = model.waiting.get(model.nextSeqId);
    while (next !== undefined) {
      model.waiting.delete(model.nextSeqId);
      model.nextSeqId++;
      next();
      next = model.waiting.get(model.nextSeqId);
    }
  }

  private execute(model: ModelRecord, future: FutureRecord, run: () => unknown): void {
    try {
      future.result = run();
    } catch (error) {
      const category = error instanceof LossInputError || error instanceof HttpRefusal ? "user" : "server";
      future.error = { error: error instanceof Error ? error.message : String(error), category };
    }
    model.requests++;
    future.done = true;
  }

  count(operation: string): void {
    this.applied[operation] = (this.applied[operation] ?? 0) + 1;
  }

  forwardBackward(request: z.infer<typeof forwardBackwardRequestSchema>): unknown {
    const model = this.model(request.model_id);
    const input = request.forward_backward_input;
    const outputs = input.data.map((datum) =>
      forwardBackwardDatum(model.weights, datum, input.loss_fn, input.loss_fn_config ?? {}),
    );
    this.count("forward_backward");
    return {
      loss_fn_output_type: "ArrayRecord",
      loss_fn_outputs: outputs.map((output) => ({
        logprobs: { data: output.logprobs, dtype: "float32", shape: [output.logprobs.length] },
      })),
      metrics: { "loss:sum": outputs.reduce((sum, output) => sum + output.loss, 0) },
    };
  }

  optimStep(modelId: string, adam: z.infer<typeof adamParamsSchema>): unknown {
    const model = this.model(modelId);
    const gradNorm = adamStep(model.weights, {
      learningRate: adam.learning_rate,
      beta1: adam.beta1,
      beta2: adam.beta2,
      eps: adam.eps,
      weightDecay: adam.weight_decay ?? 0,
      gradClipNorm: adam.grad_clip_norm ?? 0,
    });
    this.count("optim_step");
    return { metrics: { grad_norm: gradNorm } };
  }

  /** Refuses a checkpoint name the model already has (SkyRL `create_checkpoint`: 409). */
  checkNewCheckpoint(modelId: string, kind: "weights" | "sampler_weights", name: string): void {
    const model = this.model(modelId);
    const path = `tinker://${model.id}/${kind}/${name}`;
    const known = kind === "weights" ? this.trainingCheckpoints : this.samplerCheckpoints;
    if (known.has(path) || this.pendingCheckpoints.has(path)) {
      throw new HttpRefusal(409, `Checkpoint '${name}' already exists for model '${model.id}'`);
    }
    this.pendingCheckpoints.add(path);
  }

  saveWeights(request: z.infer<typeof saveWeightsRequestSchema>): unknown {
    const model = this.model(request.model_id);
    const path = `tinker://${model.id}/weights/${request.path}`;
    this.trainingCheckpoints.set(path, copyTinyWeights(model.weights));
    this.count("save_weights");
    return { path, type: "save_weights" };
  }

  saveWeightsForSampler(request: z.infer<typeof saveWeightsForSamplerRequestSchema>): unknown {
    const model = this.model(request.model_id);
    const name = samplerCheckpointName(request);
    const path = `tinker://${model.id}/sampler_weights/${name}`;
    this.samplerCheckpoints.set(path, copyTinyWeights(model.weights));
    this.count("save_weights_for_sampler");
    if (request.path !== null && request.path !== undefined)
      return { path, type: "save_weights_for_sampler" };
    // an ephemeral sampler: a sampling session bound to these weights (SkyRL `save_weights_for_sampler`)
    const samplingSessionId = this.nextId("sampling");
    this.samplingSessions.set(samplingSessionId, path);
    return { path, sampling_session_id: samplingSessionId, type: "save_weights_for_sampler" };
  }

  /** Checks load_weights before queueing: only as a model's first request (as SkyRL and Tinker). */
  checkLoad(request: z.infer<typeof loadWeightsRequestSchema>): void {
    const model = this.model(request.model_id);
    if (model.requests > 0 || model.nextSeqId > 1) {
      throw new HttpRefusal(
        400,
        `LoadWeights is not permitted with seq_id ${request.seq_id ?? model.requests + 1}`,
      );
    }
    if (!this.trainingCheckpoints.has(request.path))
      throw new HttpRefusal(404, `Checkpoint not found: ${request.path}`);
  }

  loadWeights(request: z.infer<typeof loadWeightsRequestSchema>): unknown {
    const model = this.model(request.model_id);
    const saved = this.trainingCheckpoints.get(request.path);
    if (saved === undefined) throw new HttpRefusal(404, `Checkpoint not found: ${request.path}`);
    const loaded = copyTinyWeights(saved);
    if (request.optimizer === false) {
      loaded.firstMoment.fill(0);
      loaded.secondMoment.fill(0);
      loaded.steps = 0;
    }
    loaded.gradient.fill(0);
    model.weights = loaded;
    this.count("load_weights");
    return { path: request.path, type: "load_weights" };
  }

  samplerWeights(request: z.infer<typeof sampleRequestSchema>): TinyWeights {
    const source =
      request.sampling_session_id === null || request.sampling_session_id === undefined
        ? (request.model_path ?? request.base_model ?? "")
        : this.samplingSessions.get(request.sampling_session_id);
    if (source === undefined) throw new HttpRefusal(404, "Sampling session not found");
    return this.weightsOf(source);
  }

  weightsOf(source: string): TinyWeights {
    const saved = this.samplerCheckpoints.get(source);
    if (saved !== undefined) return saved;
    const base = this.baseModels.get(source);
    if (base === undefined) throw new HttpRefusal(404, `no sampler weights at ${source}`);
    return createTinyWeights(base.vocabSize, base.seed);
  }

  sample(weights: TinyWeights, request: z.infer<typeof sampleRequestSchema>): unknown {
    const params = request.sampling_params;
    const stops = typeof params.stop === "string" ? [params.stop] : (params.stop ?? []);
    const stop = stops.filter((value): value is number => typeof value === "number");
    const prompt = flattenModelInput(request.prompt);
    const seed = params.seed ?? Math.floor(Math.random() * 2 ** 31);
    const sequences = Array.from({ length: request.num_samples }, (_, index) =>
      sampleContinuation(weights, prompt, {
        maxTokens: params.max_tokens,
        seed: seed + index * 7919,
        stopTokens: stop,
        temperature: params.temperature ?? 1,
        topK: params.top_k ?? -1,
      }),
    );
    this.count("sample");
    return { sequences, prompt_logprobs: null, type: "sample" };
  }
}

/** The checkpoint name of a sampler save: its path, or SkyRL's `ss{N}_seq{M}` for an ephemeral one. */
export function samplerCheckpointName(request: z.infer<typeof saveWeightsForSamplerRequestSchema>): string {
  return request.path ?? `ss${request.sampling_session_seq_id}_seq${request.seq_id}`;
}
