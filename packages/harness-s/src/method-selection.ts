import type { SamplingMethod, SiblingSelection } from "@hs/rescue-grpo";
import type { Pool } from "@hs/spec";

/** The methods that rescue all-fail groups (every method but `grpo` and `dapo`). */
export type RescueMethod = Exclude<SamplingMethod, "grpo" | "dapo">;

/**
 * How each rescuing method picks siblings: the router's top-k (`harness-s`), the best validated
 * sibling (`single-sibling`), k random siblings (`random-rescue`) or every sibling (`all-rescue`).
 */
export const methodSelection: Readonly<Record<RescueMethod, SiblingSelection>> = {
  "harness-s": "router",
  "single-sibling": "single",
  "random-rescue": "random",
  "all-rescue": "all",
};

/** Whether a method rescues (and so needs a pool). */
export function isRescueMethod(method: SamplingMethod): method is RescueMethod {
  return method in methodSelection;
}

/**
 * The sibling with the best validation score (rescued - the re-roll control's rescues on the same
 * failures and seeds - regressions, ties by id), for `single-sibling`.
 */
export function bestValidatedSibling(pool: Pool): string | undefined {
  const score = ({ validation }: Pool["siblings"][number]) =>
    validation.rescued - (validation.control?.controlRescued ?? 0) - validation.regressions;
  return [...pool.siblings].sort((a, b) => score(b) - score(a) || a.id.localeCompare(b.id))[0]?.id;
}
