import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runEpisode } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";

// The embedded tfjs policy plays lookup episodes greedily; a saved and reloaded copy acts the same.
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const grammar = createLookupGrammar();
const policy = await createEmbeddedPolicy({ grammar, seed: 1 });
const directory = await mkdtemp(join(tmpdir(), "hs-smoke-policy-"));
try {
  const play = (target) =>
    runEpisode({
      task: tasks[0],
      benchmark,
      harness: lookupTextHarness,
      policy: target,
      seed: 0,
      mode: "greedy",
    });
  const first = await play(policy);
  if (first.steps.length === 0) throw new Error("the policy took no step");
  const action = first.steps[0].action;
  if (action.content.length === 0 || typeof action.logprob !== "number")
    throw new Error(`first action ${JSON.stringify(action)}`);
  await policy.save(directory);
  const reloaded = await createEmbeddedPolicy({ grammar, seed: 99 });
  await reloaded.load(directory);
  const second = await play(reloaded);
  const contents = (trajectory) => trajectory.steps.map((step) => step.action.content).join(" | ");
  if (contents(first) !== contents(second)) throw new Error(`reloaded policy acted ${contents(second)}`);
  reloaded.dispose();
  console.log(
    `policy-embedded: greedy lookup episode in ${first.steps.length} steps (${first.success ? "solved" : "not solved"}), first action ${JSON.stringify(action.content)}; reload acts the same`,
  );
} finally {
  policy.dispose();
  await rm(directory, { recursive: true, force: true });
}
