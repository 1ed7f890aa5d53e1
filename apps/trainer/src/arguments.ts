import { type CommandArguments, UsageError } from "./command.js";

/** What a numeric option accepts. */
export interface NumberRule {
  /** `integer`: decimal digits only; `number`: a finite decimal (exponent allowed). */
  kind: "integer" | "number";
  /** Smallest accepted value (inclusive). */
  min?: number;
  /** Largest accepted value (inclusive). */
  max?: number;
  /** The smallest value is excluded (e.g. a learning rate must be above 0). */
  exclusiveMin?: boolean;
}

const integerText = /^[+-]?\d+$/;
const numberText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const positive: NumberRule = { kind: "integer", min: 1 };
const nonNegative: NumberRule = { kind: "integer", min: 0 };

/**
 * The one range table of every numeric `hs` option, by option name (the same name means the same
 * thing in every command). Checked before a command starts any work.
 */
export const numberRules: Record<string, NumberRule> = {
  seed: { kind: "integer", min: 0, max: 2 ** 32 - 1 },
  budget: positive,
  "group-size": { kind: "integer", min: 2 },
  "prompts-per-step": positive,
  "learning-rate": { kind: "number", min: 0, exclusiveMin: true },
  epochs: positive,
  kl: { kind: "number", min: 0 },
  hidden: { kind: "integer", min: 1, max: 4096 },
  k: positive,
  "rescue-budget": positive,
  "reanchor-every": nonNegative,
  tasks: nonNegative,
  rollouts: positive,
  generations: nonNegative,
  candidates: positive,
  "success-sample": nonNegative,
  "max-failures": positive,
  "min-rescues": nonNegative,
  "control-p": { kind: "number", min: 0, max: 1, exclusiveMin: true },
  step: nonNegative,
  seeds: positive,
  workers: { kind: "integer", min: 1, max: 256 },
  concurrency: { kind: "integer", min: 1, max: 64 },
  "evolve-tasks": positive,
  "judge-timeout": { kind: "integer", min: 1 },
  "judge-retries": { kind: "integer", min: 0, max: 20 },
  "llm-timeout": { kind: "integer", min: 1 },
  "llm-retries": { kind: "integer", min: 0, max: 20 },
  port: { kind: "integer", min: 0, max: 65535 },
};

/** Options that mean nothing without another one: option -> the option it needs. */
export const requiredCompanions: Record<string, string> = {
  "llm-base-url": "llm-model",
  "llm-timeout": "llm-model",
  "llm-retries": "llm-model",
  "judge-base-url": "judge-model",
  "judge-retries": "judge-model",
  "allow-profile-mismatch": "profiles",
};

/** Commands whose positionals are required inputs (the others take none). */
export const positionalCommands: Record<string, string> = {
  report: "experiment directories",
  serve: "run or experiment directories",
};

function describeRule(rule: NumberRule): string {
  const kind = rule.kind === "integer" ? "an integer" : "a number";
  const lower =
    rule.min === undefined
      ? ""
      : rule.exclusiveMin === true
        ? ` above ${rule.min}`
        : ` of at least ${rule.min}`;
  const upper = rule.max === undefined ? "" : `${lower === "" ? "" : " and"} at most ${rule.max}`;
  return `${kind}${lower}${upper}`;
}

/**
 * Parses one numeric option text strictly: no empty text, no hexadecimal, octal or binary literals,
 * no `Infinity`/`NaN`, no value outside the rule's range. Throws a `UsageError` naming the option.
 */
export function parseNumberText(name: string, text: string, rule: NumberRule): number {
  const trimmed = text.trim();
  const shape = rule.kind === "integer" ? integerText : numberText;
  const expected = describeRule(rule);
  if (trimmed === "") throw new UsageError(`--${name} expects ${expected}, got an empty value`);
  if (!shape.test(trimmed)) throw new UsageError(`--${name} expects ${expected} (decimal), got "${text}"`);
  const value = Number(trimmed);
  if (!Number.isFinite(value) || (rule.kind === "integer" && !Number.isSafeInteger(value)))
    throw new UsageError(`--${name} expects ${expected}, got "${text}" (out of range)`);
  const belowMin =
    rule.min !== undefined && (rule.exclusiveMin === true ? value <= rule.min : value < rule.min);
  if (belowMin || (rule.max !== undefined && value > rule.max))
    throw new UsageError(`--${name} expects ${expected}, got ${text}`);
  return value;
}

function checkNumbers(values: CommandArguments["values"]): void {
  for (const [name, value] of Object.entries(values)) {
    const rule = numberRules[name];
    if (rule === undefined || value === undefined) continue;
    for (const entry of Array.isArray(value) ? value : [value]) {
      if (typeof entry === "string") parseNumberText(name, entry, rule);
    }
  }
}

function checkStrings(values: CommandArguments["values"]): void {
  for (const [name, value] of Object.entries(values)) {
    for (const entry of Array.isArray(value) ? value : [value]) {
      if (typeof entry === "string" && entry.trim() === "")
        throw new UsageError(`--${name} expects a value, got an empty one`);
    }
  }
}

function checkPositionals(command: string, positionals: readonly string[]): void {
  if (positionalCommands[command] !== undefined) return;
  const [first] = positionals;
  if (first === undefined) return;
  throw new UsageError(
    `unexpected argument "${first}": hs ${command} takes no positional arguments (a boolean flag takes no value; write --flag alone)`,
  );
}

function checkCompanions(values: CommandArguments["values"]): void {
  for (const [name, needed] of Object.entries(requiredCompanions)) {
    if (values[name] !== undefined && values[needed] === undefined)
      throw new UsageError(`--${name} needs --${needed}`);
  }
}

/**
 * The checks every command's arguments pass before the command runs: no stray positionals, no empty
 * values, every numeric option in range, no option without the option it needs.
 */
export function checkArguments(command: string, args: CommandArguments): void {
  checkPositionals(command, args.positionals);
  checkStrings(args.values);
  checkNumbers(args.values);
  checkCompanions(args.values);
}

/** Reads a numeric option with the range of `numberRules` (or `rule`), or the fallback when absent. */
export function numberArgument(
  args: CommandArguments,
  name: string,
  fallback: number,
  rule: NumberRule = numberRules[name] ?? { kind: "number" },
): number {
  const value = args.values[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string") throw new UsageError(`--${name} expects a value`);
  return parseNumberText(name, value, rule);
}

/**
 * A training budget must pay for at least one step: a step needs at least one full group, so a budget
 * below `--group-size` trains nothing and is an error. A budget below a full step (group size x
 * prompts per step) trains one smaller step; that is said through `warn`.
 */
export function checkStepBudget(
  budget: number,
  groupSize: number,
  promptsPerStep: number,
  warn: (message: string) => void,
): void {
  if (budget < groupSize)
    throw new UsageError(
      `--budget ${budget} is smaller than one step: a step needs at least one group of --group-size ${groupSize} rollouts, so no step could run`,
    );
  if (budget < groupSize * promptsPerStep)
    warn(
      `train: --budget ${budget} is below one full step (${groupSize} rollouts x ${promptsPerStep} prompts = ${groupSize * promptsPerStep}); the only step trains ${Math.floor(budget / groupSize)} groups`,
    );
}
