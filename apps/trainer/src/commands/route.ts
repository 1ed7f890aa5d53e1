import { readPool } from "@hs/evolution";
import { instructionOf } from "@hs/failure-analysis";
import { assertRouterDecisionInPool, observeTrajectory, readTrajectories } from "@hs/harness";
import { readProfileSet } from "@hs/profiles";
import {
  type Aggregation,
  createCombinedRouter,
  createLlmJudge,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
  describeMix,
  explainDecision,
  modeMix,
} from "@hs/router";
import type {
  BenchmarkV1,
  FailureConventions,
  JudgeV1,
  ObservedTask,
  Pool,
  ProfileSet,
  RouterV1,
  Trajectory,
} from "@hs/spec";
import { openBenchmark } from "../benchmark-selection.js";
import {
  type Command,
  type CommandArguments,
  type CommandIo,
  integerOption,
  stringOption,
  UsageError,
} from "../command.js";
import { createOutboundCalls, type OutboundCalls } from "../outbound-calls.js";
import { loadRouterPlugin } from "../plugins.js";
import { poolBenchmarkSelection } from "../pool-benchmark.js";
import { routerContext } from "../routers.js";
import { sharedOption } from "../shared-options.js";
import { matchProfilesToPool } from "../strict-inputs.js";

/**
 * The task of a failed group, rebuilt from its trajectories (what the policy saw). A trajectory file
 * holds no task metadata, so the router sees no category here.
 */
export function taskOfGroup(group: readonly Trajectory[]): ObservedTask {
  const first = group[0] as Trajectory;
  return {
    id: first.taskId,
    benchmark: first.benchmark,
    split: first.split,
    instruction: instructionOf(observeTrajectory(first)),
    metadata: {},
  };
}

/** The pool's benchmark, or none (generic conventions, said on stderr) when it is not installed. */
async function benchmarkOf(
  args: CommandArguments,
  poolFile: string,
  poolBenchmark: string,
  io: CommandIo,
): Promise<BenchmarkV1 | undefined> {
  if (args.benchmark !== undefined) return openBenchmark(args);
  try {
    return await openBenchmark(args, await poolBenchmarkSelection(poolFile, poolBenchmark));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(
      `hs route: the pool's benchmark "${poolBenchmark}" is not installed (${error.message}); generic failure conventions apply (give --bench)\n`,
    );
    return undefined;
  }
}

/** `hs route`: explains the router's decision for each all-failed group of a trajectory file. */
export const routeCommand: Command = {
  name: "route",
  summary: "explain a router decision for failed groups: each judge's ranking, the aggregate, the top-k",
  about: `Usage: hs route --pool pool.json --profiles profiles.json --trajectories failed.jsonl [options]

Groups the trajectories by task; for every group in which all attempts failed, routes it and prints
each judge's ranking with reasons, dropped judges, the aggregate ranking and the selected top-k.`,
  options: {
    pool: sharedOption("pool", { description: "the pool (required)" }),
    profiles: sharedOption("profiles", {
      description: "the profiles (omit to route without profiles)",
    }),
    trajectories: {
      type: "string",
      value: "FILE",
      description: "trajectory JSONL (required)",
    },
    bench: sharedOption("bench", {
      description: "benchmark whose failure conventions apply (default: the pool's, when installed)",
    }),
    router: sharedOption("router", {
      value: "NAME",
      description:
        "vote (default), profile, combined (profile router + vote), or a router package or path (RouterPluginV1)",
    }),
    aggregation: {
      type: "string",
      value: "NAME",
      description: "borda, majority or weights",
      default: "borda",
    },
    weight: {
      type: "string",
      value: "JUDGE=W",
      description: "judge weight for --aggregation weights",
      multiple: true,
    },
    k: sharedOption("k", { description: "siblings to select" }),
    seed: sharedOption("seed", { description: "seed for ties" }),
    "judge-model": {
      type: "string",
      value: "NAME",
      description: "add an LLM judge of this model",
      multiple: true,
    },
    "judge-base-url": {
      type: "string",
      value: "URL",
      description: "OpenAI-compatible endpoint of the LLM judges (default HS_OPENAI_BASE_URL)",
      needs: "judge-model",
    },
    "judge-timeout": {
      type: "string",
      value: "MS",
      description: "time limit of one LLM vote",
      default: 60_000,
      number: { kind: "integer", min: 1 },
    },
    "judge-retries": {
      type: "string",
      value: "N",
      description: "retries of a failed LLM judge call; each failure is reported",
      default: 1,
      number: { kind: "integer", min: 0, max: 20 },
      needs: "judge-model",
    },
    "allow-profile-mismatch": sharedOption("allow-profile-mismatch", {
      description: "ignore (with a warning) profiles of harnesses the pool lacks",
    }),
    json: sharedOption("json", { description: "print the decisions as JSON lines" }),
  },
  async run(args, io) {
    const poolFile = stringOption(args, "pool");
    const trajectoriesFile = stringOption(args, "trajectories");
    if (poolFile === undefined) throw new UsageError("--pool pool.json is required");
    if (trajectoriesFile === undefined) throw new UsageError("--trajectories failed.jsonl is required");
    const pool = await readPool(poolFile);
    const profiles = await profilesOf(args, pool, io);
    const { records, problems } = await readTrajectories(trajectoriesFile);
    if (problems.length > 0) throw problems[0];
    const vote = voteOptionsOf(args);
    const benchmark = await benchmarkOf(args, poolFile, pool.benchmark, io);
    const conventions = routerContext(benchmark).conventions;
    const calls = createOutboundCalls(io.stderr);
    const router = await chosenRouter(args, benchmark, vote, calls);
    const k = integerOption(args, "k");
    const seed = integerOption(args, "seed");
    let routed = 0;
    for (const [taskId, group] of groupsByTask(records)) {
      if (group.some((trajectory) => trajectory.success)) continue;
      routed += 1;
      const failedGroup = group.map((trajectory) => observeTrajectory(trajectory));
      const decision = await router.route({ task: taskOfGroup(group), failedGroup, pool, profiles, k, seed });
      assertRouterDecisionInPool(router.id, decision, pool);
      if (args.values.json === true)
        io.stdout(`${JSON.stringify({ taskId, router: router.id, ...decision })}\n`);
      else {
        const mix = describeMix(modeMix(failedGroup, conventions));
        const heading = `== ${taskId} (${group.length} failed; ${mix}) router ${router.id}`;
        io.stdout(`${explainDecision(decision, heading)}\n\n`);
      }
    }
    if (routed === 0) io.stderr(`hs route: no all-failed group in ${trajectoriesFile}\n`);
    const failures = calls.summary("route");
    if (failures !== null) io.stderr(`${failures}\n`);
    return 0;
  },
};

