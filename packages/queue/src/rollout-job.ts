import { harnessConfigSchema, taskSchema, trajectorySchema } from "@hs/spec";
import { z } from "zod";

/** The benchmark a job runs on, as the trainer named it (`--bench`): the worker opens the same one. */
export const benchmarkReferenceSchema = z.strictObject({
  /** What `--bench` said: an alias (`dbbench`), a package name or a path to a plugin. */
  specifier: z.string().min(1),
  /** Values of the plugin's own options (`--engine sqlite`...), as given. */
  options: z.record(z.string(), z.union([z.string(), z.boolean()])),
  /**
   * Where the run's tasks were loaded from: the worker loads them the same way before its first episode,
   * so that the benchmark's grader holds their answers (a `path` must be readable on the worker's machine).
   */
  tasks: z.strictObject({
    /** A bundled split. */
    split: z.string().min(1).optional(),
    /** A task file in the benchmark's format (absolute path). */
    path: z.string().min(1).optional(),
  }),
});
/** The benchmark a job runs on. */
export type BenchmarkReference = z.infer<typeof benchmarkReferenceSchema>;

/** The embedded policy at one version: its weights are stored in Redis under `weightsKey`. */
export const embeddedPolicyReferenceSchema = z.strictObject({
  /** Backend. */
  kind: z.literal("embedded"),
  /** Policy id (recorded on trajectories). */
  id: z.string().min(1),
  /** Version of the weights (`seed0-u3`), recorded on trajectories. */
  version: z.string().min(1),
  /** Redis key holding the `policy.json` the policy saved at this version. */
  weightsKey: z.string().min(1),
  /** SHA-256 of those bytes (the worker checks it before acting). */
  weightsSha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** A chat policy behind an OpenAI-compatible endpoint (the worker reads its API key from its own environment). */
export const chatPolicyReferenceSchema = z.strictObject({
  /** Backend. */
  kind: z.literal("chat"),
  /** Policy id. */
  id: z.string().min(1),
  /** Version of the weights the server holds. */
  version: z.string().min(1),
  /** Base URL up to and including `/v1`. */
  baseURL: z.string().url(),
  /** Model name as the server knows it. */
  model: z.string().min(1),
  /** Other `createChatPolicy` options that are plain JSON (temperature, maxTokens, timeoutMs...). */
  settings: z.record(z.string(), z.unknown()),
});

/**
 * An LLM on a Tinker server at one version: the sampler weights the learner saved for that step
 * (`save_weights_for_sampler`), sampled with the model's own tokenizer and chat template. The worker
 * reads its API key from its own environment (`TINKER_API_KEY`), as the trainer's client does.
 */
export const tinkerPolicyReferenceSchema = z.strictObject({
  /** Backend. */
  kind: z.literal("tinker"),
  /** Policy id (`tinker:BASE_MODEL`), recorded on trajectories. */
  id: z.string().min(1),
  /** Version (`base`, `tinker-3`: the updates behind the sampler weights), recorded on trajectories. */
  version: z.string().min(1),
  /** The Tinker API server's root (`http://HOST:PORT`; the client adds `/api/v1`). */
  baseUrl: z.string().regex(/^https?:\/\/\S+$/, "expected an http:// or https:// URL"),
  /** The base model. */
  baseModel: z.string().min(1),
  /** `tinker://MODEL/sampler_weights/NAME` to sample from; null: the base model's own weights. */
  samplerPath: z
    .string()
    .regex(/^tinker:\/\/\S+$/, "expected a tinker:// sampler path")
    .nullable(),
  /** The tokenizer and chat template the prompt is rendered with. */
  tokenizer: z.strictObject({
    /** Directory with `tokenizer.json` and `tokenizer_config.json` (a path on the worker's machine). */
    directory: z.string().min(1),
    /** SHA-256 over those files (and `chat_template.jinja`); the worker checks its copy against it. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  /** Most tokens sampled per step. */
  maxTokens: z.number().int().positive(),
  /** Sampling temperature (absent: the sampler's default). */
  temperature: z.number().nonnegative().optional(),
  /** Longest wait for one Tinker call, submission and result, in milliseconds. */
  deadlineMs: z.number().int().positive(),
});
/** An LLM on a Tinker server at one version. */
export type TinkerPolicyReference = z.infer<typeof tinkerPolicyReferenceSchema>;

/** The policy a job acts with, at the version the trainer holds now. */
export const policyReferenceSchema = z.discriminatedUnion("kind", [
  embeddedPolicyReferenceSchema,
  chatPolicyReferenceSchema,
  tinkerPolicyReferenceSchema,
]);
/** The policy a job acts with. */
export type PolicyReference = z.infer<typeof policyReferenceSchema>;

/** Where a rollout belongs in its run (the job id is derived from it). */
export const rolloutKeySchema = z.strictObject({
  /** The run (its directory name or any id stable across a resume). */
  run: z.string().min(1),
  /** What collects it: `train`, `evolve`, `profile`... */
  phase: z.string().min(1),
  /** The policy version acting (names the optimisation step). */
  policyVersion: z.string().min(1),
  /** Task id (with the harness hash and seed, names the group and the rollout). */
  taskId: z.string(),
  /** Content hash of the harness. */
  harnessHash: z.string().min(1),
  /** Episode seed (derived from the group's draw index and the rollout index). */
  seed: z.number().int(),
  /** Sample or greedy. */
  mode: z.enum(["sample", "greedy"]),
});
/** Where a rollout belongs in its run. */
export type RolloutKey = z.infer<typeof rolloutKeySchema>;

/** One rollout to run: everything a worker needs, nothing it must guess. */
export const rolloutJobSchema = z.strictObject({
  /** Format of this record. */
  formatVersion: z.literal(1),
  /** Version of `@hs/queue` that enqueued it; a worker of another version refuses it. */
  queueVersion: z.string().min(1),
  /** Where the rollout belongs (the job id derives from it). */
  key: rolloutKeySchema,
  /** The task as the benchmark loaded it. */
  task: taskSchema,
  /** The benchmark to open. */
  benchmark: benchmarkReferenceSchema,
  /** The harness config (its hash is `key.harnessHash`). */
  harness: harnessConfigSchema,
  /** The policy at its version. */
  policy: policyReferenceSchema,
  /** Time limit of the episode in milliseconds; past it the worker gives up and the job is retried. */
  timeLimitMs: z.number().int().positive(),
});
/** One rollout to run. */
export type RolloutJob = z.infer<typeof rolloutJobSchema>;

/** What a worker returns for a job. */
export const rolloutResultSchema = z.strictObject({
  /** Format of this record. */
  formatVersion: z.literal(1),
  /** The job this answers (must equal the job's id). */
  jobId: z.string().min(1),
  /** Version of `@hs/queue` the worker runs; must equal the trainer's. */
  queueVersion: z.string().min(1),
  /** Worker name (host and pid), for logs. */
  worker: z.string(),
  /** The episode. */
  trajectory: trajectorySchema,
});
/** What a worker returns for a job. */
export type RolloutResult = z.infer<typeof rolloutResultSchema>;
