import { classifyFailure, createRuleClassifier, modesOf } from "@hs/failure-analysis";
import { runEpisode } from "@hs/harness";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";

// Two failed lookup episodes (Peru's capital): a guess with no lookup, and an unknown key never
// recovered from; the generic rule classifier names each failure.
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const task = tasks[1];
const episode = (replies) =>
  runEpisode({ task, benchmark, harness: lookupTextHarness, policy: createScriptedPolicy(replies), seed: 1 });
const classifiers = [createRuleClassifier()];
const guess = await classifyFailure(await episode(["answer: Paris"]), classifiers);
const guessModes = guess.map((label) => label.mode);
if (guessModes.join() !== "premature-answer") throw new Error(`guess labelled ${guessModes.join()}`);
const missing = await classifyFailure(await episode(["lookup: atlantis", "answer: Lima?"]), classifiers);
const missingModes = missing.map((label) => label.mode);
if (!missingModes.includes("unrecovered-tool-error"))
  throw new Error(`lookup error labelled ${missingModes.join()}`);
const solved = await episode(["lookup: peru", "answer: Lima"]);
if (!solved.success || (await classifyFailure(solved, classifiers)).length !== 0)
  throw new Error("a solved episode was labelled");
if (modesOf({ failureModes: guess }).length !== 1) throw new Error("modesOf lost the label");
console.log(
  `failure-analysis: rules labelled a guess "${guessModes.join()}" and a bad lookup "${missingModes.join(", ")}"; a solved episode none`,
);
