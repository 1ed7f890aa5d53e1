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

/**
 * Whether a cell's own output says it printed nothing: the shell answers `Execution successful.` alone
 * then (packages/benchmarks-appworld/python/appworld_shell.py); a follow-up's note may come after it.
 */
function printedNothing(cell: ObservedCell): boolean {
  return !cell.failed && /^\s*Execution successful\.\s*(?:\n|$)/.test(cell.output ?? "");
}

/** The conditions (joined by ` and `) of the last filter on `list` that a cell's code writes. */
function filterParts(code: string | null, list: string): string[] | null {
  const filters = [...(code ?? "").matchAll(/\[item for item in (\w+) if ([^\n]*?)\](?=\)|:|\[)/g)];
  const last = filters.filter((match) => match[1] === list).at(-1);
  return last?.[2] === undefined ? null : last[2].split(" and ");
}

/** What the harness's checks reported about the policy's filters, read from the view only. */
export interface CheckReports {
  /**
   * Lists whose filter the latest check on them found keeping none of their items, each with the
   * conditions of that filter (as the policy wrote them; empty when the filter is not in the view).
   */
  emptyFilters: Map<string, string[]>;
  /**
   * Indices of loop cells that changed nothing: the loop printed nothing (it ran for no item, read from
   * its own output, under every harness), or a later check found its list filtered to nothing.
   */
  emptyLoops: Set<number>;
  /** The code of the last cell when it is a complete_task the harness held and whose filter its check found keeping items. */
  confirmedHold: string | null;
}

/** The last cell's code when it called complete_task and a check after it found its filter keeping items. */
function confirmedHoldOf(cells: readonly ObservedCell[]): string | null {
  const last = cells.at(-1);
  if (last?.code === undefined || last.code === null || !/complete_task\(/.test(last.code)) return null;
  const kept = (last.harness ?? []).some((call) =>
    [...call.output.matchAll(filterCheckLine)].some((match) => match[2] !== "0"),
  );
  return kept ? last.code : null;
}

/** The conditions of the filter a check after cell `index` re-ran: of that cell, else of the last earlier one. */
function checkedParts(cells: readonly ObservedCell[], index: number, list: string): string[] {
  for (let at = index; at >= 0; at--) {
    const parts = filterParts(cells[at]?.code ?? null, list);
    if (parts !== null) return parts;
  }
  return [];
}

/**
 * Reads the filter checks a harness ran after the policy's cells (never shown under a base harness), and
 * the loops whose own output shows they ran for no item.
 */
export function checkReports(cells: readonly ObservedCell[]): CheckReports {
  const latest = new Map<string, string[] | null>();
  const emptyLoops = new Set<number>();
  cells.forEach((cell, index) => {
    if (loopList(cell.code) !== null && printedNothing(cell)) emptyLoops.add(index);
    for (const call of cell.harness ?? [])
      for (const [, list = "", kept] of call.output.matchAll(filterCheckLine)) {
        if (kept !== "0") {
          latest.set(list, null);
          continue;
        }
        latest.set(list, checkedParts(cells, index, list));
        for (let earlier = 0; earlier <= index; earlier++)
          if (loopList(cells[earlier]?.code ?? null) === list) emptyLoops.add(earlier);
      }
  });
  const emptyFilters = new Map<string, string[]>();
  for (const [list, parts] of latest) if (parts !== null) emptyFilters.set(list, parts);
  return { emptyFilters, emptyLoops, confirmedHold: confirmedHoldOf(cells) };
}
