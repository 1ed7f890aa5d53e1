import type { Pool, RouterDecision } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";

/** The ids of a router's decision (selected, then ranked) that are not siblings of the pool. */
export function routerDecisionProblems(decision: RouterDecision, pool: Pool): string[] {
  const siblings = new Set(pool.siblings.map((sibling) => sibling.id));
  const outside = (verb: string, ids: readonly string[]) =>
    ids.filter((id) => !siblings.has(id)).map((id) => `${verb} "${id}", which is not a sibling of the pool`);
  return [
    ...outside("selected", decision.selected),
    ...outside(
      "ranked",
      decision.ranking.map((entry) => entry.harnessId),
    ),
  ];
}

/**
 * Throws an `InvalidInputError` naming the router and every id of its decision the pool lacks (the
 * router conformance kit's rule, applied where a decision is used).
 */
export function assertRouterDecisionInPool(routerId: string, decision: RouterDecision, pool: Pool): void {
  const problems = routerDecisionProblems(decision, pool);
  if (problems.length > 0)
    throw new InvalidInputError(
      `router ${routerId}: ${problems.join("; ")} (siblings: ${pool.siblings.map((sibling) => sibling.id).join(", ")})`,
      { field: "selected" },
    );
}
