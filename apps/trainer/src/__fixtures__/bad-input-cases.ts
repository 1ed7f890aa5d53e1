/**
 * The bad-input corpus of `hs` (nothing a careless user types may lose or mix a run): each case is a command line a careless or hostile user
 * could type, with the exit status and the message it must give. Paths: `@F/` is the copy of
 * `__fixtures__/bad-inputs/`, `@W/` the scratch directory (holding `four.jsonl`, its hard link
 * `four-link.jsonl`, `bom.jsonl` and `cut-trajectories.jsonl`), `@R` the run directory. Nothing outside `@R` may change, and `@R` only
 * when `writesRun` is set.
 */
export interface BadInputCase {
  /** Short kebab-case name. */
  name: string;
  /** `hs` arguments, with the placeholders above. */
  args: string[];
  /** Expected exit status: 2 for usage errors, 1 for bad input files and refused directories. */
  code: number;
  /** What stderr must say (the file, field or option, and what was expected). */
  message: RegExp;
  /** What stderr must not contain. */
  absent?: RegExp;
  /** Prepared state of `@R` before the command runs. */
  setup?:
    | "template-run"
    | "foreign-files"
    | "live-lock"
    | "stale-lock"
    | "truncated-latest"
    | "corrupt-checkpoint"
    | "corrupt-config";
  /** The command may write inside `@R` (the run directory it owns). */
  writesRun?: boolean;
}

const train = [
  "train",
  "--bench",
  "dbbench",
  "--method",
  "grpo",
  "--data",
  "@W/four.jsonl",
  "--group-size",
  "4",
  "--prompts-per-step",
  "2",
  "--budget",
  "8",
  "--seed",
  "3",
];
const trainOut = [...train, "--out", "@R"];
/** `trainOut` with the options of `extra` (as `--name VALUE` or `--name=VALUE`) in place of its own. */
function trainWith(...extra: string[]): string[] {
  const names = new Set(
    extra.filter((word) => word.startsWith("--")).map((word) => word.split("=")[0] as string),
  );
  const kept: string[] = [];
  for (let index = 0; index < trainOut.length; index++) {
    const word = trainOut[index] as string;
    if (names.has(word)) index++;
    else kept.push(word);
  }
  return [...kept, ...extra];
}
/** The training command that makes the template run (`@R` of the `template-run` setups). */
export const templateTrainArguments = train;
const harnessS = (...extra: string[]) => [
  ...train.map((word) => (word === "grpo" ? "harness-s" : word)),
  "--out",
  "@R",
  ...extra,
];
const evalBase = ["eval", "--bench", "dbbench", "--data", "@W/four.jsonl"];
const exportRun = ["export", "--run", "@R", "--format", "trl"];
const route = ["route", "--pool", "@F/pool-good.json", "--trajectories", "@W/cut-trajectories.jsonl"];

