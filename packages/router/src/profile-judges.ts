import { defaultModeDirections, type FailureMode } from "@hs/failure-analysis";
import type { FailureConventions, FixDirection, JudgeV1 } from "@hs/spec";
import { categorySuccess } from "./category-success.js";
import { sortRanking } from "./decision.js";
import { modeMix } from "./mode-mix.js";
import { expectedRescue } from "./profile-router.js";

/** A judge that ranks by expected rescue from the rescue matrix (the profile router's score). */
export function createRescueMatrixJudge(
  options: { id?: string; conventions?: FailureConventions } = {},
): JudgeV1 {
  const id = options.id ?? "rescue-matrix";
  return {
    specificationVersion: "v1",
    id,
    async vote(input) {
      const ranking = input.pool.siblings.map((sibling) => ({
        harnessId: sibling.id,
        ...expectedRescue(
          input.profiles?.profiles[sibling.id],
          input,
          options.conventions === undefined ? {} : { conventions: options.conventions },
        ),
      }));
      return { judgeId: id, ranking: sortRanking(ranking, input.seed) };
    },
  };
}

/**
 * A judge that ranks by each sibling's success on the task's observable category (overall when the
 * benchmark declares none or it was not profiled).
 */
export function createCategoryJudge(options: { id?: string } = {}): JudgeV1 {
  const id = options.id ?? "category";
  return {
    specificationVersion: "v1",
    id,
    async vote(input) {
      const ranking = input.pool.siblings.map((sibling) => {
        const profile = input.profiles?.profiles[sibling.id];
        if (profile === undefined) return { harnessId: sibling.id, score: 0, reasons: ["no profile"] };
        const category = categorySuccess(profile, input.task);
        const score = category ?? profile.successRate;
        return {
          harnessId: sibling.id,
          score,
          reasons: [
            `${(score * 100).toFixed(0)}% success on ${category === undefined ? "all tasks" : input.task.category}`,
          ],
        };
      });
      return { judgeId: id, ranking: sortRanking(ranking, input.seed) };
    },
  };
}

/**
 * A judge that needs no profiles: the share of the failed group's mode mix that the sibling's direction
 * is meant to repair.
 */
export function createDirectionJudge(
  options: {
    id?: string;
    modeDirections?: Readonly<Record<FailureMode, readonly FixDirection[]>>;
    conventions?: FailureConventions;
  } = {},
): JudgeV1 {
  const id = options.id ?? "direction";
  const map = options.modeDirections ?? defaultModeDirections;
  return {
    specificationVersion: "v1",
    id,
    async vote(input) {
      const mix = modeMix(input.failedGroup, options.conventions);
      const ranking = input.pool.siblings.map((sibling) => {
        const matched = Object.entries(mix).filter(([mode]) => (map[mode] ?? []).includes(sibling.direction));
        const score = matched.reduce((sum, [, weight]) => sum + weight, 0);
        return {
          harnessId: sibling.id,
          score,
          reasons: [
            matched.length === 0
              ? `direction ${sibling.direction} repairs none of the group's modes`
              : `direction ${sibling.direction} repairs ${matched.map(([mode]) => mode).join(", ")}`,
          ],
        };
      });
      return { judgeId: id, ranking: sortRanking(ranking, input.seed) };
    },
  };
}

/** The default deterministic judges built on profiles: rescue matrix, category success, direction. */
export function defaultProfileJudges(options: { conventions?: FailureConventions } = {}): JudgeV1[] {
  return [createRescueMatrixJudge(options), createCategoryJudge(), createDirectionJudge(options)];
}
