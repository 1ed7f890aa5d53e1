import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FaultServer, startFaultServer } from "./__fixtures__/fault-server.js";
import { AppWorldClient } from "./appworld-client.js";
import { ServerPool } from "./server-pool.js";

let server: FaultServer;
beforeEach(async () => {
  server = await startFaultServer();
});
afterEach(async () => {
  await server.close();
});

function client(extra: Partial<ConstructorParameters<typeof AppWorldClient>[0]> = {}) {
  return new AppWorldClient({ baseUrl: server.url, retryDelayMs: 5, ...extra });
}

async function freePortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 1}`;
}

describe("AppWorldClient over real HTTP", () => {
  it("speaks every endpoint and reads each reply's output field", async () => {
    const appworld = client();
    const info = await appworld.initialize("music_1", { experiment_name: "t" });
    expect(info.supervisor.first_name).toBe("Ada");
    expect(await appworld.execute("print(1)")).toBe("ran: print(1)");
    const evaluation = await appworld.evaluate();
    expect(evaluation).toMatchObject({ success: false, difficulty: 2, num_tests: 2 });
    expect(evaluation.failures[0]?.trace).toBe("x");
    expect(await appworld.taskCompleted()).toBe(true);
    expect(await appworld.saveLogs()).toBeNull();
    expect((await appworld.getTask("music_2")).task_id).toBe("music_2");
    expect(await appworld.apiDocs()).toEqual({ notes: {} });
    await appworld.close();
    await appworld.close();
    expect(server.requests.filter((request) => request === "POST /close")).toHaveLength(1);
  });

  it("reports a server that is down, naming it", async () => {
    const appworld = new AppWorldClient({ baseUrl: await freePortUrl(), retries: 1, retryDelayMs: 5 });
    await expect(appworld.initialize("music_1")).rejects.toThrow(/server unreachable \(ECONNREFUSED\)/);
  });

  it("times out a slow server and retries a safe call", async () => {
    server.fault = { kind: "slow", delayMs: 300 };
    const appworld = client({ requestTimeoutMs: 50, retries: 1 });
    await expect(appworld.initialize("music_1")).rejects.toThrow(/no reply within 50 ms/);
    expect(server.requests.filter((request) => request === "POST /initialize")).toHaveLength(2);
  });

  it("retries a plain-text 500 on a safe call and succeeds", async () => {
    server.fault = { kind: "status", status: 500, times: 2 };
    const info = await client({ retries: 2 }).initialize("music_1");
    expect(info.task_id).toBe("music_1");
    expect(server.requests).toHaveLength(3);
  });

  it("keeps the status of a plain-text 500 once the retries are spent", async () => {
    server.fault = { kind: "status", status: 500, times: 9 };
    const failure = await client({ retries: 2 })
      .initialize("music_1")
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 500, isRetryable: true });
    expect(String(failure)).toMatch(/answered 500: Internal Server Error/);
    expect(server.requests).toHaveLength(3);
  });

  it("never retries execute: a 500 is reported and the code ran at most once", async () => {
    const appworld = client({ retries: 3 });
    await appworld.initialize("music_1");
    server.fault = { kind: "status", status: 500, times: 5 };
    await expect(appworld.execute("x = 1")).rejects.toThrow(/answered 500/);
    expect(server.requests.filter((request) => request === "POST /execute")).toHaveLength(1);
  });

  it("rejects garbage JSON and a reply without output", async () => {
    server.fault = { kind: "garbage" };
    await expect(client().initialize("music_1")).rejects.toThrow(/not JSON: <html>oops/);
    server.fault = { kind: "bad-shape" };
    await expect(client().initialize("music_1")).rejects.toThrow(/unexpected reply at field "output"/);
  });

  it("refuses a server that answers for a different task", async () => {
    server.fault = { kind: "wrong-task" };
    await expect(client().initialize("music_1")).rejects.toThrow(
      /initialized task "other_9" when asked for "music_1"/,
    );
    await expect(client().getTask("music_1")).rejects.toThrow(/described task "other_9"/);
  });

  it("surfaces the server's 400 when another client re-initialized it", async () => {
    const first = client();
    await first.initialize("music_1");
    await client().initialize("notes_2");
    await expect(first.execute("x")).rejects.toThrow(/answered 400: .*active task world is notes_2/);
  });

  it("refuses execute before initialize", async () => {
    await expect(client().execute("x")).rejects.toThrow(/before \/initialize/);
  });
});

describe("ServerPool", () => {
  it("leases each server to one episode and queues the rest", async () => {
    const pool = new ServerPool(["http://a", "http://b"]);
    const first = await pool.lease();
    const second = await pool.lease();
    expect(new Set([first.url, second.url]).size).toBe(2);
    let third: string | undefined;
    const waiting = pool.lease().then((lease) => {
      third = lease.url;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(third).toBeUndefined();
    first.release();
    first.release();
    await waiting;
    expect(third).toBe(first.url);
    expect(pool.freeCount).toBe(0);
  });
});
