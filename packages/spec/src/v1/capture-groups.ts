/** The numbered and named capture groups a regular expression defines. */
export function captureGroupsOf(pattern: string, flags: string): { count: number; names: string[] } {
  // an alternative that matches the empty string makes every group appear in the match, unset
  const match = new RegExp(`${pattern}|`, flags.replace(/[gy]/g, "")).exec("");
  return { count: (match?.length ?? 1) - 1, names: Object.keys(match?.groups ?? {}) };
}

/**
 * Argument -> group references of a text rule that the rule's pattern does not define, described
 * (`argument "sql": group 3, but the pattern has 2 groups`). Empty when all exist.
 */
export function missingCaptureGroups(
  pattern: string,
  flags: string,
  argumentGroups: Record<string, number | string>,
): { argument: string; message: string }[] {
  let groups: { count: number; names: string[] };
  try {
    groups = captureGroupsOf(pattern, flags);
  } catch {
    return []; // an invalid pattern is reported by its own check
  }
  const problems: { argument: string; message: string }[] = [];
  for (const [argument, group] of Object.entries(argumentGroups)) {
    const numbered = typeof group === "number";
    const exists = numbered ? Number(group) <= groups.count : groups.names.includes(group);
    if (exists) continue;
    const has = numbered
      ? `the pattern has ${groups.count} numbered group${groups.count === 1 ? "" : "s"}`
      : groups.names.length === 0
        ? "the pattern has no named groups"
        : `the pattern's named groups are ${groups.names.join(", ")}`;
    problems.push({ argument, message: `capture group ${JSON.stringify(group)} does not exist: ${has}` });
  }
  return problems;
}
