// The decisions the kept SWE-Gym siblings induce, as the embedded policy can make them itself under the
// base harness (packages/grammar-swegym/README.md), read from the policy's own bash commands and the
// output each gave it only. Harness-made calls (preludes, follow-ups, checks) are not the policy's, and
// no grade, test patch or gold patch is read.
// - ranked-trace (the context sibling's ranked-trace prelude): the policy ran the ranked trace itself;
// - trace-before-probe (the same prelude): a trace of the statement's calls, plain or ranked, came
//   before the first probe;
// - ranked-after-fruitless (the error-recovery sibling's follow-up): after a probe whose rewrites gave
//   no call a value, a later command is the ranked trace;
// - ranked-before-submit (the verification sibling's check): between the last edit and the submission,
//   the ranked trace.
// Each detector answers null when the episode gives the decision no occasion (the denominator).
import {
  fruitlessProbePattern,
  rankedLinesHeader,
  submissionMarker,
} from "../../packages/benchmarks-swegym/dist/index.js";

const fruitless = new RegExp(fruitlessProbePattern, "m");
const probeOutput = /^probed \S+:\d+ with /m;

/** The policy's own bash commands, each with the output it gave. */
function policyCommands(trajectory) {
  return trajectory.steps.flatMap((step) =>
    (step.parsed ?? [])
      .filter((call) => call.name === "bash" && typeof call.arguments?.command === "string")
      .map((call) => ({
        command: call.arguments.command,
        output: step.executed?.find((entry) => entry.call?.id === call.id)?.result?.content ?? "",
      })),
  );
}

const isTrace = ({ command }) => command.includes("<<'HS_TRACE'");
const isRanked = ({ command }) => isTrace({ command }) && command.includes(rankedLinesHeader);
const isProbe = ({ output }) => probeOutput.test(output);
const isEdit = ({ command }) => command.includes("<<'HS_EDIT'");
const isSubmit = ({ command }) => command.includes(submissionMarker);

const detectors = {
  "ranked-trace": (commands) => (commands.length === 0 ? null : commands.some(isRanked)),
  "trace-before-probe": (commands) => {
    const probe = commands.findIndex(isProbe);
    if (probe < 0) return null;
    return commands.slice(0, probe).some(isTrace);
  },
  "ranked-after-fruitless": (commands) => {
    const miss = commands.findIndex(({ output }) => fruitless.test(output));
    if (miss < 0) return null;
    return commands.slice(miss + 1).some(isRanked);
  },
  "ranked-before-submit": (commands) => {
    const submit = commands.findLastIndex(isSubmit);
    const edit = commands.slice(0, Math.max(0, submit)).findLastIndex(isEdit);
    if (submit < 0 || edit < 0) return null;
    return commands.slice(edit + 1, submit).some(isRanked);
  },
};

/** Each behaviour's verdict on one trajectory: null (no occasion), true or false. */
function verdicts(trajectory) {
  const commands = policyCommands(trajectory);
  return Object.fromEntries(Object.entries(detectors).map(([name, detect]) => [name, detect(commands)]));
}

/** The behaviours a sibling's harness induces, read from its config (its prelude and follow-ups). */
function behavioursOf(sibling) {
  const found = [];
  const ranked = (calls) => JSON.stringify(calls ?? []).includes(rankedLinesHeader);
  if (ranked(sibling.config.context?.prelude?.calls)) found.push("ranked-trace", "trace-before-probe");
  const followUps = sibling.config.errorRecovery?.followUps ?? [];
  if (
    followUps.some((followUp) => followUp.resultPattern === fruitlessProbePattern && ranked(followUp.calls))
  )
    found.push("ranked-after-fruitless");
  if (sibling.config.verification?.enabled === true && ranked(sibling.config.verification.calls?.calls))
    found.push("ranked-before-submit");
  return found;
}

/** SWE-Gym's behaviour set for bench/behaviour-frequency.mjs (held-out split: heldout). */
export const swegymBehaviours = { split: "heldout", names: Object.keys(detectors), verdicts, behavioursOf };
