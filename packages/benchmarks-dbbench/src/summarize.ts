import type { EpisodeOutcome } from "@hs/spec";

/** AgentBench's DBBench query types, in the order its metrics list them. */
export const queryTypes = [
  "other",
  "counting",
  "comparison",
  "ranking",
  "aggregation-SUM",
  "aggregation-MIN",
  "aggregation-MAX",
  "aggregation-AVG",
] as const;

/**
 * AgentBench's DBBench metrics under its names: `<type>_accuracy` for each query type, `SELECT`
 * (every type but INSERT and UPDATE), `INSERT` and `UPDATE`, and `overall_cat_accuracy`, the mean of
 * the SELECT, INSERT and UPDATE accuracies. A type without episodes scores 0, as AgentBench's does.
 * Follows THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py (`metrics`).
 */
export function summarizeOutcomes(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
  const accuracy = (belongs: (category: string) => boolean) => {
    const selected = outcomes.filter((outcome) => belongs(outcome.category));
    return selected.length === 0 ? 0 : selected.filter((outcome) => outcome.success).length / selected.length;
  };
  const metrics: Record<string, number> = {};
  for (const type of queryTypes) metrics[`${type}_accuracy`] = accuracy((category) => category === type);
  metrics.SELECT_accuracy = accuracy((category) => category !== "INSERT" && category !== "UPDATE");
  metrics.INSERT_accuracy = accuracy((category) => category === "INSERT");
  metrics.UPDATE_accuracy = accuracy((category) => category === "UPDATE");
  metrics.overall_cat_accuracy =
    ((metrics.SELECT_accuracy ?? 0) + (metrics.INSERT_accuracy ?? 0) + (metrics.UPDATE_accuracy ?? 0)) / 3;
  return metrics;
}
