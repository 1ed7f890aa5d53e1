import type { RankedHarness, RouterDecision } from "@hs/spec";

function rankingLines(ranking: readonly RankedHarness[]): string[] {
  return ranking.map(
    (entry, index) =>
      `  ${index + 1}. ${entry.harnessId} (${entry.score.toFixed(3)}) ${entry.reasons.join("; ")}`,
  );
}

/** A decision as readable text: each judge's ranking, dropped judges, the aggregate and the top-k. */
export function explainDecision(decision: RouterDecision, header = ""): string {
  const lines: string[] = header === "" ? [] : [header];
  for (const vote of decision.votes ?? [])
    lines.push(`judge ${vote.judgeId}:`, ...rankingLines(vote.ranking));
  for (const entry of decision.dropped ?? []) lines.push(`judge ${entry.judgeId}: dropped (${entry.reason})`);
  lines.push(
    "aggregate:",
    ...rankingLines(decision.ranking),
    `selected: ${decision.selected.join(", ") || "(none)"}`,
  );
  return lines.join("\n");
}
