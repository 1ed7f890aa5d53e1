import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { startDashboard } from "@hs/dashboard";
import { evolveDefaults } from "@hs/evolution";
import { defaultProfileRollouts } from "@hs/profiles";
import { writeReport } from "@hs/report";
import { defaultTrainerConfig, type RescueGate, rescueMethods, samplingMethods } from "@hs/rescue-grpo";
import type { MainJobDefaultsV1 } from "@hs/spec";
import { checkStepBudget, numberArgument } from "../arguments.js";
import { writeFileAtomic } from "../atomic-file.js";
import { heldoutSplitOf, openBenchmark } from "../benchmark-selection.js";
import {
  type Command,
  type CommandArguments,
  type CommandIo,
  integerOption,
  stringOption,
  UsageError,
} from "../command.js";
import { loadRouterPlugin, looksLikePath } from "../plugins.js";
import { builtInRouterNames, routerOptionUsage } from "../routers.js";
import { checkOutputDirectory } from "../run-directory.js";
import { type CliJob, runCliJob, runCliJobs } from "../run-jobs.js";
import { acquireRunLock } from "../run-lock.js";
import { sharedOption } from "../shared-options.js";
import {
  checkExperimentSettings,
  checkKeptStageOutput,
  experimentFingerprint,
  recordExperimentSettings,
} from "./quickstart-inputs.js";
import { collectResults, isCompleteEvaluation } from "./quickstart-results.js";
import { rescueGateOf } from "./train-setup.js";

/** Settings of the main job; each maps to a flag. */
export interface QuickstartSettings {
  /** `--bench` and the benchmark plugin's own options, passed to every stage. */
  benchmarkArgs: string[];
  /** Experiment directory. */
  out: string;
  /** Seeds per method. */
  seeds: number[];
  /** Methods trained. */
  methods: string[];
  /** Rollouts per training run (equal for every method). */
  budget: number;
  /** Child processes at once. */
  workers: number;
  /** Training tasks used by evolution and profiling (first N of the split; 0: all). */
  evolveTasks: number;
  /** Harness-S re-anchors its profiles every N steps (0: never). */
  reanchorEvery: number;
  /** Held-out splits every policy is evaluated on, under the base harness. */
  heldoutSplits: string[];
  /** `--router` of the harness-s training runs and Rank-1 (absent: their default router). */
  router?: string;
  /** Flags passed on to stages as given (`--rollouts` to evolve and profile, `--group-size` to train...). */
  stageFlags?: Partial<Record<"evolve" | "profile" | "train", string[]>>;
  /** `--redis URL`: evolve, profile and train run their episodes on the workers of this queue. */
  redis?: string;
  /** `--rescue-gate` of the rescue methods' training runs (absent: theirs, `always`). */
  rescueGate?: Exclude<RescueGate, "always">;
  /** `--credit-harness-calls` on the rescue methods' training runs. */
  creditHarnessCalls?: boolean;
}

/** Quickstart options passed on unchanged to the stages that take them, with their main-job default. */
const stageOptions = {
  rollouts: { stages: ["evolve", "profile"], field: "rollouts" },
  generations: { stages: ["evolve"], field: "generations" },
  candidates: { stages: ["evolve"], field: "candidates" },
  "max-failures": { stages: ["evolve"], field: "maxFailures" },
  "group-size": { stages: ["train"], field: "groupSize" },
  "prompts-per-step": { stages: ["train"], field: "promptsPerStep" },
} as const satisfies Record<string, { stages: readonly string[]; field: keyof MainJobDefaultsV1 }>;

/** The stage flags of the stage options given on the command line, or else of the benchmark's defaults. */
export function stageFlagsOf(
  args: CommandArguments,
  defaults: MainJobDefaultsV1 = {},
): NonNullable<QuickstartSettings["stageFlags"]> {
  const flags: NonNullable<QuickstartSettings["stageFlags"]> = {};
  for (const [option, { stages, field }] of Object.entries(stageOptions)) {
    const given = stringOption(args, option) === undefined ? undefined : integerOption(args, option, 0);
    const value = given ?? defaults[field];
    if (value === undefined) continue;
    for (const stage of stages) flags[stage] = [...(flags[stage] ?? []), `--${option}`, String(value)];
  }
  return flags;
}

