import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { harnessHash } from "@hs/harness";
import type { TrainerConfig } from "@hs/rescue-grpo";
import type { HarnessConfig, Task } from "@hs/spec";
import { fileDigest, flattenInto, type RunFingerprint, valueDigest } from "./run-directory.js";

/** Everything that shapes an `hs train` run, as given on the command line and loaded. */
export interface TrainInputs {
  /** Benchmark id. */
  benchmark: string;
  /** The base harness. */
  harness: HarnessConfig;
  /** The training tasks (what the policy sees). */
  tasks: readonly Task[];
  /** `--data FILE`, when given. */
  dataFile: string | undefined;
  /** The bundled split, when no file. */
  split: string;
  /** `--pool FILE`, when given. */
  poolFile: string | undefined;
  /** `--profiles FILE`, when given. */
  profilesFile: string | undefined;
  /** `--init DIR`, when given. */
  init: string | undefined;
  /** `--hidden H` of a fresh policy. */
  hidden: number;
  /** The trainer config. */
  config: TrainerConfig;
}

async function initDigest(init: string): Promise<string> {
  const directory = resolve(init);
  const file = existsSync(join(directory, "policy.json"))
    ? join(directory, "policy.json")
    : join(directory, "final", "policy.json");
  return existsSync(file) ? fileDigest(file) : "missing";
}

/**
 * Fingerprint entries of the options given that change what a run computes without being part of
 * its trainer config: the benchmark plugin's own options (`--protocol fc` grades otherwise; key
 * `bench.--protocol`) and the options of the policy backend (`--tinker-url`, `--lora-rank`...; key
 * `policy.--lora-rank`). Absent options add no entry.
 */
export function optionFingerprint(
  benchmarkValues: Readonly<Record<string, string | boolean | undefined>>,
  values: Readonly<Record<string, unknown>>,
  policyOptions: readonly string[],
): RunFingerprint {
  const fingerprint: RunFingerprint = {};
  for (const [name, value] of Object.entries(benchmarkValues))
    if (value !== undefined && value !== false) fingerprint[`bench.--${name}`] = String(value);
  for (const name of policyOptions) {
    const value = values[name];
    if (typeof value === "string" || value === true) fingerprint[`policy.--${name}`] = String(value);
  }
  return fingerprint;
}

/**
 * The fingerprint of a training run: harness content hash, task set hash and data file hash, pool and
 * profiles file hashes, the initial policy (seed and shape, or the hash of the --init weights) and
 * every field of the trainer config.
 */
export async function trainFingerprint(inputs: TrainInputs): Promise<RunFingerprint> {
  const fingerprint: RunFingerprint = {
    benchmark: inputs.benchmark,
    harness: `${inputs.harness.id} ${harnessHash(inputs.harness)}`,
    tasks: `${inputs.tasks.length} tasks ${valueDigest(inputs.tasks)}`,
    data: inputs.dataFile === undefined ? `split ${inputs.split}` : await fileDigest(inputs.dataFile),
    pool: inputs.poolFile === undefined ? "none" : await fileDigest(inputs.poolFile),
    profiles: inputs.profilesFile === undefined ? "none" : await fileDigest(inputs.profilesFile),
    init:
      inputs.init === undefined
        ? `seed ${inputs.config.seed} hidden ${inputs.hidden}`
        : await initDigest(inputs.init),
  };
  const { initialPolicy: _path, ...config } = inputs.config;
  flattenInto(fingerprint, "config", config);
  return fingerprint;
}
