import {
  readGroundTruthAnswer,
  readGroundTruthMetadata,
  readGroundTruthSolution,
  readTaskSpecs,
} from "../dataset/appworld-data.js";
import { scenarioOfTaskId } from "../metrics/appworld-metrics.js";
import type { TaskInfo } from "../protocol/schemas.js";
import { callApi, newSession } from "../world/call-api.js";
import { cloneDatabase, type WorldDatabase } from "../world/database.js";
import { diffDatabases } from "../world/database-diff.js";
import { PythonShell, type SandboxMode } from "../world/python-shell.js";
import { seedWorld } from "../world/seed-world.js";
import type { WorldTask } from "../world/world-task.js";

/** The preamble every world of this server runs first: AppWorld's shell has `apis` and `requester`. */
export const requesterPreamble = "requester = None";

/** A task of an AppWorld-layout dataset as this server holds it, gold included (server side only). */
export interface UpstreamTask {
  /** What `/initialize` and GET `/tasks/{id}` return (`task_to_dict`, environment.py:49-62). */
  info: TaskInfo;
  /** The world and checks, in the offline world's terms. */
  world: WorldTask;
}

/**
 * Loads a task from `<root>/data/tasks/<id>`: the instruction, supervisor and datetime from
 * `specs.json`, the difficulty from `ground_truth/metadata.json`, the answer from `answer.json`.
 * This server has no AppWorld databases: the start world is the offline world's seed for the task id,
 * and the intended database difference is the one the task's ground-truth solution makes when the
 * server replays it on a copy of that start (the offline world's state checks).
 */
export async function loadUpstreamTask(
  root: string,
  taskId: string,
  sandbox: SandboxMode | undefined,
): Promise<UpstreamTask> {
  const specs = await readTaskSpecs(root, taskId);
  const metadata = await readGroundTruthMetadata(root, taskId);
  const answer = await readGroundTruthAnswer(root, taskId);
  const solution = await readGroundTruthSolution(root, taskId);
  const supervisor = (specs.supervisor ?? specs.main_user) as TaskInfo["supervisor"];
  const { database } = seedWorld(taskId);
  database.datetime = specs.datetime;
  const expected = await replay(database, solution, sandbox);
  const world: WorldTask = {
    taskId,
    scenarioId: scenarioOfTaskId(taskId),
    split: "train",
    difficulty: metadata.difficulty as 1 | 2 | 3,
    instruction: specs.instruction,
    start: database,
    solution,
    answer: answer === null ? null : (answer as string | number),
    expectedDiff: diffDatabases(database, expected),
  };
  const info: TaskInfo = {
    task_id: taskId,
    instruction: specs.instruction,
    supervisor: {
      first_name: supervisor.first_name,
      last_name: supervisor.last_name,
      email: supervisor.email,
      phone_number: supervisor.phone_number,
    },
    datetime: specs.datetime,
  };
  return { info, world };
}

async function replay(
  start: WorldDatabase,
  code: string,
  sandbox: SandboxMode | undefined,
): Promise<WorldDatabase> {
  const database = cloneDatabase(start);
  const session = newSession();
  const shell = new PythonShell({
    callApi: (app, api, args) => callApi(database, session, app, api, args),
    ...(sandbox === undefined ? {} : { sandbox }),
  });
  await shell.start();
  try {
    await shell.execute(requesterPreamble);
    const output = await shell.execute(code);
    if (output.startsWith("Execution failed."))
      throw new Error(`the ground-truth solution of the task failed on this server: ${output.slice(-300)}`);
  } finally {
    await shell.close();
  }
  return database;
}
