import type { FailureConventions, HarnessProfile, RankedHarness, RouterV1, RoutingInput } from "@hs/spec";
import { categoryName, categorySuccess } from "./category-success.js";
import { decide } from "./decision.js";
import { describeMix, modeMix } from "./mode-mix.js";

/** Options of the profile router. */
export interface ProfileRouterOptions {
  /** Router id (default `profile`). */
  id?: string;
  /** Pseudo-count of the smoothing toward the sibling's pooled rescue rate (default 1). */
  smoothing?: number;
  /** Benchmark conventions for labelling unlabelled failures. */
  conventions?: FailureConventions;
}

function pooledRate(profile: HarnessProfile): number {
  const cells = Object.values(profile.rescueByMode);
  const attempts = cells.reduce((sum, cell) => sum + cell.attempts, 0);
  return attempts === 0 ? 0 : cells.reduce((sum, cell) => sum + cell.rescued, 0) / attempts;
}

/**
 * Expected rescue of one sibling for a failed group: sum over the group's failure-mode mix of the
 * sibling's smoothed P(rescue | mode). For an empty group (Rank-1), its success on the task's observable category.
 */
export function expectedRescue(
  profile: HarnessProfile | undefined,
  input: Pick<RoutingInput, "failedGroup" | "task">,
  options: ProfileRouterOptions = {},
): { score: number; reasons: string[] } {
  if (profile === undefined) return { score: 0, reasons: ["no profile for this harness"] };
  if (input.failedGroup.length === 0) {
    const category = categorySuccess(profile, input.task);
    const score = category ?? profile.successRate;
    return {
      score,
      reasons: [
        category === undefined
          ? `success ${(score * 100).toFixed(0)}% overall (category ${categoryName(input.task)} not profiled)`
          : `success ${(score * 100).toFixed(0)}% on ${input.task.category}`,
      ],
    };
  }
  const mix = modeMix(input.failedGroup, options.conventions);
  const alpha = options.smoothing ?? 1;
  const prior = pooledRate(profile);
  let score = 0;
  const parts: string[] = [];
  for (const [mode, weight] of Object.entries(mix)) {
    const cell = profile.rescueByMode[mode] ?? { attempts: 0, rescued: 0 };
    const rate = (cell.rescued + alpha * prior) / (cell.attempts + alpha);
    score += weight * rate;
    parts.push(`${mode}: ${cell.rescued}/${cell.attempts} rescued (smoothed ${(rate * 100).toFixed(0)}%)`);
  }
  return {
    score,
    reasons: [`expected rescue ${(score * 100).toFixed(1)}% for mix ${describeMix(mix)}`, ...parts],
  };
}

/** The profile router: ranks siblings by expected rescue from the failed group's failure-mode mix and the rescue matrix. */
export function createProfileRouter(options: ProfileRouterOptions = {}): RouterV1 {
  return {
    specificationVersion: "v1",
    id: options.id ?? "profile",
    async route(input) {
      const ranking: RankedHarness[] = input.pool.siblings.map((sibling) => {
        const { score, reasons } = expectedRescue(input.profiles?.profiles[sibling.id], input, options);
        return { harnessId: sibling.id, score, reasons };
      });
      return decide(ranking, input.k, input.seed);
    },
  };
}
