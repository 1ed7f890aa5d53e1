import { defaultModeDirections, type FailureMode } from "@hs/failure-analysis";
import type { FixDirection } from "@hs/spec";

/** One base failure and whether each harness rescued it. */
export interface RescueRecord {
  /** Task id. */
  taskId: string;
  /** Seed of the base episode (the re-runs use fresh seeds, the same for every harness). */
  seed: number;
  /** Failure modes of the base episode. */
  modes: FailureMode[];
  /** Harness id -> solved on re-run. */
  rescuedBy: Record<string, boolean>;
}

/** One cell of the rescue matrix. */
export interface RescueMatrixCell {
  /** Base failures of this mode tried. */
  attempts: number;
  /** Of those, solved. */
  rescued: number;
  /** rescued / attempts (null when no attempts). */
  rate: number | null;
}

/** The three properties, measured over rescue records. */
export interface RescueProperties {
  /** Failure modes (columns), in order. */
  modes: FailureMode[];
  /** Harness id -> mode -> cell. */
  rescueMatrix: Record<string, Record<FailureMode, RescueMatrixCell>>;
  /** Harness id -> overall rescue counts. */
  overall: Record<string, { attempts: number; rescued: number; rate: number | null }>;
  /** Per sibling: share of its rescues that carry a mode of its own direction, and that share among all failures (chance). */
  locality: Record<
    string,
    {
      direction: FixDirection;
      rescues: number;
      local: number;
      locality: number | null;
      chance: number | null;
    }
  >;
  /** Complementarity of the rescued task sets. */
  complementarity: {
    /** Pairwise Jaccard overlap of rescued task sets. */
    pairs: { a: string; b: string; overlap: number | null; shared: number }[];
    /** Tasks rescued by at least one sibling. */
    unionTasks: number;
    /** Most tasks rescued by one sibling, and which. */
    bestSingle: { harnessId: string | null; tasks: number };
    /** Distinct base-failed tasks. */
    failedTasks: number;
  };
}

function rate(rescued: number, attempts: number): number | null {
  return attempts === 0 ? null : rescued / attempts;
}

/**
 * Computes the rescue matrix (harness x failure mode), locality (share of each sibling's rescues inside
 * its direction's modes, next to the share expected by chance) and complementarity (pairwise overlap of
 * rescued task sets; union vs best single sibling). Harnesses without a direction (controls) get a
 * matrix row but no locality.
 */
export function measureRescueProperties(
  records: readonly RescueRecord[],
  harnesses: readonly { id: string; direction: FixDirection | null }[],
  modeDirections: Readonly<Record<FailureMode, readonly FixDirection[]>> = defaultModeDirections,
): RescueProperties {
  const modes = [...new Set(records.flatMap((record) => record.modes))].sort();
  const rescueMatrix: RescueProperties["rescueMatrix"] = {};
  const overall: RescueProperties["overall"] = {};
  const locality: RescueProperties["locality"] = {};
  const rescuedTasks = new Map<string, Set<string>>();
  for (const harness of harnesses) {
    const row: Record<FailureMode, RescueMatrixCell> = {};
    for (const mode of modes) {
      const tried = records.filter((record) => record.modes.includes(mode) && harness.id in record.rescuedBy);
      const rescued = tried.filter((record) => record.rescuedBy[harness.id] === true).length;
      row[mode] = { attempts: tried.length, rescued, rate: rate(rescued, tried.length) };
    }
    rescueMatrix[harness.id] = row;
    const tried = records.filter((record) => harness.id in record.rescuedBy);
    const rescued = tried.filter((record) => record.rescuedBy[harness.id] === true);
    overall[harness.id] = {
      attempts: tried.length,
      rescued: rescued.length,
      rate: rate(rescued.length, tried.length),
    };
    if (harness.direction !== null) {
      const direction = harness.direction;
      const isLocal = (record: RescueRecord) =>
        record.modes.some((mode) => (modeDirections[mode] ?? []).includes(direction));
      const local = rescued.filter(isLocal).length;
      locality[harness.id] = {
        direction,
        rescues: rescued.length,
        local,
        locality: rate(local, rescued.length),
        chance: rate(tried.filter(isLocal).length, tried.length),
      };
      rescuedTasks.set(harness.id, new Set(rescued.map((record) => record.taskId)));
    }
  }
  const siblings = [...rescuedTasks.keys()];
  const pairs: RescueProperties["complementarity"]["pairs"] = [];
  for (let i = 0; i < siblings.length; i++) {
    for (let j = i + 1; j < siblings.length; j++) {
      const a = rescuedTasks.get(siblings[i] as string) as Set<string>;
      const b = rescuedTasks.get(siblings[j] as string) as Set<string>;
      const shared = [...a].filter((task) => b.has(task)).length;
      const union = new Set([...a, ...b]).size;
      pairs.push({
        a: siblings[i] as string,
        b: siblings[j] as string,
        shared,
        overlap: union === 0 ? null : shared / union,
      });
    }
  }
  const union = new Set([...rescuedTasks.values()].flatMap((set) => [...set]));
  let best: { harnessId: string | null; tasks: number } = { harnessId: null, tasks: 0 };
  for (const [id, set] of rescuedTasks) if (set.size > best.tasks) best = { harnessId: id, tasks: set.size };
  return {
    modes,
    rescueMatrix,
    overall,
    locality,
    complementarity: {
      pairs,
      unionTasks: union.size,
      bestSingle: best,
      failedTasks: new Set(records.map((record) => record.taskId)).size,
    },
  };
}

function percent(value: number | null): string {
  return value === null ? "-" : `${(value * 100).toFixed(0)}%`;
}

/** The properties as Markdown tables (for READMEs and reports). */
export function formatRescueProperties(properties: RescueProperties): string {
  const lines: string[] = [];
  lines.push(`| harness | ${properties.modes.join(" | ")} | overall |`);
  lines.push(`|---|${properties.modes.map(() => "---").join("|")}|---|`);
  for (const [id, row] of Object.entries(properties.rescueMatrix)) {
    const cells = properties.modes.map((mode) => {
      const cell = row[mode];
      return cell === undefined || cell.attempts === 0
        ? "-"
        : `${cell.rescued}/${cell.attempts} (${percent(cell.rate)})`;
    });
    const total = properties.overall[id];
    lines.push(
      `| ${id} | ${cells.join(" | ")} | ${total === undefined ? "-" : `${total.rescued}/${total.attempts} (${percent(total.rate)})`} |`,
    );
  }
  lines.push(
    "",
    "| sibling | direction | rescues | local | locality | chance share |",
    "|---|---|---|---|---|---|",
  );
  for (const [id, entry] of Object.entries(properties.locality)) {
    lines.push(
      `| ${id} | ${entry.direction} | ${entry.rescues} | ${entry.local} | ${percent(entry.locality)} | ${percent(entry.chance)} |`,
    );
  }
  const c = properties.complementarity;
  lines.push(
    "",
    `Complementarity: union of rescued tasks ${c.unionTasks} of ${c.failedTasks} failed tasks; best single sibling ${c.bestSingle.harnessId ?? "-"} rescues ${c.bestSingle.tasks}.`,
  );
  if (c.pairs.length > 0) {
    lines.push("", "| pair | shared tasks | Jaccard overlap |", "|---|---|---|");
    for (const pair of c.pairs)
      lines.push(
        `| ${pair.a} / ${pair.b} | ${pair.shared} | ${pair.overlap === null ? "-" : pair.overlap.toFixed(2)} |`,
      );
  }
  return lines.join("\n");
}
