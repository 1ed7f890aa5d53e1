import type { BehaviourFrequencyFile, BehaviourTally } from "@hs/spec";

/** The policies the behaviour table compares, in column order, with their column headers. */
export const BEHAVIOUR_POLICIES = [
  { policy: "untrained", header: "untrained" },
  { policy: "grpo", header: "GRPO" },
  { policy: "harness-s", header: "Harness-S" },
] as const;

/** One kept sibling's table: a row per behaviour it induces, a cell per compared policy. */
export interface SiblingBehaviourTable {
  /** Sibling id. */
  sibling: string;
  /** The sibling's direction, when the file names it. */
  direction: string | undefined;
  /** Rows: behaviour id, then for each policy "shown/occasions (pct)" over seeds and the per-seed values. */
  rows: string[][];
}

/** "shown/occasions (pct)", or "no occasion" when the behaviour never had one. */
export function formatTally(tally: BehaviourTally): string {
  if (tally.applicable === 0) return "no occasion";
  return `${tally.shown}/${tally.applicable} (${((100 * tally.shown) / tally.applicable).toFixed(1)}%)`;
}

function cell(file: BehaviourFrequencyFile, policy: string, behaviour: string): string {
  const rows = file.rows
    .filter((row) => row.policy === policy && row[behaviour] !== undefined)
    .sort((left, right) => left.seed - right.seed);
  if (rows.length === 0) return "not measured";
  const tallies = rows.map((row) => row[behaviour] as BehaviourTally);
  const total = {
    shown: tallies.reduce((sum, tally) => sum + tally.shown, 0),
    applicable: tallies.reduce((sum, tally) => sum + tally.applicable, 0),
  };
  const perSeed = rows.map(
    (row, index) => `seed ${row.seed}: ${formatTally(tallies[index] as BehaviourTally)}`,
  );
  return `${formatTally(total)}; ${perSeed.join(", ")}`;
}

/** A table per kept sibling of `behaviour-frequency.json`; a sibling that induces no measured behaviour gets none. */
export function siblingBehaviourTables(file: BehaviourFrequencyFile): SiblingBehaviourTable[] {
  return file.siblings
    .filter((sibling) => sibling.behaviours.length > 0)
    .map((sibling) => ({
      sibling: sibling.id,
      direction: sibling.direction,
      rows: sibling.behaviours.map((behaviour) => [
        behaviour,
        ...BEHAVIOUR_POLICIES.map(({ policy }) => cell(file, policy, behaviour)),
      ]),
    }));
}
