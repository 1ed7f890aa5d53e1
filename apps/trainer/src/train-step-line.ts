import type { StepMetrics } from "@hs/rescue-grpo";
import { formatStatistic } from "./format-statistic.js";

/** The progress line `hs train` prints after each step. */
export function trainStepLine(metrics: StepMetrics, rolloutBudget: number): string {
  const rescue = metrics.rescue.attempts
    ? ` rescued ${metrics.rescue.successes ?? 0}/${metrics.rescue.attempts} (${metrics.rolloutsRescue} rollouts)`
    : "";
  const gated = metrics.rescue.gated
    ? ` held back ${metrics.rescue.gated} rescue(s): a fresh prompt pays more`
    : "";
  return `step ${metrics.step}: rollouts ${metrics.rolloutsTotal}/${rolloutBudget} reward ${metrics.reward.toFixed(3)} signal ${metrics.signalShare.toFixed(2)}${rescue}${gated} loss ${formatStatistic(metrics.learner.loss)} grad norm ${formatStatistic(metrics.learner.gradNorm)} (${metrics.wallMs} ms)`;
}
