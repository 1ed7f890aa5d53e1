/**
 * Reads how long a server asked the client to wait before retrying, in milliseconds.
 *
 * `retry-after-ms` (milliseconds, sent by the OpenAI API) wins over `retry-after`, which is either a
 * number of seconds or an HTTP date (RFC 9110 section 10.2.3, which names the month). Returns undefined when neither header is
 * present or readable. A date in the past gives 0.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null },
  now: () => number = Date.now,
): number | undefined {
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) {
    return Math.max(0, Math.round(Number(milliseconds)));
  }
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now());
}
