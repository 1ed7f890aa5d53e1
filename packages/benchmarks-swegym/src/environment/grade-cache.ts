import { createHash } from "node:crypto";
import type { Grade } from "@hs/spec";

/**
 * Verdicts by (instance id, sha256 of the submitted patch), within one benchmark object: the same
 * patch on the same instance gets the same verdict without running the evaluation again (GRPO groups
 * and repeated episodes often submit the same patch, the empty one above all). A grading run that
 * timed out or failed is not kept, since load or a fault, not the patch, may have decided it. Runs of
 * the same key that overlap share one evaluation. A cached verdict is the same grade, details and all
 * (`hits` counts them).
 */
export class GradeCache {
  private readonly grades = new Map<string, Promise<Grade>>();
  /** Evaluations run (cache misses). */
  runs = 0;
  /** Verdicts answered from the cache. */
  hits = 0;

  /** The cache key of a patch on an instance. */
  static key(instanceId: string, patch: string): string {
    return `${instanceId}\u0000${createHash("sha256").update(patch).digest("hex")}`;
  }

  /** The verdict of `patch` on `instanceId`: cached, or `evaluate()`'s (kept unless it timed out). */
  async grade(instanceId: string, patch: string, evaluate: () => Promise<Grade>): Promise<Grade> {
    const key = GradeCache.key(instanceId, patch);
    const known = this.grades.get(key);
    if (known !== undefined) {
      this.hits += 1;
      return known;
    }
    this.runs += 1;
    const running = evaluate();
    this.grades.set(key, running);
    try {
      const grade = await running;
      if (grade.details?.timed_out === true) this.grades.delete(key);
      return grade;
    } catch (error) {
      this.grades.delete(key);
      throw error;
    }
  }

  /** Number of verdicts kept. */
  get size(): number {
    return this.grades.size;
  }
}
