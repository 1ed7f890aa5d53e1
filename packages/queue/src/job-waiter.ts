import { type Job, type Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";

/** How a job ended, as the waiter saw it. */
export type JobEnd =
  | { state: "completed"; value: unknown }
  | { state: "failed"; reason: string }
  | { state: "missing" };

interface Pending {
  settle: (end: JobEnd) => void;
  /** When the wait began (the poll looks only at jobs waited on longer than one period). */
  since: number;
}

/**
 * Waits for many jobs at once: BullMQ's queue events wake it as soon as a job ends, and a poll of every
 * pending job (each `pollMs`) catches what events cannot tell: an event lost while Redis restarted, a job
 * that vanished with a Redis that kept no data (reported as `missing`, for the caller to add again).
 */
export class JobWaiter {
  private readonly pending = new Map<string, Pending>();
  private readonly events: QueueEvents;
  private readonly eventConnection: Redis;
  private readonly timer: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly queue: Queue,
    connection: Redis,
    pollMs: number,
  ) {
    this.eventConnection = connection.duplicate();
    this.events = new QueueEvents(queue.name, { connection: this.eventConnection });
    // the completed event carries the result: most jobs settle without another read of Redis
    this.events.on("completed", ({ jobId, returnvalue }) =>
      this.settle(jobId, { state: "completed", value: returnvalue }),
    );
    this.events.on("failed", ({ jobId }) => void this.check(jobId));
    this.events.on("error", () => {});
    this.timer = setInterval(() => void this.poll(pollMs), pollMs);
    this.timer.unref();
  }

  /** Resolves when the job is completed, failed for good, or gone. */
  wait(jobId: string): Promise<JobEnd> {
    return new Promise((settle) => {
      this.pending.set(jobId, { settle, since: Date.now() });
      void this.check(jobId);
    });
  }

  /** Stops waiting for a job (its promise never settles). */
  forget(jobId: string): void {
    this.pending.delete(jobId);
  }

  private settle(jobId: string, end: JobEnd): void {
    const waiting = this.pending.get(jobId);
    if (waiting === undefined) return;
    this.pending.delete(jobId);
    waiting.settle(end);
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

  private async poll(periodMs: number): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const due = Date.now() - periodMs;
      for (const [jobId, waiting] of [...this.pending.entries()])
        if (waiting.since <= due) await this.check(jobId);
    } finally {
      this.polling = false;
    }
  }

  /** Closes the event stream. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.events.close();
    // BullMQ leaves a connection it was given open
    this.eventConnection.disconnect();
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