/** One evaluation of the main job: a trained policy, the untrained one, or Rank-1 inference. */
export interface EvalJob extends CliJob {
  /** Where its JSON result is kept (an existing file is not run again). */
  output: string;
  /** `trained`: a method's policy under the base harness; `untrained`: the seed's initial weights. */
  kind: "trained" | "untrained" | "rank-1";
  /** The method trained (`untrained` for the initial weights). */
  method: string;
  /** Seed. */
  seed: number;
  /** Held-out split. */
  split: string;
}

/** `--router SPEC` when one was given. */
function routerArguments(settings: QuickstartSettings): string[] {
  return settings.router === undefined ? [] : ["--router", settings.router];
}

/** The rescue settings of a rescue method's training run, as `hs train` flags. */
function rescueArguments(settings: QuickstartSettings, paths: QuickstartPaths): string[] {
  return [
    ...["--pool", paths.pool, "--profiles", paths.profiles],
    ...(settings.rescueGate === undefined ? [] : ["--rescue-gate", settings.rescueGate]),
    ...(settings.creditHarnessCalls === true ? ["--credit-harness-calls"] : []),
  ];
}

/** Where the main job keeps each stage's output and log. */
interface QuickstartPaths {
  pool: string;
  profiles: string;
  run: (method: string, seed: number) => string;
  log: (name: string) => string;
  /** `--redis URL` of the stages whose episodes may run on the queue's workers. */
  queue: string[];
}

function quickstartPaths(settings: QuickstartSettings): QuickstartPaths {
  const { out } = settings;
  return {
    pool: join(out, "pool.json"),
    profiles: join(out, "profiles.json"),
    run: (method, seed) => join(out, "runs", method, `seed-${seed}`),
    log: (name) => join(out, "logs", `${name}.log`),
    queue: settings.redis === undefined ? [] : ["--redis", settings.redis],
  };
}

function evolveJob(settings: QuickstartSettings, paths: QuickstartPaths): CliJob {
  return {
    name: "evolve",
    args: [
      "evolve",
      ...settings.benchmarkArgs,
      "--split",
      "train",
      "--tasks",
      String(settings.evolveTasks),
      "--seed",
      "0",
      // evolve and profile run alone, so their episodes may take every worker
      "--concurrency",
      String(settings.workers),
      ...(settings.stageFlags?.evolve ?? []),
      ...paths.queue,
      "--out",
      paths.pool,
    ],
    log: paths.log("evolve"),
  };
}

function profileJob(settings: QuickstartSettings, paths: QuickstartPaths): CliJob {
  return {
    name: "profile",
    args: [
      "profile",
      ...settings.benchmarkArgs,
      "--pool",
      paths.pool,
      "--policy",
      "embedded",
      "--tasks",
      String(settings.evolveTasks),
      "--concurrency",
      String(settings.workers),
      ...(settings.stageFlags?.profile ?? []),
      ...paths.queue,
      "--out",
      paths.profiles,
    ],
    log: paths.log("profile"),
  };
}

function trainJob(
  settings: QuickstartSettings,
  paths: QuickstartPaths,
  method: string,
  seed: number,
): CliJob {
  return {
    name: `train ${method} seed ${seed}`,
    args: [
      "train",
      ...settings.benchmarkArgs,
      "--method",
      method,
      "--seed",
      String(seed),
      "--budget",
      String(settings.budget),
      "--out",
      paths.run(method, seed),
      ...((rescueMethods as readonly string[]).includes(method) ? rescueArguments(settings, paths) : []),
      ...(method === "harness-s" ? ["--reanchor-every", String(settings.reanchorEvery)] : []),
      ...(method === "harness-s" ? routerArguments(settings) : []),
      ...(settings.stageFlags?.train ?? []),
      ...paths.queue,
    ],
    log: paths.log(`train-${method}-${seed}`),
  };
}

