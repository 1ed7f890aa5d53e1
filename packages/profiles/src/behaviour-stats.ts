import { callsOf, submitCallOf } from "@hs/failure-analysis";
import { genericConventions } from "@hs/harness";
import type { FailureConventions, ObservedTrajectory } from "@hs/spec";

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Behaviour statistics of a harness's episodes. Keys: `meanSteps`, `submitRate`, `toolErrorRate` (tool
 * errors per environment call), `recoveryRate` (tool errors followed later by a successful call),
 * `answerFormatViolations` (episodes with an unparsable action or a wrong-format label, per episode),
 * `truncationsPerEpisode`, `contextDropsPerEpisode`, `repromptsPerEpisode`, `verificationsPerEpisode`,
 * `budgetHitRate`, and `tool:NAME` (share of environment calls made to each tool: the tool mix).
 */
export function behaviourStatistics(
  trajectories: readonly ObservedTrajectory[],
  conventions: FailureConventions = genericConventions,
): Record<string, number> {
  if (trajectories.length === 0) return {};
  const count = (trajectory: ObservedTrajectory, type: string) =>
    trajectory.events.filter((event) => event.type === type).length;
  let calls = 0;
  let errors = 0;
  let recovered = 0;
  const tools: Record<string, number> = {};
  for (const trajectory of trajectories) {
    const facts = callsOf(trajectory);
    const submit = submitCallOf(trajectory, conventions, facts);
    calls += facts.length;
    for (const fact of facts) tools[fact.call.name] = (tools[fact.call.name] ?? 0) + 1;
    for (const event of trajectory.events.filter((entry) => entry.type === "tool-error")) {
      errors += 1;
      if (facts.some((fact) => fact !== submit && !fact.isError && fact.step > event.step)) recovered += 1;
    }
  }
  const statistics: Record<string, number> = {
    meanSteps: mean(trajectories.map((trajectory) => trajectory.steps.length)),
    submitRate: mean(trajectories.map((trajectory) => (trajectory.endReason === "submitted" ? 1 : 0))),
    toolErrorRate: calls === 0 ? 0 : errors / calls,
    recoveryRate: errors === 0 ? 1 : recovered / errors,
    answerFormatViolations: mean(
      trajectories.map((trajectory) =>
        count(trajectory, "malformed-action") > 0 ||
        trajectory.failureModes.some((label) => label.mode === "wrong-answer-format")
          ? 1
          : 0,
      ),
    ),
    truncationsPerEpisode: mean(trajectories.map((trajectory) => count(trajectory, "truncated"))),
    contextDropsPerEpisode: mean(trajectories.map((trajectory) => count(trajectory, "context-dropped"))),
    repromptsPerEpisode: mean(trajectories.map((trajectory) => count(trajectory, "reprompted"))),
    verificationsPerEpisode: mean(trajectories.map((trajectory) => count(trajectory, "verification"))),
    budgetHitRate: mean(trajectories.map((trajectory) => (count(trajectory, "budget-hit") > 0 ? 1 : 0))),
  };
  for (const [name, used] of Object.entries(tools)) statistics[`tool:${name}`] = used / calls;
  return statistics;
}
