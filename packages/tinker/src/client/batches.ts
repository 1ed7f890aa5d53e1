import type { Datum } from "../protocol/datum.js";
import type { ForwardBackwardResult } from "../protocol/replies.js";

/** Estimated bytes of one datum on the wire (its JSON). */
export function datumBytes(datum: Datum): number {
  return Buffer.byteLength(JSON.stringify(datum));
}

/**
 * Splits a forward_backward batch as the SDK does (thinking-machines-lab/tinker
 * `lib/public_interfaces/training_client.py` `_chunked_requests_generator`): a chunk closes before a
 * datum that would take it past `maxBytes`, or once it holds `maxDatums`.
 */
export function splitBatch(data: readonly Datum[], maxDatums: number, maxBytes: number): Datum[][] {
  const chunks: Datum[][] = [];
  let current: Datum[] = [];
  let currentBytes = 0;
  for (const datum of data) {
    const bytes = datumBytes(datum);
    if ((current.length > 0 && currentBytes + bytes > maxBytes) || current.length === maxDatums) {
      chunks.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(datum);
    currentBytes += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

type Reduction = (values: number[], weights: number[]) => number;

const reductions: Record<string, Reduction> = {
  mean: (values, weights) => weightedMean(values, weights),
  sum: (values) => values.reduce((total, value) => total + value, 0),
  min: (values) => Math.min(...values),
  max: (values) => Math.max(...values),
  slack: (values, weights) => Math.max(...values) - weightedMean(values, weights),
};

function weightedMean(values: number[], weights: number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return values.reduce((sum, value) => sum + value, 0) / values.length;
  return values.reduce((sum, value, index) => sum + value * (weights[index] ?? 0), 0) / total;
}

/**
 * Combines the results of a split batch as the SDK's `lib/chunked_fwdbwd_helpers.py`: outputs
 * concatenated in order; a metric `name:reduction` reduced over chunks (mean and slack weighted by
 * each chunk's datums; `unique` keeps every value as `key`, `key_1`...); a metric without a known
 * reduction, or missing from a chunk, is dropped.
 */
export function combineForwardBackward(results: readonly ForwardBackwardResult[]): ForwardBackwardResult {
  const [first] = results;
  if (first === undefined) return { loss_fn_output_type: "", loss_fn_outputs: [], metrics: {} };
  if (results.length === 1) return first;
  const weights = results.map((result) => result.loss_fn_outputs.length);
  const metrics: Record<string, number> = {};
  for (const key of Object.keys(first.metrics)) {
    if (!results.every((result) => key in result.metrics)) continue;
    const values = results.map((result) => result.metrics[key] ?? 0);
    const reduction = key.split(":")[1] ?? "";
    if (reduction === "unique") {
      metrics[key] = values[0] ?? 0;
      for (const [index, value] of values.slice(1).entries()) metrics[`${key}_${index + 1}`] = value;
      continue;
    }
    const reduce = reductions[reduction];
    if (reduce !== undefined) metrics[key] = reduce(values, weights);
  }
  return {
    loss_fn_output_type: first.loss_fn_output_type,
    loss_fn_outputs: results.flatMap((result) => result.loss_fn_outputs),
    metrics,
  };
}
