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

/** The policy a job acts with, at the version the trainer holds now. */
export const policyReferenceSchema = z.discriminatedUnion("kind", [
  embeddedPolicyReferenceSchema,
  chatPolicyReferenceSchema,
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
