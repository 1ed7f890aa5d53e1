/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `word` when it is close enough to be a likely typo (at most a third of
 * the word's length in edits, at least 2; case differences count as one edit in total), else null.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance =
      candidate.toLowerCase() === word.toLowerCase()
        ? 1
        : editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

/** `unknown key "x" (did you mean "y"?); expected keys: a, b` for keys a strict object does not have. */
export function describeUnknownKeys(keys: readonly string[], known: readonly string[]): string {
  const parts = keys.map((key) => {
    const close = closestMatch(key, known);
    return close === null ? `"${key}"` : `"${key}" (did you mean "${close}"?)`;
  });
  return `unknown key${keys.length === 1 ? "" : "s"} ${parts.join(", ")}; expected keys: ${known.join(", ")}`;
}
