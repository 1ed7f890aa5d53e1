import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LearnerStats, LearnerV1, TrainingBatch, TrainingSample } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { z } from "zod";
import type { TinkerClient, TrainingModelHandle } from "../client/tinker-client.js";
import { type TinkerSamplerPolicy, tinkerTraceSchema } from "../policy/tinker-policy.js";
import type { LossFunction } from "../protocol/datum.js";
import type { AdamParams, LoraConfig } from "../protocol/requests.js";
import { type BuiltDatum, type TokenTransition, trajectoryDatums } from "./trajectory-datums.js";

/** Options of the Tinker learner. */
export interface TinkerLearnerOptions {
  /** A client with a session. */
  client: TinkerClient;
  /** The policy whose sampler weights follow each update. */
  policy: TinkerSamplerPolicy;
  /** Base model to train. */
  baseModel: string;
  /** LoRA settings (default rank 32). */
  loraConfig?: LoraConfig;
  /** Loss (default `importance_sampling`, the cookbook's RL default). */
  lossFunction?: Extract<LossFunction, "importance_sampling" | "ppo">;
  /** Loss settings (e.g. `clip_low_threshold` for ppo). */
  lossFunctionConfig?: Record<string, number>;
  /** Adam settings (default lr 4e-5, betas 0.9/0.95, eps 1e-8, the cookbook's RL defaults). */
  adamParams?: AdamParams;
  /** Prefix of checkpoint names (letters, digits, `_-`). */
  runName?: string;
}

/** What `save` writes: the Tinker paths a run resumes from. */
export const tinkerCheckpointSchema = z.object({
  /** File kind. */
  format: z.literal("hs-tinker-checkpoint"),
  /** Format version. */
  formatVersion: z.literal(1),
  /** Base model. */
  baseModel: z.string(),
  /** Model that wrote the checkpoint. */
  modelId: z.string(),
  /** `tinker://MODEL/weights/NAME`: weights and optimiser state. */
  trainingPath: z.string(),
  /** `tinker://MODEL/sampler_weights/NAME` the policy samples from, or the base model. */
  samplerPath: z.string(),
  /** Updates applied. */
  updates: z.number().int().nonnegative(),
});

const checkpointFile = "tinker-checkpoint.json";

/**
 * A LearnerV1 on the Tinker API: each update turns the batch into cookbook Datums, runs
 * forward_backward and optim_step, then saves sampler weights and points the policy at them. Rescue,
 * routing, grouping and advantages stay in the TypeScript trainer.
 */
export class TinkerGrpoLearner implements LearnerV1 {
  readonly specificationVersion = "v1" as const;
  private readonly options: TinkerLearnerOptions;
  private model: TrainingModelHandle | undefined;
  private updatesValue = 0;
  /** The training checkpoint the current model holds unchanged since `save` wrote it. */
  private heldCheckpoint: string | undefined;

  constructor(options: TinkerLearnerOptions) {
    this.options = options;
  }

  get updates(): number {
    return this.updatesValue;
  }

  /** The trained model (created on first use). */
  async trainingModel(): Promise<TrainingModelHandle> {
    if (this.model === undefined) {
      this.model = await this.options.client.createModel(
        this.options.baseModel,
        this.options.loraConfig ?? { rank: 32 },
      );
    }
    return this.model;
  }

  private checkpointName(kind: string): string {
    return `${this.options.runName ?? "hs"}-${kind}-${String(this.updatesValue).padStart(6, "0")}`;
  }

  async update(batch: TrainingBatch, options: { signal?: AbortSignal } = {}): Promise<LearnerStats> {
    const built = batch.samples.flatMap((sample, index) => sampleDatums(sample, index));
    const signalOption = options.signal === undefined ? {} : { signal: options.signal };
    const model = await this.trainingModel();
    this.heldCheckpoint = undefined;
    const stats: LearnerStats = {
      samples: batch.samples.length,
      datums: built.length,
      tokens: 0,
      actionTokens: 0,
    };
    for (const entry of built) {
      stats.tokens = (stats.tokens ?? 0) + entry.mask.length;
      stats.actionTokens = (stats.actionTokens ?? 0) + entry.mask.reduce((sum, value) => sum + value, 0);
    }
    if (built.length > 0) {
      const result = await this.options.client.forwardBackward(
        model,
        built.map((entry) => entry.datum),
        this.options.lossFunction ?? "importance_sampling",
        {
          ...signalOption,
          ...(this.options.lossFunctionConfig === undefined
            ? {}
            : { lossFunctionConfig: this.options.lossFunctionConfig }),
        },
      );
      stats.loss = result.metrics["loss:sum"] ?? 0;
      stats.klSampleTrain = sampleTrainKl(built, result.loss_fn_outputs);
      const optim = await this.options.client.optimStep(
        model,
        this.options.adamParams ?? defaultAdam,
        signalOption,
      );
      for (const [name, value] of Object.entries(optim)) stats[`optim.${name}`] = value;
    }
    this.updatesValue++;
    const samplerPath = await this.options.client.saveWeightsForSampler(
      model,
      this.checkpointName("sampler"),
      signalOption,
    );
    this.options.policy.useSampler(samplerPath, `tinker-${this.updatesValue}`);
    return stats;
  }

