import type { ObservedCell } from "./read-view.js";

/**
 * The line a harness check prints after re-running the filter of the policy's last answer or loop on
 * the list it read (`harness check: your filter on LIST keeps K of N items`).
 */
const filterCheckLine = /^harness check: your filter on (\w+) keeps (\d+) of (\d+) items$/gm;

/** The list a loop cell iterates (`for item in [item for item in LIST if ...]:`), or null. */
function loopList(code: string | null): string | null {
  return /^for item in \[item for item in (\w+) if /m.exec(code ?? "")?.[1] ?? null;
}

/** What the harness's checks reported about the policy's filters, read from the view only. */
export interface CheckReports {
  /** Lists whose filter the latest check on them found keeping none of their items. */
  emptyFilters: Set<string>;
  /** Indices of loop cells over a list that a later check found filtered to nothing: they changed nothing. */
  emptyLoops: Set<number>;
}

/** Reads the filter checks a harness ran after the policy's cells (never shown under a base harness). */
export function checkReports(cells: readonly ObservedCell[]): CheckReports {
  const latest = new Map<string, boolean>();
  const emptyLoops = new Set<number>();
  cells.forEach((cell, index) => {
    for (const call of cell.harness ?? [])
      for (const [, list = "", kept] of call.output.matchAll(filterCheckLine)) {
        const empty = kept === "0";
        latest.set(list, empty);
        if (!empty) continue;
        for (let earlier = 0; earlier <= index; earlier++)
          if (loopList(cells[earlier]?.code ?? null) === list) emptyLoops.add(earlier);
      }
  });
  return {
    emptyFilters: new Set([...latest].filter(([, empty]) => empty).map(([list]) => list)),
    emptyLoops,
  };
}
