import type { RouterDecision } from "@hs/harness";

/** A decision as readable text: each judge's ranking, dropped judges, the aggregate and the top-k. */
export function explainDecision(decision: RouterDecision, header = ""): string {
  const lines: string[] = header === "" ? [] : [header];
  for (const vote of decision.votes ?? []) {
    lines.push(`judge ${vote.judgeId}:`);
    vote.ranking.forEach((entry, index) =>
      lines.push(
        `  ${index + 1}. ${entry.harnessId} (${entry.score.toFixed(3)}) ${entry.reasons.join("; ")}`,
      ),
    );
  }
  for (const entry of decision.dropped ?? []) lines.push(`judge ${entry.judgeId}: dropped (${entry.reason})`);
  lines.push("aggregate:");
  decision.ranking.forEach((entry, index) =>
    lines.push(`  ${index + 1}. ${entry.harnessId} (${entry.score.toFixed(3)}) ${entry.reasons.join("; ")}`),
  );
  lines.push(`selected: ${decision.selected.join(", ") || "(none)"}`);
  return lines.join("\n");
}