  async save(directory: string): Promise<void> {
    const model = await this.trainingModel();
    // unchanged since the last save (a final checkpoint right after a periodic one): saving the same
    // name again would be refused by SkyRL (409, the checkpoint exists), so the saved path is reused
    const trainingPath =
      this.heldCheckpoint ?? (await this.options.client.saveWeights(model, this.checkpointName("state")));
    const checkpoint: z.infer<typeof tinkerCheckpointSchema> = {
      format: "hs-tinker-checkpoint",
      formatVersion: 1,
      baseModel: this.options.baseModel,
      modelId: model.modelId,
      trainingPath,
      samplerPath: this.options.policy.samplerPath,
      updates: this.updatesValue,
    };
    this.heldCheckpoint = trainingPath;
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, checkpointFile), `${JSON.stringify(checkpoint, null, 2)}\n`);
  }

  /**
   * Loads what `save` wrote into a fresh model (load_weights must be a model's first request). When
   * the current model still holds exactly that checkpoint (the trainer reloads after every save),
   * only the counters and the sampler are restored.
   */
  async load(directory: string): Promise<void> {
    const path = join(directory, checkpointFile);
    const parsed = tinkerCheckpointSchema.safeParse(JSON.parse(await readFile(path, "utf8")));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInputError(issue?.message ?? "invalid", {
        file: path,
        field: issue?.path.join(".") ?? "",
      });
    }
    const checkpoint = parsed.data;
    if (this.model !== undefined && this.heldCheckpoint === checkpoint.trainingPath) {
      this.restoreCounters(checkpoint);
      return;
    }
    const fresh = await this.options.client.createModel(
      checkpoint.baseModel,
      this.options.loraConfig ?? { rank: 32 },
    );
    await this.options.client.loadWeights(fresh, checkpoint.trainingPath, { optimizer: true });
    this.model = fresh;
    this.heldCheckpoint = checkpoint.trainingPath;
    this.restoreCounters(checkpoint);
  }

  private restoreCounters(checkpoint: z.infer<typeof tinkerCheckpointSchema>): void {
    this.updatesValue = checkpoint.updates;
    if (checkpoint.samplerPath.startsWith("tinker://")) {
      this.options.policy.useSampler(checkpoint.samplerPath, `tinker-${checkpoint.updates}`);
    }
  }
}

const defaultAdam: AdamParams = {
  learning_rate: 4e-5,
  beta1: 0.9,
  beta2: 0.95,
  eps: 1e-8,
  weight_decay: 0,
  grad_clip_norm: 0,
};

/** The token transitions of one sample, read from each step's trace and sampled tokens. */
export function sampleTransitions(sample: TrainingSample, sampleIndex: number): TokenTransition[] {
  return sample.steps.map((step, stepIndex) => {
    const field = `samples.${sampleIndex}.steps.${stepIndex}.action`;
    const trace = tinkerTraceSchema.safeParse(step.action.trace);
    if (!trace.success)
      throw new InvalidInputError("a step without a Tinker token trace", { field: `${field}.trace` });
    const tokens = step.action.tokens ?? [];
    const ids = tokens.map((token) => token.id);
    if (
      ids.length !== trace.data.completionTokens.length ||
      ids.some((id, index) => id !== trace.data.completionTokens[index])
    ) {
      throw new InvalidInputError("sampled tokens differ from the trace", { field: `${field}.tokens` });
    }
    return {
      observation: trace.data.promptTokens,
      action: trace.data.completionTokens,
      logprobs: tokens.map((token) => token.logprob),
    };
  });
}

function sampleDatums(sample: TrainingSample, index: number): BuiltDatum[] {
  return trajectoryDatums(sampleTransitions(sample, index), sample.advantage);
}

/** Mean of (sampling logprob - current logprob) over action tokens (the cookbook's kl_sample_train). */
function sampleTrainKl(
  built: readonly BuiltDatum[],
  outputs: readonly Record<string, { data: number[] }>[],
): number {
  let sum = 0;
  let count = 0;
  built.forEach((entry, datumIndex) => {
    const current = outputs[datumIndex]?.logprobs?.data ?? [];
    const sampled = entry.datum.loss_fn_inputs.logprobs?.data ?? [];
    entry.mask.forEach((value, position) => {
      if (value === 0 || current[position] === undefined) return;
      sum += (sampled[position] ?? 0) - (current[position] ?? 0);
      count++;
    });
  });
  return count === 0 ? 0 : sum / count;
}
