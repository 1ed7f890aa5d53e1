/** Seconds of silence after which running episodes are listed again. */
export const progressHeartbeatMs = 10_000;

interface Running {
  began: number;
  doing: string;
  since: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Per-episode progress lines: an episode's start (its workspace ready), its end (the grade and, when
 * not resolved, why), and while anything runs a line at least every 10 s naming each running episode
 * and what it is doing, so a long test run is never silent.
 */
export class ProgressReporter {
  private readonly running = new Map<string, Running>();
  private lastLine = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly heartbeatMs = progressHeartbeatMs,
    private readonly now: () => number = Date.now,
  ) {}

  private emit(line: string): void {
    this.lastLine = this.now();
    this.write(line);
  }

  private ensureTimer(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.beat(), Math.max(250, this.heartbeatMs / 4));
    this.timer.unref();
  }

  /** Prints the running episodes when nothing was printed for a heartbeat. */
  beat(): void {
    if (this.running.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = this.now();
    if (now - this.lastLine < this.heartbeatMs) return;
    const list = [...this.running.entries()]
      .map(
        ([id, entry]) =>
          `${id} ${entry.doing} for ${seconds(now - entry.since)} (episode ${seconds(now - entry.began)})`,
      )
      .join("; ");
    this.emit(`swegym: running ${this.running.size}: ${list}`);
  }

  /** An episode started; `detail` says how its workspace was made. */
  start(id: string, detail: string): void {
    const now = this.now();
    this.running.set(id, { began: now, doing: "acting", since: now });
    this.emit(`swegym: ${id} started (${detail})`);
    this.ensureTimer();
  }

  /** What a running episode does now (a command, grading). */
  doing(id: string, what: string): void {
    const entry = this.running.get(id);
    if (entry === undefined) return;
    entry.doing = what;
    entry.since = this.now();
  }

  /** An episode ended (its grade, or closed ungraded); nothing when it was not running. */
  finish(id: string, outcome: string): void {
    const entry = this.running.get(id);
    if (entry === undefined) return;
    this.running.delete(id);
    this.emit(`swegym: ${id} ${outcome} in ${seconds(this.now() - entry.began)}`);
  }
}
