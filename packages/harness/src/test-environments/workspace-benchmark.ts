import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import type {
  BenchmarkV1,
  EnvironmentCallOptions,
  EnvironmentV1,
  EpisodeOutcome,
  Task,
  ToolResult,
  ToolSpec,
} from "@hs/spec";
import { EnvironmentError } from "@hs/spec";
import { createHarnessConfig } from "../parse-harness-config.js";

const buggySource = "export function add(a, b) {\n  return a - b;\n}\n";
const testSource = [
  'import { add } from "./calc.mjs";',
  "const sum = add(2, 3);",
  'if (sum !== 5) { console.error("add(2, 3) = " + sum); process.exit(1); }',
  'console.log("1 passed");',
  "",
].join("\n");

const tools: ToolSpec[] = [
  {
    name: "run_shell",
    description: "Run a bash command in the repository.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  },
  {
    name: "write_file",
    description: "Write a file of the repository.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "submit",
    description: "Submit the patch as it is in the workspace.",
    parameters: { type: "object", properties: {} },
    terminal: true,
  },
];

/** Runs a command in a directory as a real subprocess, with a time limit and cancellation. */
export function runCommand(
  command: string,
  cwd: string,
  limits: { timeoutMs: number; maxOutputChars: number },
  options: EnvironmentCallOptions = {},
): Promise<{ exitCode: number | null; output: string; timedOut: boolean }> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    let timedOut = false;
    const collect = (chunk: Buffer) => {
      if (output.length < limits.maxOutputChars) output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const kill = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limits.timeoutMs);
    const onAbort = () => kill();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(new EnvironmentError(`could not run ${command}`, { cause: error }));
    });
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      done({ exitCode, output: output.slice(0, limits.maxOutputChars), timedOut });
    });
  });
}

/**
 * Test equipment with the shape of SWE-Gym: each episode gets its own workspace with a real bug, runs
 * real shell commands in it, and is graded by running the test file as a subprocess.
 */
export function createWorkspaceBenchmark(
  limits = { timeoutMs: 10_000, maxOutputChars: 4_000 },
): BenchmarkV1 & { workspaces: string[] } {
  const workspaces: string[] = [];
  return {
    specificationVersion: "v1",
    id: "workspace",
    splits: ["train"],
    presets: {
      tools: createHarnessConfig({ id: "workspace-tools", budget: { maxSteps: 8, maxOutputChars: null } }),
    },
    defaultPreset: "tools",
    workspaces,
    async loadTasks() {
      const task: Task = {
        id: "workspace/calc-add",
        benchmark: "workspace",
        split: "train",
        category: "bugfix",
        instruction: "add(2, 3) returns -1 instead of 5 in calc.mjs. Fix it; test.mjs must pass.",
        metadata: {},
      };
      return { tasks: [task], problems: [] };
    },
    async createEnvironment(): Promise<EnvironmentV1> {
      let directory = "";
      return {
        specificationVersion: "v1",
        tools,
        async reset() {
          directory = await mkdtemp(join(tmpdir(), "hs-workspace-"));
          workspaces.push(directory);
          await writeFile(join(directory, "calc.mjs"), buggySource);
          await writeFile(join(directory, "test.mjs"), testSource);
        },
        async step(call, options): Promise<ToolResult> {
          if (call.name === "run_shell") {
            const run = await runCommand(String(call.arguments.command), directory, limits, options);
            const status = run.timedOut
              ? `timed out after ${limits.timeoutMs} ms`
              : `exit code ${run.exitCode}`;
            return {
              content: `${run.output}\n[${status}]`,
              isError: run.timedOut || run.exitCode !== 0,
              done: false,
            };
          }
          if (call.name === "write_file") {
            const target = resolve(directory, String(call.arguments.path));
            if (relative(directory, target).startsWith("..")) {
              return { content: "path leaves the workspace", isError: true, done: false };
            }
            await writeFile(target, String(call.arguments.content));
            return { content: "written", isError: false, done: false };
          }
          if (call.name === "submit") return { content: "submitted", isError: false, done: true };
          return { content: `unknown tool ${call.name}`, isError: true, done: false };
        },
        async grade(options) {
          const run = await runCommand("node test.mjs", directory, limits, options);
          const success = run.exitCode === 0;
          return { reward: success ? 1 : 0, success, details: { testOutput: run.output } };
        },
        async close() {
          if (directory !== "") await rm(directory, { recursive: true, force: true });
        },
      };
    },
    summarize(outcomes: readonly EpisodeOutcome[]) {
      return {
        resolved: outcomes.filter((outcome) => outcome.success).length / Math.max(1, outcomes.length),
      };
    },
  };
}
