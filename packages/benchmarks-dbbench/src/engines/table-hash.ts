import { createHash } from "node:crypto";

/** MySQL's default group_concat_max_len, which cuts the joined row hashes. */
export const groupConcatMaxLength = 1024;

/**
 * AgentBench's table hash computed in JavaScript, byte for byte what MySQL returns for
 * `select md5(group_concat(rowhash order by rowhash)) from (select substring(MD5(CONCAT_WS(',', cols)), 1, 5) ...)`:
 * NULL cells skipped, first 5 hex digits per row, sorted, joined with `,`, cut at 1024 bytes, MD5.
 * Null for a table without rows. Follows THUDM/AgentBench src/server/tasks/dbbench/result_processor.py.
 */
export function tableHashOfRows(rows: readonly (readonly (string | null)[])[]): string | null {
  if (rows.length === 0) return null;
  const rowHashes = rows
    .map((row) =>
      createHash("md5")
        .update(row.filter((cell): cell is string => cell !== null).join(","), "utf8")
        .digest("hex")
        .slice(0, 5),
    )
    .sort();
  const joined = rowHashes.join(",").slice(0, groupConcatMaxLength);
  return createHash("md5").update(joined, "utf8").digest("hex");
}

/** Combines per-table hashes as AgentBench FC does: sorted and joined with `_`. */
export function combineTableHashes(hashes: readonly (string | null)[]): string | null {
  if (hashes.length === 1) return hashes[0] ?? null;
  return hashes
    .map((hash) => hash ?? "None")
    .sort()
    .join("_");
}

/**
 * The hash text of a table that cannot be read (dropped, renamed): AgentBench compares the error
 * message its connector returns, which never equals a hash or `[(None,)]` (v0.2 Interaction.py line
 * 85, `str(e)`), so the episode fails; NULL would pass a task whose expected table is empty.
 */
export function tableHashError(error: unknown): string {
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}