function evaluationJob(
  settings: QuickstartSettings,
  paths: QuickstartPaths,
  { kind, method, seed, split }: Pick<EvalJob, "kind" | "method" | "seed" | "split">,
): EvalJob {
  const policy =
    kind === "untrained" ? ["embedded", "--seed", String(seed)] : [`embedded:${paths.run(method, seed)}`];
  const directory =
    kind === "untrained" ? join(settings.out, "untrained", `seed-${seed}`) : paths.run(method, seed);
  const label = kind === "rank-1" ? `rank-1 ${method}` : kind === "untrained" ? "untrained" : method;
  return {
    name: `eval ${label} seed ${seed} on ${split}`,
    args: [
      "eval",
      ...settings.benchmarkArgs,
      "--split",
      split,
      "--harness",
      "base",
      "--policy",
      ...policy,
      ...(kind === "rank-1"
        ? ["--rank1", paths.pool, "--profiles", paths.profiles, ...routerArguments(settings)]
        : []),
      "--json",
    ],
    log: paths.log(`eval-${kind === "trained" ? method : kind}-${seed}-${split}`),
    output: join(directory, `eval${kind === "rank-1" ? "-rank1" : ""}-${split}.json`),
    kind,
    method,
    seed,
    split,
  };
}

/** The `hs` jobs of every stage, in order (each reproducible on its own from the printed command). */
export function quickstartPlan(settings: QuickstartSettings) {
  const paths = quickstartPaths(settings);
  const train = settings.methods.flatMap((method) =>
    settings.seeds.map((seed) => trainJob(settings, paths, method, seed)),
  );
  const everySplit = (kind: EvalJob["kind"], methods: readonly string[]) =>
    methods.flatMap((method) =>
      settings.seeds.flatMap((seed) =>
        settings.heldoutSplits.map((split) => evaluationJob(settings, paths, { kind, method, seed, split })),
      ),
    );
  const evaluate = everySplit("trained", settings.methods);
  const untrained = everySplit("untrained", ["untrained"]);
  const rankOne = settings.methods.includes("harness-s") ? everySplit("rank-1", ["harness-s"]) : [];
  const { pool, profiles, run } = paths;
  const evolve = evolveJob(settings, paths);
  const profile = profileJob(settings, paths);
  return { pool, profiles, run, evolve, profile, train, evaluate, untrained, rankOne };
}

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** Seconds between two progress lines of one stage that quickstart passes through. */
export const progressEverySeconds = 10;

/** `--bench` with the plugin's own option values, as arguments for the stages. */
export function benchmarkArguments(args: CommandArguments): string[] {
  const selection = args.benchmark;
  if (selection === undefined) return ["--bench", "dbbench"];
  const own = Object.entries(selection.values).flatMap(([name, value]) =>
    value === undefined || value === false ? [] : value === true ? [`--${name}`] : [`--${name}`, value],
  );
  return ["--bench", selection.specifier, ...own];
}

/** `--splits`, or every held-out split the benchmark declares (its first held-out split otherwise). */
async function heldoutSplitsOf(args: CommandArguments): Promise<string[]> {
  const listed = stringOption(args, "splits");
  if (listed !== undefined) return listed.split(",").map((split) => split.trim());
  const benchmark = await openBenchmark(args, "dbbench");
  try {
    return [...(benchmark.heldoutSplits ?? [heldoutSplitOf(benchmark)])];
  } finally {
    await benchmark.close?.();
  }
}

/**
 * Runs a stage whose own progress lines may be far apart (an evolve generation, or a training step on a
 * benchmark whose episodes run test suites, takes minutes): its lines are passed through at most one per
 * interval, and a "still running" line fills every silence longer than the interval.
 */
export async function withHeartbeat<T>(
  say: (text: string) => void,
  name: string,
  run: (onProgress: (line: string) => void) => Promise<T>,
  everyMs = progressEverySeconds * 1000,
): Promise<T> {
  const started = Date.now();
  let last = started;
  let latest = "started";
  const timer = setInterval(
    () => {
      if (Date.now() - last < everyMs) return;
      last = Date.now();
      say(`${name}: still running after ${((last - started) / 1000).toFixed(0)} s (last: ${latest})`);
    },
    Math.min(1000, everyMs / 4),
  );
  try {
    return await run((line) => {
      latest = line;
      if (Date.now() - last < everyMs) return;
      last = Date.now();
      say(`${name}: ${line}`);
    });
  } finally {
    clearInterval(timer);
  }
}

