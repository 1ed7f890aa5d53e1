import { type Command, type CommandArguments, tableDefault, UsageError } from "./command.js";
import type { NumberRule, OptionTable } from "./option-table.js";

const integerText = /^[+-]?\d+$/;
const numberText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

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

function checkNumbers(values: CommandArguments["values"], options: OptionTable): void {
  for (const [name, value] of Object.entries(values)) {
    const rule = options[name]?.number;
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

/** What `checkArguments` reads of a command. */
export type CheckedCommand = Pick<Command, "name" | "options" | "positionals">;

function checkPositionals(command: CheckedCommand, positionals: readonly string[]): void {
  if (command.positionals !== undefined) return;
  const [first] = positionals;
  if (first === undefined) return;
  throw new UsageError(
    `unexpected argument "${first}": hs ${command.name} takes no positional arguments (a boolean flag takes no value; write --flag alone)`,
  );
}

function checkCompanions(values: CommandArguments["values"], options: OptionTable): void {
  for (const [name, spec] of Object.entries(options)) {
    const needed = spec.needs;
    if (needed !== undefined && values[name] !== undefined && values[needed] === undefined)
      throw new UsageError(`--${name} needs --${needed}`);
  }
}

/**
 * The checks every command's arguments pass before the command runs: no stray positionals, no empty
 * values, every numeric option in the range its table gives, no option without the option it needs.
 */
export function checkArguments(
  command: CheckedCommand,
  args: Pick<CommandArguments, "values" | "positionals">,
): void {
  checkPositionals(command, args.positionals);
  checkStrings(args.values);
  checkNumbers(args.values, command.options);
  checkCompanions(args.values, command.options);
}

/**
 * Reads a numeric option with the range its table gives (or `rule`); absent, `fallback` or else the
 * table's default.
 */
export function numberArgument(
  args: CommandArguments,
  name: string,
  fallback?: number,
  rule: NumberRule = args.options[name]?.number ?? { kind: "number" },
): number {
  const value = args.values[name];
  if (value === undefined) return fallback ?? tableDefault(args, name);
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
