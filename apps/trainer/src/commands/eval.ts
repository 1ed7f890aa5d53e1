import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { appendTrajectories } from "@hs/harness";
import { createEmbeddedPolicy, type EmbeddedPolicy, readPolicyConfig } from "@hs/policy-embedded";
import { readProfileSet } from "@hs/profiles";
import { evaluatePolicy } from "@hs/rescue-grpo";
import { rankOne } from "@hs/router";
import type { BenchmarkV1, Task, Trajectory } from "@hs/spec";
import { replaceAtomically } from "../atomic-file.js";
import {
  grammarOf,
  heldoutSplitOf,
  loadTaskSet,
  openBenchmark,
  resolveHarness,
} from "../benchmark-selection.js";
import {
  type Command,
  type CommandArguments,
  type CommandIo,
  integerOption,
  stringOption,
  UsageError,
} from "../command.js";
import { formatStatistic } from "../format-statistic.js";
import { resolveRouter, routerOptionUsage } from "../routers.js";
import { checkOutputFile } from "../run-directory.js";
import { sharedOption } from "../shared-options.js";
import { matchProfilesToPool, readPoolFor } from "../strict-inputs.js";
import {
  openTinkerEvaluation,
  tinkerBaseModel,
  tinkerEvalOptions,
  tinkerPolicyWording,
} from "../tinker-policy-stack.js";

async function embeddedEvaluation(benchmark: BenchmarkV1, spec: string, seed: number) {
  const policy = await resolvePolicy(benchmark, spec, seed);
  return { policy, release: async () => policy.dispose() };
}

/** The directory of `--policy embedded:DIR` (an input no output may overwrite), else undefined. */
export function policyDirectoryOf(spec: string | undefined): string | undefined {
  return spec?.startsWith("embedded:") === true ? spec.slice("embedded:".length) : undefined;
}

/** `embedded` (untrained weights of the seed) or `embedded:DIR` (a checkpoint or a run directory). */
export async function resolvePolicy(
  benchmark: BenchmarkV1,
  spec: string,
  seed: number,
): Promise<EmbeddedPolicy> {
  const grammar = grammarOf(benchmark);
  const [kind, ...rest] = spec.split(":");
  if (kind !== "embedded") throw new UsageError(`--policy ${spec}: expected embedded or embedded:DIR`);
  if (rest.length === 0) return createEmbeddedPolicy({ grammar, seed });
  return loadEmbeddedPolicy(benchmark, rest.join(":"));
}

/** The embedded policy saved in a checkpoint directory, or in the `final/` of a run directory. */
export async function loadEmbeddedPolicy(benchmark: BenchmarkV1, path: string): Promise<EmbeddedPolicy> {
  const grammar = grammarOf(benchmark);
  let directory = resolve(path);
  if (!existsSync(join(directory, "policy.json")) && existsSync(join(directory, "final", "policy.json"))) {
    directory = join(directory, "final");
  }
  const config = await readPolicyConfig(directory);
  const policy = await createEmbeddedPolicy({
    grammar,
    seed: config.seed,
    hiddenSizes: config.hiddenSizes,
    decisionBuckets: config.decisionBuckets,
  });
  await policy.load(directory);
  return policy;
}

const trivialValues = new Set(["0", "1", "0.0", "1.0", "none", "null", ""]);

/**
 * A passing query episode whose submitted answer is a single trivial value (`0`, `1`, `1.0`, `none`,
 * empty): such labels are passed by many unrelated queries, so these passes may be coincidental.
 */
export function isTrivialPass(trajectory: Trajectory): boolean {
  if (!trajectory.success) return false;
  if (trajectory.category === "INSERT" || trajectory.category === "UPDATE") return false;
  const last = trajectory.steps.at(-1)?.action;
  if (last === undefined) return false;
  const answerText = /Final Answer:\s*(.*)$/s.exec(last.content)?.[1];
  const fromTool = last.toolCalls?.[0]?.arguments;
  let answers: unknown;
  try {
    answers = answerText === undefined ? Object.values(fromTool ?? {})[0] : JSON.parse(answerText);
  } catch {
    return false;
  }
  if (!Array.isArray(answers) || answers.length !== 1) return false;
  return trivialValues.has(String(answers[0]).trim().toLowerCase());
}