/** `hs quickstart`: the main job on the embedded default, end to end, resumable. */
export const quickstartCommand: Command = {
  name: "quickstart",
  summary: "the main job: evolve, profile, train grpo/dapo/harness-s over seeds, evaluate, Rank-1, report",
  about: `Usage: hs quickstart [--out DIR] [options]

The main job with the embedded policy, on a CPU, on a benchmark (default dbbench):
  1. evolve a sibling pool on the training split                       -> DIR/pool.json, pool.evolution.json
     (a DIR/pool.json that exists is kept: bring your own pool by putting it there)
  2. profile the pool with the untrained policy                        -> DIR/profiles.json
  3. train each method for each seed at the same rollout budget        -> DIR/runs/METHOD/seed-S/
  4. evaluate the untrained and every trained policy on each held-out split under the base harness,
     and Rank-1 inference
  5. write DIR/results.json and the report DIR/report/index.html
Every stage is an "hs" command run as a child process (logs in DIR/logs/); running the same command
again resumes: finished stages are kept and interrupted training runs continue from their checkpoint.
The stages' progress lines are passed through (at most one per stage every ${progressEverySeconds} s).`,
  options: {
    bench: sharedOption("bench", {
      description:
        'benchmark: dbbench (default), swegym, appworld, a plugin package or a path; its own options ("hs quickstart --bench NAME --help") are passed to every stage',
    }),
    out: sharedOption("out", {
      value: "DIR",
      description: "experiment directory",
      default: "runs/quickstart",
    }),
    seeds: {
      type: "string",
      value: "N",
      description: "seeds per method",
      default: 3,
      number: { kind: "integer", min: 1 },
    },
    methods: {
      type: "string",
      value: "LIST",
      description: "comma-separated methods",
      default: "grpo,dapo,harness-s",
    },
    budget: sharedOption("budget", { default: 1024 }),
    workers: {
      type: "string",
      value: "N",
      description:
        "child processes at once, and episodes at once in evolve and profile (default: the number of CPUs)",
      number: { kind: "integer", min: 1, max: 256 },
    },
    "evolve-tasks": {
      type: "string",
      value: "N",
      description: "training tasks used by evolve and profile",
      default: 0,
      defaultNote: "all of the training split",
      number: { kind: "integer", min: 1 },
    },
    "reanchor-every": sharedOption("reanchor-every", { default: 4 }),
    "rescue-gate": sharedOption("rescue-gate", {
      description:
        "the rescue methods' gate: always (every all-fail group is rescued) or yield (only while a run's rescues buy groups with signal at least as cheaply a rollout as its fresh prompts)",
    }),
    "credit-harness-calls": sharedOption("credit-harness-calls", {
      description:
        "the rescue methods' runs train a rescued trajectory's harness calls as the policy's own decisions under the base view (hs train --credit-harness-calls)",
    }),
    router: sharedOption("router", {
      description: `the router of the harness-s training runs and of Rank-1: ${routerOptionUsage}`,
    }),
    splits: {
      type: "string",
      value: "LIST",
      description: "held-out splits evaluated (default: every held-out split of the benchmark)",
    },
    rollouts: sharedOption("rollouts", {
      description: `rollouts per task in evolve and profile (default: theirs, ${defaultProfileRollouts})`,
    }),
    generations: sharedOption("generations", {
      description: `evolve's generations per direction (default: its own, ${evolveDefaults.generations})`,
    }),
    candidates: sharedOption("candidates", {
      description: `evolve's children per parent and generation (default: its own, ${evolveDefaults.candidatesPerGeneration})`,
    }),
    "max-failures": sharedOption("max-failures", {
      description: `base failures per direction an evolve candidate is validated on (default: ${evolveDefaults.maxFailuresPerDirection})`,
    }),
    "group-size": sharedOption("group-size", {
      description: `rollouts per prompt in training (default: hs train's, ${defaultTrainerConfig("grpo", 0).groupSize})`,
    }),
    "prompts-per-step": sharedOption("prompts-per-step", {
      description: `groups per update in training (default: hs train's, ${defaultTrainerConfig("grpo", 0).promptsPerStep})`,
    }),
    serve: {
      type: "boolean",
      description: "serve the live dashboard of the experiment while it runs and print its address",
    },
    port: sharedOption("port", {
      description: "the dashboard's port with --serve",
      default: 0,
      defaultNote: "any free port",
    }),
    redis: sharedOption("redis", {
      description:
        "evolve, profile and train run their episodes on the rollout workers of this Redis (hs worker --redis URL); the results are those of a run without it",
    }),
    json: sharedOption("json", { description: "print results.json on stdout" }),
  },
  notes: `A benchmark plugin may set its own defaults for these (its mainJobDefaults: swegym and appworld run
smaller jobs, their episodes run real test suites and Python); a value given here wins.`,
  async run(args, io) {
    const started = Date.now();
    const defaults = args.benchmark?.plugin.mainJobDefaults ?? {};
    const seedCount = integerOption(args, "seeds", defaults.seeds);
    const settings: QuickstartSettings = {
      benchmarkArgs: benchmarkArguments(args),
      out: resolve(stringOption(args, "out") ?? String(args.options.out?.default)),
      seeds: Array.from({ length: seedCount }, (_, index) => index + 1),
      methods: (stringOption(args, "methods") ?? String(args.options.methods?.default))
        .split(",")
        .map((method) => method.trim()),
      budget: integerOption(args, "budget", defaults.budget),
      workers: integerOption(args, "workers", availableParallelism()),
      evolveTasks: integerOption(args, "evolve-tasks", defaults.evolveTasks),
      reanchorEvery: integerOption(args, "reanchor-every"),
      heldoutSplits: await heldoutSplitsOf(args),
      stageFlags: stageFlagsOf(args, defaults),
      ...(stringOption(args, "redis") === undefined ? {} : { redis: stringOption(args, "redis") as string }),
      ...rescueSettingsOf(args),
    };
    const router = stringOption(args, "router");
    if (router !== undefined) {
      await checkRouter(router);
      // a path is made absolute, so the stages (and a resume from another directory) load the same file
      settings.router = looksLikePath(router) ? resolve(router) : router;
    }
    const unknown = settings.methods.filter(
      (method) => !(samplingMethods as readonly string[]).includes(method),
    );
    if (unknown.length > 0 || settings.methods.length === 0)
      throw new UsageError(
        `--methods: ${unknown.map((method) => `"${method}"`).join(", ") || "none given"} ${unknown.length === 1 ? "is not a method" : "are not methods"}; expected a comma-separated list of ${samplingMethods.join(", ")}`,
      );
    checkTrainingBudget(settings, (message) => io.stderr(`quickstart: ${message}\n`));
    await checkOutputDirectory("--out", settings.out);
    const lock = await acquireRunLock(settings.out, "hs quickstart", (message) =>
      io.stderr(`quickstart: ${message}\n`),
    );
    try {
      const dashboard =
        args.values.serve === true
          ? await startDashboard({
              directories: [settings.out],
              port: numberArgument(args, "port"),
              keepAlive: false,
            })
          : null;
      if (dashboard !== null)
        io.stderr(
          `[quickstart] dashboard: ${dashboard.url} (while the job runs; hs serve ${settings.out} after it)\n`,
        );
      await runExperiment(settings, args.values.json === true, io, started);
    } finally {
      await lock.release();
    }
    return 0;
  },
};

