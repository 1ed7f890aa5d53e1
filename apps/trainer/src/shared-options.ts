import type { NumberRule, OptionSpec } from "./option-table.js";
import { routerOptionUsage } from "./routers.js";

const positive: NumberRule = { kind: "integer", min: 1 };
const nonNegative: NumberRule = { kind: "integer", min: 0 };

/**
 * The options several commands take, each defined once: the same name is the same type, value range
 * and meaning in every command (a command may word its description or default for its own use).
 */
export const sharedOptions = {
  bench: {
    type: "string",
    value: "NAME",
    description: "benchmark: dbbench, swegym, appworld, a plugin package or a path to one",
  },
  seed: {
    type: "string",
    value: "S",
    description: "seed of the policy and episodes",
    default: 0,
    number: { kind: "integer", min: 0, max: 2 ** 32 - 1 },
  },
  out: { type: "string", value: "FILE", description: "output file (required)" },
  router: { type: "string", value: "SPEC", description: `the router: ${routerOptionUsage}` },
  split: {
    type: "string",
    value: "NAME",
    description: "bundled split (default: the benchmark's training split)",
  },
  data: {
    type: "string",
    value: "FILE",
    description: "tasks from a file of the benchmark's format instead",
  },
  harness: {
    type: "string",
    value: "NAME",
    description: "base, a preset name, or a harness JSON file",
    default: "base",
  },
  policy: {
    type: "string",
    value: "SPEC",
    description: "embedded (untrained weights of --seed, default) or embedded:DIR",
  },
  pool: { type: "string", value: "FILE", description: "the frozen sibling pool (hs evolve)" },
  profiles: {
    type: "string",
    value: "FILE",
    description: "profiles for the router (hs profile)",
  },
  "allow-profile-mismatch": {
    type: "boolean",
    description: "ignore (with a warning) profiles of harnesses the pool lacks instead of refusing them",
    needs: "profiles",
  },
  k: { type: "string", value: "K", description: "siblings per rescue", default: 2, number: positive },
  tasks: { type: "string", value: "N", description: "use only the first N tasks", number: nonNegative },
  concurrency: {
    type: "string",
    value: "N",
    description: "episodes in flight at once (results do not depend on it)",
    default: 1,
    // up to 256: LLM-bound episodes on the queue's workers wait on a model server, not on this machine
    number: { kind: "integer", min: 1, max: 256 },
  },
  rollouts: { type: "string", value: "N", description: "rollouts per task", number: positive },
  generations: {
    type: "string",
    value: "G",
    description: "evolve's generations per direction",
    number: nonNegative,
  },
  candidates: {
    type: "string",
    value: "C",
    description: "evolve's operator children per parent and generation",
    number: positive,
  },
  "max-failures": {
    type: "string",
    value: "N",
    description: "base failures per direction an evolve candidate is validated on",
    number: positive,
  },
  budget: { type: "string", value: "N", description: "rollouts per training run", number: positive },
  "group-size": {
    type: "string",
    value: "G",
    description: "rollouts per prompt in training",
    number: { kind: "integer", min: 2 },
  },
  "prompts-per-step": {
    type: "string",
    value: "P",
    description: "groups per update in training",
    number: positive,
  },
  "reanchor-every": {
    type: "string",
    value: "N",
    description: "harness-s re-anchors its profiles every N steps (0: never)",
    number: nonNegative,
  },
  "rescue-gate": {
    type: "string",
    value: "G",
    description:
      "always (every all-fail group is rescued) or yield (only while the run's rescues have bought groups with signal at least as cheaply a rollout as its fresh prompts; the untried rescue counted as one success)",
    defaultNote: "always",
  },
  "credit-harness-calls": {
    type: "boolean",
    description:
      "train a rescued trajectory's harness calls (AppWorld: a doc read, an API list, a login; DBBench: a column's distinct values, a preview, a change's read-back; SWE-Gym: a test run, a trace, a frame's lines) as the policy's own decisions under the view without them (embedded policy)",
  },
  port: {
    type: "string",
    value: "P",
    description: "the dashboard's port",
    number: { kind: "integer", min: 0, max: 65535 },
  },
  json: { type: "boolean", description: "print the result as JSON" },
  redis: {
    type: "string",
    value: "URL",
    description:
      "run every episode on the rollout workers of this Redis (hs worker --redis URL); the same seed gives the same results as in this process",
  },
  "episode-time-limit": {
    type: "string",
    value: "MS",
    description: "a worker gives up an episode after MS and the job is run again",
    default: 600_000,
    number: positive,
    needs: "redis",
  },
} as const satisfies Record<string, OptionSpec>;

/** A shared option with the command's own wording; its type, range and companion stay the shared ones. */
export function sharedOption(
  name: keyof typeof sharedOptions,
  wording: Partial<Pick<OptionSpec, "description" | "default" | "defaultNote" | "value">> = {},
): OptionSpec {
  return { ...sharedOptions[name], ...wording };
}
