/** Mean and sample standard deviation of per-seed values. */
export interface Spread {
  /** Number of values. */
  n: number;
  /** Arithmetic mean (NaN when empty). */
  mean: number;
  /** Sample standard deviation (n - 1), 0 for one value, NaN when empty. */
  std: number;
  /** Smallest value. */
  min: number;
  /** Largest value. */
  max: number;
}

/** Mean, sample standard deviation and range of a list of per-seed values. */
export function spread(values: readonly number[]): Spread {
  const n = values.length;
  if (n === 0) return { n, mean: Number.NaN, std: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const variance = n === 1 ? 0 : values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  return { n, mean, std: Math.sqrt(variance), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * Welch's t statistic of a against b, with its degrees of freedom; null when either side has fewer
 * than two values or both have zero variance.
 */
export function welch(
  a: readonly number[],
  b: readonly number[],
): { t: number; degreesOfFreedom: number } | null {
  const left = spread(a);
  const right = spread(b);
  if (left.n < 2 || right.n < 2) return null;
  const leftTerm = left.std ** 2 / left.n;
  const rightTerm = right.std ** 2 / right.n;
  if (leftTerm + rightTerm === 0) return null;
  const t = (left.mean - right.mean) / Math.sqrt(leftTerm + rightTerm);
  const degreesOfFreedom =
    (leftTerm + rightTerm) ** 2 / (leftTerm ** 2 / (left.n - 1) + rightTerm ** 2 / (right.n - 1));
  return { t, degreesOfFreedom };
}