/** `--rescue-gate` (checked before any stage runs; `always`, the default, is left out) and `--credit-harness-calls`. */
function rescueSettingsOf(
  args: CommandArguments,
): Pick<QuickstartSettings, "rescueGate" | "creditHarnessCalls"> {
  const { gate } = rescueGateOf(args);
  return {
    ...(gate === undefined || gate === "always" ? {} : { rescueGate: gate }),
    ...(args.values["credit-harness-calls"] === true ? { creditHarnessCalls: true } : {}),
  };
}

/** Refuses, before any stage runs, a `--router` that names no built-in router nor a loadable router plugin. */
async function checkRouter(spec: string): Promise<void> {
  if ((builtInRouterNames as readonly string[]).includes(spec)) return;
  await loadRouterPlugin(spec);
}

/**
 * Refuses, before any stage runs, a budget that cannot pay for one training step with the group size
 * the training stage will use (its flag, or hs train's default).
 */
export function checkTrainingBudget(settings: QuickstartSettings, warn: (message: string) => void): void {
  const defaults = defaultTrainerConfig("grpo", 0);
  const flags = settings.stageFlags?.train ?? [];
  const flag = (name: string, fallback: number) => {
    const index = flags.indexOf(`--${name}`);
    return index < 0 ? fallback : Number(flags[index + 1]);
  };
  checkStepBudget(
    settings.budget,
    flag("group-size", defaults.groupSize),
    flag("prompts-per-step", defaults.promptsPerStep),
    warn,
  );
}

