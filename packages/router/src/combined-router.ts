import type { JudgeVote, RankedHarness, RouterV1 } from "@hs/spec";
import { decide, normalizeScores } from "./decision.js";

/** Options of the combined router. */
export interface CombinedRouterOptions {
  /** Routers and their weights. */
  parts: readonly { router: RouterV1; weight?: number }[];
  /** Router id (default `combined`). */
  id?: string;
}

/**
 * Combines routers (e.g. the profile router and a voting router): each router's scores are min-max
 * normalised, weighted and summed; votes and dropped judges of the parts are kept for the explanation.
 */
export function createCombinedRouter(options: CombinedRouterOptions): RouterV1 {
  return {
    specificationVersion: "v1",
    id: options.id ?? "combined",
    async route(input) {
      const decisions = await Promise.all(
        options.parts.map((part) => part.router.route({ ...input, k: input.pool.siblings.length })),
      );
      const ranking: RankedHarness[] = input.pool.siblings.map((sibling) => {
        let score = 0;
        const reasons: string[] = [];
        decisions.forEach((decision, index) => {
          const part = options.parts[index];
          if (part === undefined) return;
          const weight = part.weight ?? 1;
          const normalized = normalizeScores(decision.ranking).get(sibling.id) ?? 0;
          score += weight * normalized;
          reasons.push(`${part.router.id}: ${weight}x${normalized.toFixed(2)}`);
        });
        return { harnessId: sibling.id, score, reasons };
      });
      const votes: JudgeVote[] = decisions.flatMap((decision) => decision.votes ?? []);
      const dropped = decisions.flatMap((decision) => decision.dropped ?? []);
      return decide(ranking, input.k, input.seed, { votes, dropped });
    },
  };
}
