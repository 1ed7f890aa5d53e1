import type { GrammarStep } from "@hs/spec";
import { type DecisionWalk, labelValue } from "./decision-walk.js";

/** The decisions of one action kind after `kind`, then the finished action. */
export type KindStep<Context> = (walk: DecisionWalk, context: Context) => GrammarStep;

/**
 * The build of a grammar whose first decision is the action's kind (labels `kind:NAME`): `askKind` while
 * no kind is chosen, then the chosen kind's step (`fallback` for a name `steps` does not have).
 */
export function byKind<Context>(
  askKind: (context: Context) => GrammarStep,
  steps: Readonly<Record<string, KindStep<Context>>>,
  fallback: KindStep<Context>,
): KindStep<Context> {
  return (walk, context) => {
    const kindLabel = walk.take();
    if (kindLabel === null) return askKind(context);
    const kind = labelValue(kindLabel);
    const step = Object.hasOwn(steps, kind) ? steps[kind] : undefined;
    return (step ?? fallback)(walk, context);
  };
}
