import { z } from "zod";
import type { Pool } from "./pool.js";
import type { ProfileSet } from "./profile.js";
import type { ObservedTask } from "./task.js";
import type { ObservedTrajectory } from "./trajectory.js";

/** One ranked harness with the reasons for its score. */
export const rankedHarnessSchema = z.object({
  /** Harness id (a pool member). */
  harnessId: z.string(),
  /** Score; higher is better. */
  score: z.number(),
  /** Why it got this score. */
  reasons: z.array(z.string()),
});
/** One ranked harness. */
export type RankedHarness = z.infer<typeof rankedHarnessSchema>;

/** What a router or judge is asked about. */
export interface RoutingInput {
  /**
   * The task as the policy sees it: no dataset `category` annotation; `category` is the benchmark's
   * observable category (`BenchmarkV1.observableCategory`) when it declares one.
   */
  task: ObservedTask;
  /**
   * The failed base-harness group (empty for Rank-1 inference, before any failure), without grading
   * details or dataset category (`observeTrajectory` of `@hs/harness`).
   */
  failedGroup: readonly ObservedTrajectory[];
  /** The frozen pool. */
  pool: Pool;
  /** Current profiles, or null when none exist yet. */
  profiles: ProfileSet | null;
  /** How many siblings to select. */
  k: number;
  /** Seed for any randomness (ties, sampling). */
  seed: number;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** One judge's vote. */
export const judgeVoteSchema = z.object({
  /** Judge id. */
  judgeId: z.string(),
  /** Its ranking, best first. */
  ranking: z.array(rankedHarnessSchema),
});
/** One judge's vote. */
export type JudgeVote = z.infer<typeof judgeVoteSchema>;

/** A router's decision, with everything needed to explain it. */
export const routerDecisionSchema = z.object({
  /** Full ranking, best first. */
  ranking: z.array(rankedHarnessSchema),
  /** The selected top-k harness ids. */
  selected: z.array(z.string()),
  /** Each judge's vote, for voting routers. */
  votes: z.array(judgeVoteSchema).optional(),
  /** Judges dropped from the vote, with the reason (timeout, unparsable answer). */
  dropped: z
    .array(
      z.object({
        /** The judge left out. */
        judgeId: z.string(),
        /** Why (timeout, unparsable answer). */
        reason: z.string(),
      }),
    )
    .optional(),
});
/** A router's decision. */
export type RouterDecision = z.infer<typeof routerDecisionSchema>;

/** A router (version 1). */
export interface RouterV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Router id. */
  readonly id: string;
  /** Ranks the pool's siblings for the input and selects the top k. */
  route(input: RoutingInput): Promise<RouterDecision>;
}

/** A judge (version 1): one voter of a voting router. */
export interface JudgeV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Judge id. */
  readonly id: string;
  /** Ranks the pool's siblings for the input. */
  vote(input: RoutingInput): Promise<JudgeVote>;
}
