import { describe, expect, it } from "vitest";
import type { Command } from "./command.js";
import { commands } from "./commands/index.js";
import { overview, sharedOptionUse } from "./help.js";
import { main, parseWithTable } from "./main.js";
import type { OptionSpec } from "./option-table.js";
import { loadBenchmarkPlugin } from "./plugins.js";

async function help(argv: string[]) {
  let stdout = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: () => {} });
  expect(code).toBe(0);
  return stdout;
}

/** The option names of the "Options:" part of a help text (the lines that start with `  --`). */
function listedOptions(text: string): string[] {
  const part = text.split("\nOptions:\n")[1]?.split("\n\n")[0] ?? "";
  return [...part.matchAll(/^ {2}--([a-z0-9-]+)/gm)].map((match) => match[1] as string);
}

/** A value the option accepts, so that parsing it can only fail for being unknown. */
function acceptedValue(spec: OptionSpec): string[] {
  if (spec.type === "boolean") return [];
  if (spec.number === undefined) return ["x"];
  const { min = 1, exclusiveMin } = spec.number;
  return [String(exclusiveMin === true ? min + 1 : Math.max(min, 1))].map((value) =>
    spec.number?.max !== undefined && Number(value) > spec.number.max ? String(spec.number.max) : value,
  );
}

function argumentsFor(command: Command, name: string): string[] {
  const spec = command.options[name] as OptionSpec;
  const needed = spec.needs === undefined ? [] : argumentsFor(command, spec.needs);
  return [`--${name}`, ...acceptedValue(spec), ...needed];
}

describe("options and help come from one table", () => {
  it("help lists exactly the options the command parses, and each listed option parses", async () => {
    for (const command of commands) {
      const text = await help([command.name, "--help"]);
      expect(listedOptions(text), command.name).toEqual(Object.keys(command.options));
      for (const name of Object.keys(command.options))
        expect(
          () => parseWithTable(command, argumentsFor(command, name)),
          `${command.name} --${name}`,
        ).not.toThrow();
      expect(await help(["help", command.name])).toBe(text);
    }
  });

  it("every option a help text mentions is one the command (or its benchmark) parses", async () => {
    const dbbench = await loadBenchmarkPlugin("dbbench");
    for (const command of commands) {
      const text = await help([command.name, "--help"]);
      const known = new Set([...Object.keys(command.options), "help"]);
      if ("bench" in command.options) for (const name of Object.keys(dbbench.options)) known.add(name);
      // "hs OTHER --option" names another command's option
      const mentioned = [...text.matchAll(/(?:hs ([a-z-]+)\s+)?--([a-z][a-z0-9-]*)/g)]
        .filter(([, other, name]) => {
          const owner = commands.find((candidate) => candidate.name === other);
          return owner === undefined || !((name as string) in owner.options);
        })
        .map((match) => match[2] as string);
      expect(
        mentioned.filter((name) => !known.has(name)),
        command.name,
      ).toEqual([]);
    }
  });

  it("a benchmark plugin's options are listed after the command's and parsed", async () => {
    const text = await help(["gold-replay", "--bench", "dbbench", "--help"]);
    const dbbench = await loadBenchmarkPlugin("dbbench");
    for (const name of Object.keys(dbbench.options)) expect(text).toContain(`--${name}`);
    const gold = commands.find((command) => command.name === "gold-replay") as Command;
    const [first] = Object.keys(dbbench.options);
    expect(first).toBeDefined();
    expect(parseWithTable(gold, [`--${first}`, "x"], dbbench).values[first as string]).toBe("x");
    expect(() => parseWithTable(gold, [`--${first}`, "x"])).toThrow(/Unknown option/);
  });

  it("gives one option name one type and one value range in every command", () => {
    const seen = new Map<string, { command: string; spec: OptionSpec }>();
    for (const command of commands)
      for (const [name, spec] of Object.entries(command.options)) {
        const earlier = seen.get(name);
        if (earlier === undefined) seen.set(name, { command: command.name, spec });
        else
          expect(
            { type: spec.type, number: spec.number, needs: spec.needs },
            `--${name} of ${command.name} and ${earlier.command}`,
          ).toEqual({ type: earlier.spec.type, number: earlier.spec.number, needs: earlier.spec.needs });
      }
  });

  it("names in hs help the commands that take each shared option", () => {
    const text = overview(commands);
    for (const { name, commands: users } of sharedOptionUse(commands)) {
      if (users.length < 2) continue;
      expect(text).toMatch(new RegExp(`--${name} +${users.join(", ")}\\n`));
    }
  });
});