/** The stages of the main job, in order, with the experiment's lock held. */
async function runExperiment(
  settings: QuickstartSettings,
  json: boolean,
  io: CommandIo,
  started: number,
): Promise<void> {
  const fingerprint = experimentFingerprint(settings);
  await checkExperimentSettings(settings.out, fingerprint);
  const plan = quickstartPlan(settings);
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  const say = (text: string) => io.stderr(`[quickstart ${elapsed()}] ${text}\n`);
  say(
    `experiment in ${settings.out}; ${settings.methods.length} methods x ${settings.seeds.length} seeds, ${settings.budget} rollouts each, ${settings.workers} workers`,
  );

  for (const [job, output] of [
    [plan.evolve, plan.pool],
    [plan.profile, plan.profiles],
  ] as const) {
    if (existsSync(output)) {
      await checkKeptStageOutput(job.name as "evolve" | "profile", output, undefined);
      say(`${job.name}: kept ${output}`);
    } else {
      say(`${job.name}: hs ${job.args.join(" ")}`);
      const result = await withHeartbeat(say, job.name, (onProgress) => runCliJob(job, { onProgress }));
      say(`${job.name}: done in ${result.seconds.toFixed(0)} s`);
    }
    await recordExperimentSettings(settings.out, fingerprint);
  }

  say(`training ${plan.train.length} runs (logs in ${join(settings.out, "logs")})`);
  await withHeartbeat(say, "training", (onProgress) =>
    runCliJobs(
      plan.train,
      settings.workers,
      (result, finished) =>
        say(`${result.job.name}: done in ${result.seconds.toFixed(0)} s (${finished}/${plan.train.length})`),
      { onProgress: (job, line) => onProgress(`${job.name}: ${line}`) },
    ),
  );

  const evaluations = [...plan.untrained, ...plan.evaluate, ...plan.rankOne];
  const pending: EvalJob[] = [];
  for (const job of evaluations) if (!(await isCompleteEvaluation(job.output))) pending.push(job);
  say(
    `evaluating ${evaluations.length} policies and splits on held-out tasks (${evaluations.length - pending.length} kept)`,
  );
  await withHeartbeat(say, "evaluation", (onProgress) =>
    runCliJobs(
      pending,
      settings.workers,
      async (result, finished) => {
        await mkdir(dirname((result.job as EvalJob).output), { recursive: true });
        await writeFileAtomic((result.job as EvalJob).output, result.stdout);
        say(`${result.job.name}: ${result.stdout.trim().slice(0, 80)} (${finished}/${pending.length})`);
      },
      { onProgress: (job, line) => onProgress(`${job.name}: ${line}`) },
    ),
  );
  const results = await collectResults(plan, settings, (Date.now() - started) / 1000);
  await writeFileAtomic(join(settings.out, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const report = await writeReport({ experiments: [settings.out], out: join(settings.out, "report") });
  say(`report: ${join(settings.out, "report", "index.html")} (${report.charts.length} charts)`);
  for (const method of settings.methods) {
    say(
      `${method.padEnd(10)} held-out success per seed ${(results.heldout[method] ?? []).map((value) => value.toFixed(3)).join(", ")}; mean ${mean(results.heldout[method] ?? []).toFixed(3)}`,
    );
  }
  if (json) io.stdout(`${JSON.stringify(results)}\n`);
  else io.stdout(`wrote ${join(settings.out, "results.json")} in ${results.wall_seconds.toFixed(0)} s\n`);
}
