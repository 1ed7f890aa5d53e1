import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const workerScript = fileURLToPath(new URL("./worker-process.mjs", import.meta.url));

/** A worker process (`worker-process.mjs`), resolved once it prints `ready`. */
export function spawnWorker(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [workerScript, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((ready, fail) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) ready(child);
    });
    child.on("exit", (code) => fail(new Error(`worker process exited with ${code} before it was ready`)));
  });
}

/** Kills a process with SIGKILL and waits for it to be gone. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((gone) => {
    if (child.exitCode !== null || child.signalCode !== null) return gone();
    child.once("exit", () => gone());
    child.kill("SIGKILL");
  });
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((found, fail) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null ? found(address.port) : fail(new Error("no port")),
      );
    });
  });
}

/** A private `redis-server` on `port` with no data kept on disk; resolved once it accepts connections. */
export function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((ready, fail) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready to accept connections")) ready(child);
    });
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`redis-server exited with ${code}`)));
  });
}