type Evaluation = Awaited<ReturnType<typeof evaluatePolicy>>;

/**
 * DBBench's own fields of the JSON result: `overall_cat_accuracy` (its summarize's, at the top level
 * as AgentBench reports it) and the passes on a trivial answer (`isTrivialPass`, a DBBench reading).
 */
function dbbenchFields(benchmark: BenchmarkV1, result: Evaluation) {
  const overall = result.metrics.overall_cat_accuracy;
  return {
    ...(overall === undefined ? {} : { overall_cat_accuracy: overall }),
    ...(benchmark.id === "dbbench"
      ? { trivial_value_passes: result.trajectories.filter(isTrivialPass).length }
      : {}),
  };
}

/** The human result: success, the benchmark's own metrics under its own names, success per category. */
export function evaluationText(
  result: Pick<Evaluation, "n" | "success" | "metrics" | "perCategory">,
): string {
  const metrics = Object.entries(result.metrics);
  const width = Math.max(18, ...metrics.map(([name]) => name.length));
  const metricLines = metrics.map(([name, value]) => `  ${name.padEnd(width)} ${formatStatistic(value)}`);
  const categories = Object.entries(result.perCategory).map(
    ([category, entry]) => `  ${category.padEnd(width)} ${(entry.success * 100).toFixed(1)}% of ${entry.n}`,
  );
  const sections = [
    metricLines.length === 0 ? [] : ["metrics:", ...metricLines],
    categories.length === 0 ? [] : ["success per category:", ...categories],
  ].flat();
  return `${result.n} tasks, success ${(result.success * 100).toFixed(1)}%\n${sections.map((line) => `${line}\n`).join("")}`;
}

/** The options `hs eval` settles before it opens the benchmark. */
interface EvalSettings {
  seed: number;
  mode: "greedy" | "sample";
  trajectoriesFile: string | undefined;
}

async function evaluateOn(
  benchmark: BenchmarkV1,
  args: CommandArguments,
  io: CommandIo,
  { seed, mode, trajectoriesFile }: EvalSettings,
): Promise<number> {
  const split = stringOption(args, "split") ?? heldoutSplitOf(benchmark);
  const tasks = await loadTaskSet(benchmark, stringOption(args, "data"), split, (message) =>
    io.stderr(`${message}\n`),
  );
  const harness = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
  const spec = stringOption(args, "policy") ?? "embedded";
  const baseModel = spec.startsWith("tinker:") ? tinkerBaseModel(spec) : undefined;
  const { policy, release } =
    baseModel === undefined
      ? await embeddedEvaluation(benchmark, spec, seed)
      : await openTinkerEvaluation(args, baseModel, io.stderr);
  const rankOneFile = stringOption(args, "rank1");
  const profilesFile = stringOption(args, "profiles");
  const pool = rankOneFile === undefined ? null : await readPoolFor(benchmark, resolve(rankOneFile));
  const profiles =
    profilesFile === undefined
      ? null
      : matchProfilesToPool(
          await readProfileSet(resolve(profilesFile)),
          pool,
          { file: profilesFile, allowMismatch: args.values["allow-profile-mismatch"] === true },
          (message) => io.stderr(`${message}\n`),
        );
  const router = await resolveRouter(stringOption(args, "router"), benchmark);
  const chosen: Record<string, number> = {};
  const started = Date.now();
  const result = await evaluatePolicy({
    tasks,
    benchmark,
    harness,
    ...(pool === null
      ? {}
      : {
          harnessFor: async (task: Task) => {
            const choice = await rankOne({ router, benchmark, task, pool, profiles, seed });
            chosen[choice.harnessId] = (chosen[choice.harnessId] ?? 0) + 1;
            return choice.config;
          },
        }),
    policy,
    seed,
    mode,
    onEpisode: (_, done, total) => {
      if (done % 10 === 0 || done === total) io.stderr(`eval: ${done}/${total} episodes\n`);
    },
  });
  if (trajectoriesFile !== undefined)
    await replaceAtomically(trajectoriesFile, (draft) => appendTrajectories(draft, result.trajectories));
  const passes = result.trajectories.filter((trajectory) => trajectory.success);
  const output = {
    success: result.success,
    ...dbbenchFields(benchmark, result),
    n: result.n,
    per_category: Object.fromEntries(
      Object.entries(result.perCategory).map(([category, entry]) => [category, entry.success]),
    ),
    metrics: result.metrics,
    passes: passes.length,
    policy: `${policy.id}@${policy.version}`,
    harness: pool === null ? harness.id : "rank-1",
    ...(pool === null ? {} : { rank1_choices: chosen }),
    wall_ms: Date.now() - started,
  };
  await release();
  io.stdout(args.values.json === true ? `${JSON.stringify(output)}\n` : evaluationText(result));
  return 0;
}