async function profilesOf(args: CommandArguments, pool: Pool, io: CommandIo): Promise<ProfileSet | null> {
  const profilesFile = stringOption(args, "profiles");
  if (profilesFile === undefined) return null;
  return matchProfilesToPool(
    await readProfileSet(profilesFile),
    pool,
    { file: profilesFile, allowMismatch: args.values["allow-profile-mismatch"] === true },
    (message) => io.stderr(`${message}\n`),
  );
}

/** How the judges' rankings are combined: `--aggregation` and the `--weight JUDGE=NUMBER` entries. */
interface VoteOptions {
  aggregation: Aggregation;
  weights: Record<string, number>;
}

function voteOptionsOf(args: CommandArguments): VoteOptions {
  const aggregation = stringOption(args, "aggregation") ?? "borda";
  if (!["borda", "majority", "weights"].includes(aggregation))
    throw new UsageError(`--aggregation ${aggregation}: expected borda, majority or weights`);
  const weights: Record<string, number> = {};
  for (const entry of (args.values.weight as string[] | undefined) ?? []) {
    const [judge, value] = entry.split("=");
    if (judge === undefined || value === undefined || !Number.isFinite(Number(value)))
      throw new UsageError(`--weight ${entry}: expected JUDGE=NUMBER`);
    weights[judge] = Number(value);
  }
  return { aggregation: aggregation as Aggregation, weights };
}

/** The profile judges and an LLM judge per `--judge-model`, voting as `--aggregation` says. */
function votingRouterOf(
  args: CommandArguments,
  conventions: FailureConventions,
  vote: VoteOptions,
  calls: OutboundCalls,
): RouterV1 {
  const judges: JudgeV1[] = defaultProfileJudges({ conventions });
  const baseURL = stringOption(args, "judge-base-url");
  const timeoutMs = integerOption(args, "judge-timeout");
  const limits = { timeoutMs, retries: integerOption(args, "judge-retries") };
  for (const model of (args.values["judge-model"] as string[] | undefined) ?? []) {
    judges.push(
      createLlmJudge({
        model: calls.chatModel(`llm judge ${model}`, { model, baseURL }, limits),
        timeoutMs: timeoutMs * (limits.retries + 1) + 5000,
      }),
    );
  }
  return createVotingRouter({
    judges,
    aggregation: vote.aggregation,
    weights: vote.weights,
    judgeTimeoutMs: timeoutMs * (limits.retries + 1) + 10_000,
  });
}

/** `--router`: vote (default), profile, combined (profile then vote), or a router plugin. */
async function chosenRouter(
  args: CommandArguments,
  benchmark: BenchmarkV1 | undefined,
  vote: VoteOptions,
  calls: OutboundCalls,
): Promise<RouterV1> {
  const conventions = routerContext(benchmark).conventions;
  const voting = votingRouterOf(args, conventions, vote, calls);
  const routerName = stringOption(args, "router") ?? "vote";
  const routers: Record<string, RouterV1> = {
    vote: voting,
    profile: createProfileRouter({ conventions }),
    combined: createCombinedRouter({
      parts: [{ router: createProfileRouter({ conventions }) }, { router: voting }],
    }),
  };
  return routers[routerName] ?? (await loadRouterPlugin(routerName)).createRouter(routerContext(benchmark));
}

/** The trajectories of each task, in the order the tasks first appear. */
function groupsByTask(records: readonly Trajectory[]): Map<string, Trajectory[]> {
  const groups = new Map<string, Trajectory[]>();
  for (const trajectory of records)
    groups.set(trajectory.taskId, [...(groups.get(trajectory.taskId) ?? []), trajectory]);
  return groups;
}
