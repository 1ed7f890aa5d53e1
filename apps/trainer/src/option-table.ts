import type { ParseArgsConfig } from "node:util";

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

/** One option of an `hs` command: how it is parsed, what it defaults to, and its line of help. */
export interface OptionSpec {
  /** `string` takes a value; `boolean` is a flag that takes none. */
  type: "string" | "boolean";
  /** The value's placeholder in help (`N`, `DIR`, `FILE`); string options only. */
  value?: string;
  /** What the option does, as help shows it. */
  description: string;
  /** The value used when the option is absent, shown in help as "(default X)". */
  default?: number | string;
  /** What the default means, shown after it: "(default 0: never)". */
  defaultNote?: string;
  /** The range of a numeric option, checked before the command starts any work. */
  number?: NumberRule;
  /** The option may be given more than once (its values are collected); others are refused twice. */
  multiple?: boolean;
  /** The option means nothing without this other one (`--llm-timeout` needs `--llm-model`). */
  needs?: string;
}

/** A command's options by name (without the leading `--`), in the order help lists them. */
export type OptionTable = Record<string, OptionSpec>;

/** The table as `node:util` parseArgs options. */
export function parseArgsOptions(table: OptionTable): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(
    Object.entries(table).map(([name, spec]) => [
      name,
      spec.multiple === true ? { type: spec.type, multiple: true } : { type: spec.type },
    ]),
  );
}

/** The option's flag as help shows it: `--k K`, `--json`. */
export function flagText(name: string, spec: Pick<OptionSpec, "type" | "value">): string {
  return spec.type === "string" ? `--${name} ${spec.value ?? "VALUE"}` : `--${name}`;
}

function describeDefault(spec: OptionSpec): string {
  if (spec.default === undefined) return "";
  const note = spec.defaultNote === undefined ? "" : `: ${spec.defaultNote}`;
  return ` (default ${spec.default}${note})`;
}

/** The widest line of help; longer descriptions wrap under their own column. */
export const helpWidth = 104;
const widestFlagColumn = 26;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((part) => part !== "")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The help lines of a table: one entry per option, the descriptions aligned and wrapped. */
export function renderOptionTable(table: OptionTable): string {
  const entries = Object.entries(table).map(([name, spec]) => ({
    flag: flagText(name, spec),
    text: `${spec.description}${describeDefault(spec)}${spec.multiple === true ? " (repeatable)" : ""}`,
  }));
  const column = Math.min(widestFlagColumn, Math.max(0, ...entries.map((entry) => entry.flag.length))) + 4;
  return entries
    .map(({ flag, text }) => {
      const [first = "", ...rest] = wrap(text, helpWidth - column);
      const head = flag.length + 4 <= column ? `  ${flag.padEnd(column - 2)}${first}` : `  ${flag}  ${first}`;
      return [head, ...rest.map((line) => `${" ".repeat(column)}${line}`)].join("\n");
    })
    .join("\n");
}