/** `hs eval`: one greedy episode per task under a harness; benchmark metrics on stdout. */
export const evalCommand: Command = {
  name: "eval",
  summary: "evaluate a policy on a benchmark under a harness (held-out tasks by default)",
  about: `Usage: hs eval --bench NAME [--data FILE] [--split NAME] --harness base --policy embedded[:DIR] [--seed S] [--json]

Runs every task once (greedy) and prints the benchmark's metrics.`,
  options: {
    bench: sharedOption("bench"),
    data: sharedOption("data", {
      description: "a task file of the benchmark's format (default: the held-out split)",
    }),
    split: sharedOption("split", {
      description: "bundled split (default: the benchmark's first held-out split)",
    }),
    harness: sharedOption("harness"),
    policy: sharedOption("policy", {
      description: `embedded (untrained weights of --seed), embedded:DIR (checkpoint or run directory), ${tinkerPolicyWording}`,
    }),
    seed: sharedOption("seed", { description: "policy seed and episode seed" }),
    mode: { type: "string", value: "MODE", description: "greedy or sample", default: "greedy" },
    rank1: {
      type: "string",
      value: "POOL",
      description:
        "Rank-1 inference: each task runs under the one harness the router ranks first for it (a sibling of POOL, or the base when its profile is at least as good), at the same one episode per task",
    },
    profiles: sharedOption("profiles", {
      description:
        "profiles for the Rank-1 router (hs profile); profiles of harnesses the pool lacks are refused",
    }),
    "allow-profile-mismatch": sharedOption("allow-profile-mismatch", {
      description: "ignore (with a warning) such profiles instead",
    }),
    router: sharedOption("router", { description: `the Rank-1 router: ${routerOptionUsage}` }),
    trajectories: {
      type: "string",
      value: "F",
      description: "also write every episode to F (JSON lines, the format of hs train's trajectories)",
    },
    json: sharedOption("json", {
      description:
        'print {"success","n","per_category","metrics",...} as JSON (metrics: the benchmark\'s summarize; DBBench adds "overall_cat_accuracy" and "trivial_value_passes")',
    }),
    ...tinkerEvalOptions,
  },
  async run(args, io) {
    const seed = integerOption(args, "seed");
    const mode = stringOption(args, "mode") ?? "greedy";
    if (mode !== "greedy" && mode !== "sample")
      throw new UsageError(`--mode ${mode}: expected greedy or sample`);
    const trajectoriesFile =
      args.values.trajectories === undefined
        ? undefined
        : await checkOutputFile("--trajectories", stringOption(args, "trajectories"), [
            { option: "--data", path: stringOption(args, "data") },
            { option: "--rank1", path: stringOption(args, "rank1") },
            { option: "--profiles", path: stringOption(args, "profiles") },
            { option: "--harness", path: stringOption(args, "harness") },
            { option: "--policy", path: policyDirectoryOf(stringOption(args, "policy")) },
            { option: "--tinker-run", path: stringOption(args, "tinker-run") },
            { option: "--tokenizer", path: stringOption(args, "tokenizer") },
          ]);
    const benchmark = await openBenchmark(args);
    // a benchmark may hold connections (the DBBench MySQL engine's pool) that keep the process alive
    try {
      return await evaluateOn(benchmark, args, io, { seed, mode, trajectoriesFile });
    } finally {
      await benchmark.close?.();
    }
  },
};
