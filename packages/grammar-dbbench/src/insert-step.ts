import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { ask } from "./decision-options.js";
import { sqlAction } from "./grammar-actions.js";
import { quoteIdentifier, quoteString } from "./sql-text.js";
import { valueOptions } from "./value-options.js";
import type { ViewContext } from "./view-context.js";

/** An INSERT: a value for each header in order, the next one read after the previous one. */
export function insertStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const insertValues: string[] = [];
  for (const header of read.headers) {
    const label = walk.take();
    if (label === null)
      return ask(
        valueOptions("insert-value", context, header, insertValues, "scalar", insertValues.at(-1) ?? null),
      );
    insertValues.push(labelValue(label));
  }
  const columns = read.headers.map(quoteIdentifier).join(", ");
  return sqlAction(
    read,
    `INSERT INTO ${quoteIdentifier(read.table)} (${columns}) VALUES (${insertValues.map(quoteString).join(", ")});`,
  );
}
