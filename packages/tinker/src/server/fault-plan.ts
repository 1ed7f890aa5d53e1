/**
 * Faults the test server injects, per endpoint, in order:
 * - `try_again`: retrieve_future answers 200 `{"type":"try_again"}` (Tinker's pending answer);
 * - `408` / `410`: retrieve_future answers that status (SkyRL's wait timeout / an expired promise);
 * - `429` / `500` / `503`: the call answers that status without doing anything;
 * - `drop-before`: the connection is destroyed before the request is read into the server's state;
 * - `drop-after`: the request is applied, then the connection is destroyed before the answer;
 * - `slow`: the queued request's future stays pending for `delayMs`;
 * - `held`: retrieve_future answers what the mode answers for a pending future after holding the
 *   poll `holdMs` (SkyRL's 408 after 300 s, Tinker's try_again), reported to `onHold` instead of
 *   waited (a test's fake clock advances by it).
 */
export type Fault =
  | { kind: "try_again" | "408" | "410" | "429" | "500" | "503" | "drop-before" | "drop-after" }
  | { kind: "slow"; delayMs: number }
  | { kind: "held"; holdMs: number };

/** A queue of faults per endpoint (e.g. `/forward_backward`). */
export class FaultPlan {
  private readonly queues = new Map<string, Fault[]>();
  /** Faults injected so far, by endpoint and kind, e.g. `/asample 429`. */
  readonly injected: string[] = [];

  /** Queues `fault` for the next `times` calls of `endpoint`. */
  add(endpoint: string, fault: Fault, times = 1): this {
    const queue = this.queues.get(endpoint) ?? [];
    for (let index = 0; index < times; index++) queue.push(fault);
    this.queues.set(endpoint, queue);
    return this;
  }

  /** The fault for this call of `endpoint`, if one is queued. */
  take(endpoint: string): Fault | undefined {
    const fault = this.queues.get(endpoint)?.shift();
    if (fault !== undefined) this.injected.push(`${endpoint} ${fault.kind}`);
    return fault;
  }

  /** Faults still queued. */
  pending(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }
}
