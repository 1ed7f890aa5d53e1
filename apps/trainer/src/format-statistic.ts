/**
 * A statistic shown with four significant digits, in exponent form when it is very small or large: the
 * GRPO loss sits near 0 at every step (group advantages sum to zero and the ratio starts at 1), so a
 * fixed four decimals would print `0.0000` while the gradient is not zero.
 */
export function formatStatistic(value: number | undefined): string {
  if (value === undefined) return "-";
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  return size >= 1e-3 && size < 1e5 ? String(Number(value.toPrecision(4))) : value.toExponential(3);
}
