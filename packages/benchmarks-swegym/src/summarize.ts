import type { EpisodeOutcome } from "@hs/spec";

/**
 * SWE-bench's run-report counts (SWE-bench@v4.1.0 swebench/harness/reporting.py `make_run_report`:
 * `total_instances`, `resolved_instances`, `unresolved_instances`) and the resolved share, overall and
 * per repository (`resolved_rate/<owner>/<name>`).
 */
export function summarizeOutcomes(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
  const resolved = outcomes.filter((outcome) => outcome.success).length;
  const metrics: Record<string, number> = {
    total_instances: outcomes.length,
    resolved_instances: resolved,
    unresolved_instances: outcomes.length - resolved,
    resolved_rate: outcomes.length === 0 ? 0 : resolved / outcomes.length,
  };
  const repos = [...new Set(outcomes.map((outcome) => outcome.category))].sort();
  for (const repo of repos) {
    const ofRepo = outcomes.filter((outcome) => outcome.category === repo);
    metrics[`resolved_rate/${repo}`] = ofRepo.filter((outcome) => outcome.success).length / ofRepo.length;
  }
  return metrics;
}
