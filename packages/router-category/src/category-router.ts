import { textSeed } from "@hs/harness";
import type { RankedHarness, RouterV1 } from "@hs/spec";

/** Options of the category router. */
export interface CategoryRouterOptions {
  /** Router id (default `category`). */
  id?: string;
}

function tieKey(seed: number, harnessId: string): number {
  return textSeed(`${seed}/${harnessId}`);
}

/**
 * An example router: ranks siblings by their profiled success on the task's observable category
 * (`RoutingInput.task.category`; overall success when the benchmark declares none or it was not profiled, 0 without a profile), ties in a seeded order.
 */
export function createCategoryRouter(options: CategoryRouterOptions = {}): RouterV1 {
  return {
    specificationVersion: "v1",
    id: options.id ?? "category",
    async route(input) {
      const ranking: RankedHarness[] = input.pool.siblings.map((sibling) => {
        const profile = input.profiles?.profiles[sibling.id];
        if (profile === undefined) return { harnessId: sibling.id, score: 0, reasons: ["no profile"] };
        const category =
          input.task.category === undefined ? undefined : profile.perCategory[input.task.category];
        const score = category ?? profile.successRate;
        const where = category === undefined ? "overall" : `on ${input.task.category}`;
        return { harnessId: sibling.id, score, reasons: [`${(score * 100).toFixed(0)}% success ${where}`] };
      });
      ranking.sort(
        (a, b) => b.score - a.score || tieKey(input.seed, a.harnessId) - tieKey(input.seed, b.harnessId),
      );
      return { ranking, selected: ranking.slice(0, Math.max(0, input.k)).map((entry) => entry.harnessId) };
    },
  };
}
