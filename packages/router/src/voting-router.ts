import {
  InvalidInputError,
  type JudgeV1,
  type JudgeVote,
  judgeVoteSchema,
  type RankedHarness,
  type RouterV1,
  type RoutingInput,
} from "@hs/spec";
import { decide, normalizeScores } from "./decision.js";

/** How votes are combined. */
export type Aggregation = "majority" | "borda" | "weights";

/** Options of the judge-voting router. */
export interface VotingRouterOptions {
  /** The judges. */
  judges: readonly JudgeV1[];
  /** Aggregation (default `borda`). */
  aggregation?: Aggregation;
  /** Judge id -> weight for `weights` (default 1 each). */
  weights?: Readonly<Record<string, number>>;
  /** Longest wait for one judge in milliseconds before it is dropped (default 120000). */
  judgeTimeoutMs?: number;
  /** Router id (default `vote-<aggregation>`). */
  id?: string;
}

/** Positions (0 = best) of each pool member in a vote; unranked members share the last position. */
function positions(vote: JudgeVote, members: readonly string[]): Map<string, number> {
  const result = new Map<string, number>();
  vote.ranking.forEach((entry, index) => {
    if (!result.has(entry.harnessId)) result.set(entry.harnessId, index);
  });
  for (const member of members) if (!result.has(member)) result.set(member, vote.ranking.length);
  return result;
}

/**
 * Combines votes. `borda`: n-1-position points summed. `majority`: one vote per judge for its top
 * choice, Borda points breaking ties. `weights`: the weighted sum of each judge's min-max normalised scores.
 */
export function aggregateVotes(
  votes: readonly JudgeVote[],
  members: readonly string[],
  aggregation: Aggregation,
  weights: Readonly<Record<string, number>> = {},
): RankedHarness[] {
  const n = members.length;
  const places = votes.map((vote) => ({ vote, place: positions(vote, members) }));
  return members.map((member) => {
    const borda = places.reduce((sum, { place }) => sum + (n - 1 - (place.get(member) ?? n - 1)), 0);
    const seats = places
      .map(({ vote, place }) => `${vote.judgeId} #${(place.get(member) ?? n - 1) + 1}`)
      .join(", ");
    if (aggregation === "borda")
      return { harnessId: member, score: borda, reasons: [`Borda ${borda} (${seats})`] };
    if (aggregation === "majority") {
      const firsts = places.filter(({ vote }) => vote.ranking[0]?.harnessId === member).length;
      return {
        harnessId: member,
        score: firsts + borda / (n * Math.max(1, votes.length) + 1),
        reasons: [`top choice of ${firsts} of ${votes.length} judges; Borda ${borda} breaks ties (${seats})`],
      };
    }
    let score = 0;
    const parts: string[] = [];
    for (const vote of votes) {
      const weight = weights[vote.judgeId] ?? 1;
      const normalized = normalizeScores(vote.ranking).get(member) ?? 0;
      score += weight * normalized;
      parts.push(`${vote.judgeId} ${weight}x${normalized.toFixed(2)}`);
    }
    return { harnessId: member, score, reasons: [`weighted ${score.toFixed(3)} (${parts.join(", ")})`] };
  });
}

async function collectVote(judge: JudgeV1, input: RoutingInput, timeoutMs: number): Promise<JudgeVote> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      judge.vote(input),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The judge-voting router: asks every judge at once, drops a judge that fails, times out or returns a
 * vote outside the pool (recording why), aggregates the rest and selects the top k. With every judge
 * dropped, all siblings score 0 and ties fall in the seeded order.
 */
export function createVotingRouter(options: VotingRouterOptions): RouterV1 {
  if (options.judges.length === 0)
    throw new InvalidInputError("a voting router needs at least one judge", { field: "judges" });
  const aggregation = options.aggregation ?? "borda";
  const timeoutMs = options.judgeTimeoutMs ?? 120_000;
  return {
    specificationVersion: "v1",
    id: options.id ?? `vote-${aggregation}`,
    async route(input) {
      const members = input.pool.siblings.map((sibling) => sibling.id);
      const memberSet = new Set(members);
      const settled = await Promise.allSettled(
        options.judges.map((judge) => collectVote(judge, input, timeoutMs)),
      );
      const votes: JudgeVote[] = [];
      const dropped: { judgeId: string; reason: string }[] = [];
      settled.forEach((result, index) => {
        const judgeId = options.judges[index]?.id ?? `judge-${index}`;
        if (result.status === "rejected") {
          dropped.push({
            judgeId,
            reason: result.reason instanceof Error ? result.reason.message : String(result.reason),
          });
          return;
        }
        const parsed = judgeVoteSchema.safeParse(result.value);
        const outside = parsed.success
          ? parsed.data.ranking.find((entry) => !memberSet.has(entry.harnessId))
          : undefined;
        if (!parsed.success) dropped.push({ judgeId, reason: "vote does not match the JudgeVote schema" });
        else if (outside !== undefined)
          dropped.push({ judgeId, reason: `ranked "${outside.harnessId}", which is not in the pool` });
        else votes.push(parsed.data);
      });
      const ranking =
        votes.length === 0
          ? members.map((member) => ({ harnessId: member, score: 0, reasons: ["every judge was dropped"] }))
          : aggregateVotes(votes, members, aggregation, options.weights);
      return decide(ranking, input.k, input.seed, { votes, dropped });
    },
  };
}
