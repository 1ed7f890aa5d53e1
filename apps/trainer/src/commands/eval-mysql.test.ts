// The built dist/cli.js as a subprocess (run `pnpm build` first): only a real process shows whether a
// connection left open keeps it alive after the result is printed.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const url = process.env.HS_MYSQL_URL;
if (url === undefined) console.warn("SKIPPED: hs eval against MariaDB (HS_MYSQL_URL is not set).");

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "../../dist/cli.js");
const devFile = join(here, "../../../../packages/benchmarks-dbbench/data/dev.jsonl");
/** How long the process may live after printing its result before it counts as hanging. */
const exitGraceMs = 5_000;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the first byte of stdout to the exit. */
  afterOutputMs: number | null;
}

function runCli(args: string[], limitMs: number): Promise<Exit | "still running"> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let printedAt: number | null = null;
  child.stdout.on("data", (chunk) => {
    printedAt ??= Date.now();
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve("still running");
    }, limitMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, afterOutputMs: printedAt === null ? null : Date.now() - printedAt });
    });
  });
}

describe.skipIf(url === undefined)("hs eval --engine mysql:// (HS_MYSQL_URL)", () => {
  it("prints its result and exits: the engine's connection pool is closed", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-eval-mysql-"));
    const three = join(directory, "three.jsonl");
    const lines = readFileSync(devFile, "utf8").split("\n").filter(Boolean);
    writeFileSync(three, `${lines.slice(0, 3).join("\n")}\n`);
    const args = ["eval", "--bench", "dbbench", "--engine", url ?? "", "--data", three, "--json"];
    const exit = await runCli(args, 60_000);
    if (exit === "still running") throw new Error("hs eval was still running after 60 s");
    expect(exit.stderr).not.toMatch(/Error/);
    expect(exit.code).toBe(0);
    expect(JSON.parse(exit.stdout)).toMatchObject({ n: 3 });
    expect(exit.afterOutputMs).not.toBeNull();
    expect(exit.afterOutputMs as number).toBeLessThan(exitGraceMs);
  }, 90_000);
});
