import { type Job, type Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";

/** How a job ended, as the waiter saw it. */
export type JobEnd =
  | { state: "completed"; value: unknown }
  | { state: "failed"; reason: string }
  | { state: "missing" };

/** Jobs read in one pipeline by the poll. */
const pollBatch = 500;

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
    private readonly connection: Redis,
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
    await this.checkMany([jobId]);
  }

  /**
   * Reads only two fields of each job hash in one pipeline (`timestamp`, which every job has, and
   * `finishedOn`), and the whole job only for those that ended or are gone: a job still running costs
   * one small read, not a copy of its data.
   */
  private async checkMany(jobIds: readonly string[]): Promise<void> {
    const waiting = jobIds.flatMap((jobId) => {
      const entry = this.pending.get(jobId);
      return entry === undefined ? [] : [{ jobId, entry }];
    });
    if (waiting.length === 0) return;
    let fields: ([Error | null, unknown] | null)[] | null;
    try {
      const pipeline = this.connection.pipeline();
      for (const { jobId } of waiting) pipeline.hmget(this.queue.toKey(jobId), "timestamp", "finishedOn");
      fields = await pipeline.exec();
    } catch {
      return; // Redis unreachable: the next poll tries again
    }
    await Promise.all(
      waiting.map(async ({ jobId, entry }, index) => {
        const reply = fields?.[index];
        // no reply, or an error: nothing is known of the job, the next poll reads it again
        if (reply == null || reply[0] !== null || !Array.isArray(reply[1])) return;
        const [timestamp, finishedOn] = reply[1] as (string | null)[];
        if (timestamp != null && finishedOn == null) return;
        let end: JobEnd | null;
        try {
          end = timestamp == null ? { state: "missing" } : endOf(await this.queue.getJob(jobId));
        } catch {
          return;
        }
        if (end === null || this.pending.get(jobId) !== entry) return;
        this.pending.delete(jobId);
        entry.settle(end);
      }),
    );
  }

  private async poll(periodMs: number): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const due = Date.now() - periodMs;
      const jobIds = [...this.pending.entries()].filter(([, entry]) => entry.since <= due).map(([id]) => id);
      for (let start = 0; start < jobIds.length; start += pollBatch)
        await this.checkMany(jobIds.slice(start, start + pollBatch));
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
