import { EnvironmentError } from "@hs/spec";

/** A leased server URL; release it when the episode is closed. */
export interface ServerLease {
  /** Base URL of the leased server. */
  url: string;
  /** Returns the server to the pool. Safe to call twice. */
  release(): void;
}

/**
 * A pool of AppWorld environment servers, one leased per episode: each server holds one world at a
 * time, so two episodes never share one (verl-agent starts one server per parallel environment).
 * `lease` waits for a free server, in the order episodes asked.
 */
export class ServerPool {
  private readonly free: string[];
  private readonly waiting: Array<{ resolve: (url: string) => void; reject: (error: Error) => void }> = [];

  constructor(urls: readonly string[]) {
    if (urls.length === 0) throw new EnvironmentError("an AppWorld server pool needs at least one URL");
    this.free = [...urls];
  }

  /** Leases a free server, waiting until one is released when all are busy. */
  async lease(signal?: AbortSignal): Promise<ServerLease> {
    const url = this.free.shift() ?? (await this.waitForServer(signal));
    let released = false;
    return {
      url,
      release: () => {
        if (released) return;
        released = true;
        this.giveBack(url);
      },
    };
  }

  /** Servers not leased right now. */
  get freeCount(): number {
    return this.free.length;
  }

  private giveBack(url: string): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free.push(url);
    else next.resolve(url);
  }

  private waitForServer(signal: AbortSignal | undefined): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const entry = { resolve, reject };
      this.waiting.push(entry);
      signal?.addEventListener(
        "abort",
        () => {
          const index = this.waiting.indexOf(entry);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new EnvironmentError("cancelled while waiting for a free AppWorld server"));
        },
        { once: true },
      );
    });
  }
}
