import type { Task } from "@hs/spec";
import { EnvironmentError } from "@hs/spec";

/** Closes an episode's environment; a throw names the call, the benchmark and the task. */
export async function closeEnvironment(
  environment: { close(): Promise<void> },
  benchmark: { id: string },
  task: Task,
): Promise<void> {
  try {
    await environment.close();
  } catch (error) {
    throw new EnvironmentError(
      `benchmark ${benchmark.id}: close() of the environment of task ${task.id} threw: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