/** The corpus. */
export const badInputCases: BadInputCase[] = [
  // numbers and flags
  {
    name: "budget-empty",
    args: trainWith("--budget="),
    code: 2,
    message: /--budget expects a value, got an empty one/,
  },
  {
    name: "budget-hexadecimal",
    args: trainWith("--budget", "0x40"),
    code: 2,
    message: /--budget expects an integer of at least 1 \(decimal\), got "0x40"/,
  },
  {
    name: "budget-infinite",
    args: trainWith("--budget", "Infinity"),
    code: 2,
    message: /--budget expects an integer.*got "Infinity"/,
  },
  {
    name: "budget-below-one-step",
    args: trainWith("--budget", "3"),
    code: 2,
    message: /--budget 3 is smaller than one step/,
  },
  {
    name: "learning-rate-nan",
    args: trainWith("--learning-rate", "NaN"),
    code: 2,
    message: /--learning-rate expects a number above 0 \(decimal\), got "NaN"/,
  },
  {
    name: "learning-rate-zero",
    args: trainWith("--learning-rate", "0"),
    code: 2,
    message: /--learning-rate expects a number above 0, got 0/,
  },
  {
    name: "kl-negative",
    args: trainWith("--kl=-0.5"),
    code: 2,
    message: /--kl expects a number of at least 0, got -0.5/,
  },
  {
    name: "hidden-zero",
    args: trainWith("--hidden", "0"),
    code: 2,
    message: /--hidden expects an integer of at least 1 and at most 4096, got 0/,
    absent: /backend|tfjs|Platform/i,
  },
  {
    name: "seed-fraction",
    args: trainWith("--seed", "1.5"),
    code: 2,
    message: /--seed expects an integer .*got "1.5"/,
  },
  {
    name: "seed-negative",
    args: trainWith("--seed=-1"),
    code: 2,
    message: /--seed expects an integer of at least 0/,
  },
  {
    name: "group-size-one",
    args: trainWith("--group-size", "1"),
    code: 2,
    message: /--group-size expects an integer of at least 2, got 1/,
  },
  {
    name: "stray-value-of-boolean",
    args: trainWith("--no-negative", "false"),
    code: 2,
    message: /unexpected argument "false": hs train takes no positional arguments/,
  },
  {
    name: "stray-positional-eval",
    args: [...evalBase, "dev"],
    code: 2,
    message: /unexpected argument "dev": hs eval takes no positional arguments/,
  },
  {
    name: "unknown-method",
    args: trainWith("--method", "ppo"),
    code: 2,
    message: /--method must be one of grpo, dapo, harness-s/,
  },
  {
    name: "unknown-rescue-gate",
    args: trainWith("--method", "grpo", "--rescue-gate", "sometimes"),
    code: 2,
    message: /--rescue-gate: "sometimes" is not one of always, yield/,
  },
  {
    name: "unknown-rescue-negatives",
    args: trainWith("--method", "grpo", "--rescue-negatives", "all"),
    code: 2,
    message: /--rescue-negatives: "all" is not one of sibling, base/,
  },
  {
    name: "rescue-negatives-base-without-negatives",
    args: trainWith("--method", "grpo", "--rescue-negatives", "base", "--no-negative"),
    code: 2,
    message: /--rescue-negatives base keeps every base failure; it cannot be given with --no-negative/,
  },
  {
    name: "route-k-zero",
    args: [...route, "--k", "0"],
    code: 2,
    message: /--k expects an integer of at least 1, got 0/,
  },
  {
    name: "route-judge-timeout-negative",
    args: [...route, "--judge-timeout=-5"],
    code: 2,
    message: /--judge-timeout expects an integer of at least 1, got -5/,
  },
  {
    name: "llm-base-url-without-model",
    args: [
      "evolve",
      "--bench",
      "dbbench",
      "--out",
      "@W/pool.json",
      "--llm-base-url",
      "http://127.0.0.1:9/v1",
    ],
    code: 2,
    message: /--llm-base-url needs --llm-model/,
  },
  {
    name: "llm-timeout-zero",
    args: ["evolve", "--bench", "dbbench", "--out", "@W/pool.json", "--llm-model", "m", "--llm-timeout", "0"],
    code: 2,
    message: /--llm-timeout expects an integer of at least 1, got 0/,
  },
  {
    name: "evolve-unknown-first-generation",
    args: ["evolve", "--bench", "dbbench", "--out", "@W/pool.json", "--first-generation", "all"],
    code: 2,
    message: /--first-generation: "all" is not one of every-entry, sampled/,
  },
  {
    name: "evolve-first-generation-cap-zero",
    args: ["evolve", "--bench", "dbbench", "--out", "@W/pool.json", "--first-generation-cap", "0"],
    code: 2,
    message: /--first-generation-cap expects an integer of at least 1, got 0/,
  },
  {
    name: "quickstart-unknown-method",
    args: ["quickstart", "--methods", "grpo,ppo", "--out", "@W/qs"],
    code: 2,
    message: /--methods: "ppo" is not a method; expected a comma-separated list of grpo/,
  },
  {
    name: "quickstart-unknown-rescue-gate",
    args: ["quickstart", "--rescue-gate", "often", "--splits", "dev", "--out", "@W/qs"],
    code: 2,
    message: /--rescue-gate: "often" is not one of always, yield/,
  },
  {
    name: "quickstart-zero-seeds",
    args: ["quickstart", "--seeds", "0", "--out", "@W/qs"],
    code: 2,
    message: /--seeds expects an integer of at least 1, got 0/,
  },
  // output paths
  {
    name: "out-empty",
    args: [...train, "--out="],
    code: 2,
    message: /--out expects a value, got an empty one/,
  },
  {
    name: "out-is-the-data-file",
    args: [...train, "--out", "@W/four.jsonl"],
    code: 2,
    message: /--out .*four\.jsonl is also the input --data/,
  },
  {
    name: "eval-trajectories-overwrite-data",
    args: [...evalBase, "--trajectories", "@W/four.jsonl"],
    code: 2,
    message:
      /--trajectories .*four\.jsonl is also the input --data .*four\.jsonl: it would overwrite its own input/,
  },
  {
    name: "eval-trajectories-missing-directory",
    args: [...evalBase, "--trajectories", "@W/missing/episodes.jsonl"],
    code: 2,
    message: /--trajectories .*the directory .*missing does not exist/,
  },
  {
    name: "profile-out-overwrites-pool",
    args: ["profile", "--pool", "@F/pool-good.json", "--policy", "embedded", "--out", "@F/pool-good.json"],
    code: 2,
    message: /--out .*pool-good\.json is also the input --pool/,
  },
  {
    name: "evolve-out-unwritable",
    args: ["evolve", "--bench", "dbbench", "--out", "/proc/hs-pool.json"],
    code: 2,
    message: /--out: cannot write in \/proc/,
  },
  {
    name: "profile-out-uncreatable",
    args: [
      "profile",
      "--pool",
      "@F/pool-good.json",
      "--policy",
      "embedded",
      "--out",
      "/proc/hs/profiles.json",
    ],
    code: 2,
    message: /--out \/proc\/hs\/profiles\.json: cannot create \/proc\/hs/,
  },
  {
    name: "report-nonexistent",
    args: ["report", "@W/nonexistent", "--out", "@W/report"],
    code: 2,
    message: /experiment directory .*nonexistent does not exist/,
  },
  {
    name: "report-out-is-the-experiment",
    args: ["report", "@F", "--out", "@F"],
    code: 2,
    message: /--out .* is also the input experiment directory/,
  },
  {
    name: "out-holds-foreign-files",
    args: trainOut,
    setup: "foreign-files",
    code: 1,
    message: /holds files this run did not write \(metrics\.jsonl, notes\.txt, trajectories\.jsonl\)/,
  },
  // harness files
  {
    name: "harness-misspelled-key",
    args: trainWith("--harness", "@F/harness-misspelled-key.json"),
    code: 1,
    message:
      /harness-misspelled-key\.json, field "errorRecovery": invalid harness config: unknown key "emptyResults" \(did you mean "emptyResult"\?\)/,
  },
  {
    name: "harness-unknown-section",
    args: trainWith("--harness", "@F/harness-unknown-section.json"),
    code: 1,
    message: /harness-unknown-section\.json.*unknown key "retries"; expected keys: schemaVersion/,
  },
  {
    name: "harness-bad-capture-group",
    args: trainWith("--harness", "@F/harness-bad-capture-group.json"),
    code: 1,
    message:
      /field "actionFormat\.rules\.0\.arguments\.query".*capture group 2 does not exist: the pattern has 1 numbered group/,
  },
  {
    name: "harness-missing-named-group",
    args: [...evalBase, "--harness", "@F/harness-missing-named-group.json"],
    code: 1,
    message: /capture group "sql" does not exist: the pattern has no named groups/,
  },
  {
    name: "harness-empty",
    args: trainWith("--harness", "@F/harness-empty.json"),
    code: 1,
    message: /harness-empty\.json: the file is empty; expected a harness config/,
  },
  {
    name: "harness-directory",
    args: trainWith("--harness", "@F/harness-directory.json"),
    code: 1,
    message: /harness-directory\.json: is a directory; expected a harness config/,
  },
  {
    name: "harness-truncated",
    args: trainWith("--harness", "@F/harness-truncated.json"),
    code: 1,
    message: /harness-truncated\.json:\d+: not valid JSON at column \d+ \(the file looks truncated\)/,
  },
  {
    name: "harness-wrong-type",
    args: trainWith("--harness", "@F/harness-wrong-type.json"),
    code: 1,
    message: /harness-wrong-type\.json, field "budget\.maxSteps": invalid harness config: .*expected number/,
  },
  {
    name: "harness-missing-file",
    args: trainWith("--harness", "@F/no-such-harness.json"),
    code: 2,
    message: /--harness .*no-such-harness\.json: not "base", a preset/,
  },
  // pools and profiles
  {
    name: "pool-stale-hash",
    args: harnessS("--pool", "@F/pool-stale-hash.json"),
    code: 1,
    message: /pool-stale-hash\.json, field "siblings\.0\.hash": stale hash/,
  },
  {
    name: "pool-id-mismatch",
    args: harnessS("--pool", "@F/pool-id-mismatch.json"),
    code: 1,
    message:
      /field "siblings\.0\.id": id "sibling-guidance-9" differs from its config's id "sibling-guidance-1"/,
  },
  {
    name: "pool-other-benchmark",
    args: harnessS("--pool", "@F/pool-other-benchmark.json"),
    code: 1,
    message:
      /pool-other-benchmark\.json, field "benchmark": the pool was evolved for benchmark "alfworld", expected "dbbench"/,
  },
  {
    name: "pool-unknown-key",
    args: harnessS("--pool", "@F/pool-unknown-key.json"),
    code: 1,
    message: /pool-unknown-key\.json.*unknown key "sibling" \(did you mean "siblings"\?\)/,
  },
  {
    name: "pool-truncated",
    args: harnessS("--pool", "@F/pool-truncated.json"),
    code: 1,
    message: /pool-truncated\.json:1: not valid JSON .*expected a sibling pool/,
  },
  {
    name: "profiles-of-another-pool",
    args: harnessS("--pool", "@F/pool-good.json", "--profiles", "@F/profiles-other-pool.json"),
    code: 1,
    message:
      /profiles-other-pool\.json, field "profiles\.sibling-context-3": profiles of "sibling-context-3", which the pool does not hold/,
  },
  {
    name: "profiles-unknown-key",
    args: harnessS("--pool", "@F/pool-good.json", "--profiles", "@F/profiles-unknown-key.json"),
    code: 1,
    message: /profiles-unknown-key\.json.*unknown key "sucessRate" \(did you mean "successRate"\?\)/,
  },
  // data and trajectory files
  {
    name: "data-empty",
    args: [...evalBase.slice(0, 3), "--data", "@F/empty.jsonl"],
    code: 2,
    message: /no tasks in .*empty\.jsonl/,
  },
  {
    name: "data-not-json",
    args: [...evalBase.slice(0, 3), "--data", "@F/not-json.txt"],
    code: 2,
    message: /skipped a record: .*not-json\.txt:1: invalid JSON[\s\S]*no tasks in .*not-json\.txt/,
  },
  {
    name: "trajectories-truncated",
    args: route,
    code: 1,
    message: /cut-trajectories\.jsonl:4: not valid JSON/,
  },
  // run directories
  {
    name: "resume-with-another-harness",
    args: trainWith("--harness", "@F/harness-same-id-other-prompt.json"),
    setup: "template-run",
    code: 1,
    message:
      /cannot resume .*: an input changed since the run started: harness \(dbbench-v0\.2-base sha256:[0-9a-f]+ when the run started, dbbench-v0\.2-base sha256:[0-9a-f]+ now\)/,
  },
  {
    name: "resume-with-other-data",
    args: trainOut.map((word) => (word === "@W/four.jsonl" ? "@W/bom.jsonl" : word)),
    setup: "template-run",
    code: 1,
    message: /cannot resume .*changed since the run started: data \(sha256:/,
  },
  {
    name: "resume-with-other-config",
    args: trainWith("--learning-rate", "0.01"),
    setup: "template-run",
    code: 1,
    message: /config\.learningRate \(0\.05 when the run started, 0\.01 now\)/,
  },
  {
    name: "truncated-latest-json",
    args: trainOut,
    setup: "truncated-latest",
    code: 1,
    message: /checkpoints\/latest\.json: the checkpoint pointer is not valid JSON/,
  },
  {
    name: "corrupt-checkpoint",
    args: trainOut,
    setup: "corrupt-checkpoint",
    code: 1,
    message: /step-00001\/policy\.json.*cannot read the policy parameters/,
  },
  {
    name: "second-writer",
    args: trainOut,
    setup: "live-lock",
    code: 1,
    message:
      /is in use: "hs train --method grpo --seed 3" \(pid \d+ .*\) holds .*\.hs-run\.lock; wait for it to finish or use another --out/,
  },
  {
    name: "stale-lock-taken-over",
    args: trainOut,
    setup: "stale-lock",
    code: 0,
    writesRun: true,
    message:
      /taking over a stale lock: pid \d+ \("hs train --method grpo --seed 3", started .*\) no longer runs/,
  },
  {
    name: "learning-rate-overflow",
    args: trainWith("--learning-rate", "1e308", "--budget", "16"),
    code: 1,
    writesRun: true,
    message:
      /step (\d+): the update (gave \w+ = (NaN|-?Infinity)|made a weight non-finite).*training stopped before step \1 was written or checkpointed/,
  },
  {
    name: "pool-with-bom",
    args: [...evalBase, "--rank1", "@F/pool-bom.json", "--profiles", "@F/profiles-good.json"],
    code: 0,
    message: /eval: 4\/4 episodes/,
    absent: /Unexpected token|not valid JSON/,
  },
  // outputs never overwrite inputs, repeated options, resume settings, partial runs
  {
    name: "eval-trajectories-hard-link-of-data",
    args: [...evalBase, "--trajectories", "@W/four-link.jsonl"],
    code: 2,
    message:
      /--trajectories .*four-link\.jsonl is also the input --data .*four\.jsonl \(the same file by device and inode\)/,
  },
  {
    name: "eval-trajectories-over-trained-weights",
    args: [...evalBase, "--policy", "embedded:@R", "--trajectories", "@R/final/policy.json"],
    setup: "template-run",
    code: 2,
    message: /--trajectories .*final\/policy\.json is a file of the input --policy .*run: it would overwrite/,
  },
  {
    name: "export-over-the-run",
    args: [...exportRun, "--out", "@R/trajectories.jsonl"],
    setup: "template-run",
    code: 2,
    message: /--out .*run\/trajectories\.jsonl is a file of the input --run/,
  },
  {
    name: "repeated-option",
    args: [...evalBase, "--data", "@W/bom.jsonl", "--trajectories", "@W/four.jsonl"],
    code: 2,
    message:
      /--data is given twice \(--data .*four\.jsonl, then --data .*bom\.jsonl\); give each option once/,
  },
  {
    name: "export-out-under-proc",
    args: [...exportRun, "--out", "/proc/hs-no-such/e.jsonl"],
    setup: "template-run",
    code: 2,
    message: /--out \/proc\/hs-no-such\/e\.jsonl: cannot create \/proc\/hs-no-such/,
  },
  {
    name: "export-running-run",
    args: [...exportRun, "--out", "@W/export.jsonl"],
    setup: "live-lock",
    code: 1,
    message:
      /run is still being written by "hs train --method grpo --seed 3" \(pid \d+.*pass --allow-partial/,
  },
  {
    name: "resume-with-other-protocol",
    args: trainWith("--protocol", "fc"),
    setup: "template-run",
    code: 1,
    message: /cannot resume .*bench\.--protocol \(absent when the run started, fc now\)/,
  },
  {
    name: "resume-with-corrupt-config",
    args: trainOut,
    setup: "corrupt-config",
    code: 1,
    message: /run\/config\.json: the run's config is not valid JSON/,
  },
  {
    name: "quickstart-budget-below-one-step",
    args: ["quickstart", "--budget", "3", "--group-size", "4", "--splits", "dev", "--out", "@W/qs"],
    code: 2,
    message: /--budget 3 is smaller than one step: a step needs at least one group of --group-size 4/,
  },
  {
    name: "harness-unknown-tool",
    args: [...evalBase, "--harness", "@F/harness-unknown-tool.json"],
    code: 1,
    message:
      /harness-unknown-tool\.json: field "tools\.expose\.1": tool "no_such_tool" is not offered by the environment/,
  },
];
