import { type Job, type Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";

/** How a job ended, as the waiter saw it. */
export type JobEnd =
  | { state: "completed"; value: unknown }
  | { state: "failed"; reason: string }
  | { state: "missing" };

interface Pending {
  settle: (end: JobEnd) => void;
}

/**
 * Waits for many jobs at once: BullMQ's queue events wake it as soon as a job ends, and a poll of every
 * pending job (each `pollMs`) catches what events cannot tell: an event lost while Redis restarted, a job
 * that vanished with a Redis that kept no data (reported as `missing`, for the caller to add again).
 */
export class JobWaiter {
  private readonly pending = new Map<string, Pending>();
  private readonly events: QueueEvents;
  private readonly timer: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly queue: Queue,
    connection: Redis,
    pollMs: number,
  ) {
    this.events = new QueueEvents(queue.name, { connection: connection.duplicate() });
    this.events.on("completed", ({ jobId }) => void this.check(jobId));
    this.events.on("failed", ({ jobId }) => void this.check(jobId));
    this.events.on("error", () => {});
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  /** Resolves when the job is completed, failed for good, or gone. */
  wait(jobId: string): Promise<JobEnd> {
    return new Promise((settle) => {
      this.pending.set(jobId, { settle });
      void this.check(jobId);
    });
  }

  /** Stops waiting for a job (its promise never settles). */
  forget(jobId: string): void {
    this.pending.delete(jobId);
  }

  private async check(jobId: string): Promise<void> {
    const waiting = this.pending.get(jobId);
    if (waiting === undefined) return;
    let end: JobEnd | null;
    try {
      end = endOf(await this.queue.getJob(jobId));
    } catch {
      return; // Redis unreachable: the next poll tries again
    }
    if (end === null || this.pending.get(jobId) !== waiting) return;
    this.pending.delete(jobId);
    waiting.settle(end);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const jobId of [...this.pending.keys()]) await this.check(jobId);
    } finally {
      this.polling = false;
    }
  }

  /** Closes the event stream. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.events.close();
  }
}

function endOf(job: Job | undefined): JobEnd | null {
  if (job === undefined) return { state: "missing" };
  if (job.finishedOn === undefined) return null;
  if (job.failedReason !== undefined && job.failedReason !== "" && job.returnvalue == null) {
    const retriesLeft = job.attemptsMade < (job.opts.attempts ?? 1);
    return retriesLeft ? null : { state: "failed", reason: job.failedReason };
  }
  return { state: "completed", value: job.returnvalue };
}
