import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const cli = join(import.meta.dirname, "..", "..", "dist", "cli.js");

describe("hs serve", () => {
  it("serves the dashboard until Ctrl-C, then exits 0", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-serve-"));
    const child = spawn(process.execPath, [cli, "serve", directory, "--port", "0"], { stdio: "pipe" });
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`hs serve exited with ${code}: ${output}`)));
    });
    const state = (await (await fetch(new URL("/api/state", url))).json()) as {
      directories: { path: string }[];
    };
    expect(state.directories.map((entry) => entry.path)).toEqual([directory]);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 30_000);

  it("refuses to start without a directory, and a port that is not one", async () => {
    const { main } = await import("../main.js");
    let stderr = "";
    const io = { stdout: () => {}, stderr: (text: string) => (stderr += text) };
    expect(await main(["serve"], io)).toBe(2);
    expect(stderr).toMatch(/name at least one run or experiment directory/);
    expect(await main(["serve", ".", "--port", "70000"], io)).toBe(2);
    expect(stderr).toMatch(/--port expects an integer of at least 0 and at most 65535/);
  }, 30_000);
});
