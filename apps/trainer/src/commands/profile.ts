import { readPool } from "@hs/evolution";
import { createRuleClassifier } from "@hs/failure-analysis";
import { appendTrajectories, genericConventions } from "@hs/harness";
import { defaultProfileRollouts, profilePool, writeProfileSet } from "@hs/profiles";
import { replaceAtomically } from "../atomic-file.js";
import { loadTaskSet, openBenchmark, trainSplitOf } from "../benchmark-selection.js";
import { type Command, integerOption, stringOption, UsageError } from "../command.js";
import { poolBenchmarkSelection } from "../pool-benchmark.js";
import { queueExecutorOf, redisOptions } from "../queue-option.js";
import { checkOutputFile } from "../run-directory.js";
import { sharedOption } from "../shared-options.js";
import { policyDirectoryOf, resolvePolicy } from "./eval.js";

/** `hs profile`: behaviour profiles of every harness of a pool for a policy version. */
export const profileCommand: Command = {
  name: "profile",
  summary: "profile every harness of a pool for a policy (success, rescue row, behaviour)",
  about: `Usage: hs profile --pool pool.json --policy SPEC --out profiles.json [options]

Runs the base harness and every sibling of the pool on the same tasks and seeds, labels the base
failures, and writes each harness's profile: success overall and per category, the rescue-matrix row
(its results on the base failures, per failure mode) and behaviour statistics. The failed base
episodes are written beside it (OUT with .failed.jsonl) for "hs route".`,
  options: {
    pool: sharedOption("pool", { description: "the pool (required)" }),
    bench: sharedOption("bench", {
      description:
        "benchmark: an alias, a package or a path (default: the pool's, as hs evolve loaded it: its evolution report beside the pool records the plugin and its options)",
    }),
    policy: sharedOption("policy", {
      description: "embedded (untrained weights of --seed) or embedded:DIR (required)",
    }),
    out: sharedOption("out", { description: "profiles JSON to write (required)" }),
    split: sharedOption("split"),
    data: sharedOption("data"),
    tasks: sharedOption("tasks"),
    rollouts: sharedOption("rollouts", {
      description: "rollouts per task and harness",
      default: defaultProfileRollouts,
    }),
    seed: sharedOption("seed"),
    step: {
      type: "string",
      value: "N",
      description: "training step the profiles describe",
      default: 0,
      number: { kind: "integer", min: 0 },
    },
    concurrency: sharedOption("concurrency"),
    ...redisOptions,
  },
  async run(args, io) {
    const poolFile = stringOption(args, "pool");
    const spec = stringOption(args, "policy");
    const out = stringOption(args, "out");
    if (poolFile === undefined) throw new UsageError("--pool pool.json is required");
    if (spec === undefined) throw new UsageError("--policy SPEC is required");
    if (out === undefined) throw new UsageError("--out profiles.json is required");
    // every output is checked (and its directory created) before the long run, so none can lose it
    const inputs = [
      { option: "--pool", path: poolFile },
      { option: "--data", path: stringOption(args, "data") },
      { option: "--policy", path: policyDirectoryOf(spec) },
    ];
    await checkOutputFile("--out", out, inputs, { createParent: true });
    await checkOutputFile("--out (failed episodes)", `${out.replace(/\.json$/, "")}.failed.jsonl`, inputs);
    const pool = await readPool(poolFile);
    const seed = integerOption(args, "seed");
    const recorded =
      args.benchmark === undefined ? await poolBenchmarkSelection(poolFile, pool.benchmark) : undefined;
    const benchmark = await openBenchmark(args, recorded);
    const split = stringOption(args, "split") ?? trainSplitOf(benchmark);
    let tasks = await loadTaskSet(benchmark, stringOption(args, "data"), split, (message) =>
      io.stderr(`${message}\n`),
    );
    const limit = integerOption(args, "tasks", 0);
    if (limit > 0) tasks = tasks.slice(0, limit);
    const policy = await resolvePolicy(benchmark, spec, seed);
    const conventions = benchmark.failureConventions ?? genericConventions;
    const executor = queueExecutorOf(args, io, {
      phase: "profile",
      run: out,
      ...(recorded === undefined ? {} : { selection: recorded }),
      tasks: { data: stringOption(args, "data"), split },
    });
    const { profiles, baseTrajectories } = await profilePool({
      benchmark,
      policy,
      pool,
      tasks,
      seed,
      concurrency: integerOption(args, "concurrency"),
      ...(executor === undefined ? {} : { executor }),
      rolloutsPerTask: integerOption(args, "rollouts"),
      step: integerOption(args, "step"),
      classifiers: [createRuleClassifier(conventions)],
      conventions,
      onProgress: (message) => io.stderr(`profile: ${message}\n`),
    });
    await executor?.close();
    policy.dispose();
    await replaceAtomically(out, (draft) => writeProfileSet(draft, profiles));
    const failedFile = `${out.replace(/\.json$/, "")}.failed.jsonl`;
    const failed = baseTrajectories.filter((trajectory) => !trajectory.success);
    await replaceAtomically(failedFile, (draft) => appendTrajectories(draft, failed));
    for (const profile of Object.values(profiles.profiles)) {
      const cells = Object.entries(profile.rescueByMode).map(
        ([mode, cell]) => `${mode} ${cell.rescued}/${cell.attempts}`,
      );
      io.stdout(
        `${profile.harnessId}: success ${(profile.successRate * 100).toFixed(1)}% of ${profile.episodes}${cells.length === 0 ? "" : `; rescues ${cells.join(", ")}`}\n`,
      );
    }
    io.stdout(
      `profiles: ${out} (policy ${Object.values(profiles.profiles)[0]?.policyVersion ?? "-"})\nfailed base episodes: ${failedFile}\n`,
    );
    return 0;
  },
};
