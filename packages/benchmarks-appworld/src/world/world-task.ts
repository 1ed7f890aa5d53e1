import { actAsSupervisor, newSession } from "./call-api.js";
import { cloneDatabase, type WorldDatabase } from "./database.js";
import { type DatabaseDiff, diffDatabases } from "./database-diff.js";
import { seedOf } from "./random.js";
import type { ScenarioDefinition } from "./scenarios/scenario.js";
import { seedWorld } from "./seed-world.js";

/** The splits of the offline world (AppWorld has train, dev, test_normal, test_challenge). */
export const offlineSplits = ["train", "dev", "test"] as const;
/** A split of the offline world. */
export type OfflineSplit = (typeof offlineSplits)[number];

/**
 * Everything about one offline task, gold included. Lives only inside the offline world's server and
 * grader; the benchmark's `Task` carries none of it.
 */
export interface WorldTask {
  /** `<scenario>_<n>`. */
  taskId: string;
  /** Scenario id. */
  scenarioId: string;
  /** Split of the scenario. */
  split: OfflineSplit;
  /** Difficulty 1-3. */
  difficulty: 1 | 2 | 3;
  /** Instruction. */
  instruction: string;
  /** Start state of the world. */
  start: WorldDatabase;
  /** Reference solution (Python). */
  solution: string;
  /** Expected answer (null: the task asks none). */
  answer: string | number | null;
  /** The intended database difference. */
  expectedDiff: DatabaseDiff;
}

/** The split of a scenario: by a hash of its id, so adding scenarios never moves others (60/20/20). */
export function splitOfScenario(scenarioId: string): OfflineSplit {
  const bucket = seedOf(`split:${scenarioId}`) % 10;
  return bucket < 6 ? "train" : bucket < 8 ? "dev" : "test";
}

/** Builds one task of a scenario: seeds its world, plants its data, derives the expected difference. */
export function buildWorldTask(scenario: ScenarioDefinition, variant: 1 | 2 | 3): WorldTask {
  const taskId = `${scenario.id}_${variant}`;
  const { database, random } = seedWorld(taskId);
  const built = scenario.build(database, variant, random);
  const expected = cloneDatabase(database);
  built.effect(actAsSupervisor(expected, newSession()), cloneDatabase(database));
  return {
    taskId,
    scenarioId: scenario.id,
    split: splitOfScenario(scenario.id),
    difficulty: scenario.difficulty,
    instruction: built.instruction,
    start: database,
    solution: built.solution,
    answer: built.answer,
    expectedDiff: diffDatabases(database, expected),
  };
}
