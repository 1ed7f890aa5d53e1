import { createHarnessConfig, createRandom, genericLibrary } from "@hs/harness";
import { lookupTextHarness } from "@hs/harness/test-environments";
import { directionSection, fixDirections, type HarnessConfig } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { listAnswerLibrary } from "./__fixtures__/list-answer-library.js";
import {
  applyOperator,
  assertDirectionalEdit,
  builtinOperators,
  changedSections,
  DirectionViolationError,
  everySingleEdit,
  type MutationOperator,
  operatorsOf,
  sectionNames,
} from "./operators.js";

const richBase: HarnessConfig = createHarnessConfig({
  ...lookupTextHarness,
  id: "rich",
  prompt: { ...lookupTextHarness.prompt, hints: ["Be brief."] },
  context: { keepLastTurns: 4, truncateObservationChars: 200, truncationMarker: "[cut]", pinTask: false },
  budget: { maxSteps: 6, maxOutputChars: 2000 },
  tools: { expose: ["lookup", "dump", "submit"], macros: [] },
  verification: { enabled: true, prompt: "Sure about {answer}?", maxChecks: 1 },
  actionFormat: {
    kind: "text",
    rules: [
      { tool: "lookup", pattern: "^lookup:\\s*(\\S+)", flags: "m", arguments: { key: 1 } },
      { tool: "submit", pattern: "^```sql\\n(.*)```", flags: "s", arguments: { answer: 1 } },
    ],
  },
});
const bases = [lookupTextHarness, richBase, createHarnessConfig({ id: "tools" })];
const library = {
  ...listAnswerLibrary,
  macros: [
    {
      name: "lookup_twice",
      description: "Look a key up twice.",
      parameters: { type: "object", properties: { key: { type: "string" } } },
      steps: [{ tool: "lookup", arguments: { key: "{key}" } }],
    },
  ],
  preludes: [{ header: "The harness looked first:", calls: [{ tool: "dump", arguments: {} }] }],
  followUps: [
    {
      tools: ["lookup"],
      resultPattern: "^no such key",
      resultFlags: "",
      note: "That key does not exist; the harness listed the table:",
      calls: [{ tool: "dump", arguments: {} }],
      maxPerEpisode: 1,
    },
    {
      tools: ["lookup"],
      resultPattern: "^\\[\\]$",
      resultFlags: "",
      note: "An empty reply; the harness listed the table:",
      calls: [{ tool: "dump", arguments: {} }],
      maxPerEpisode: 1,
    },
  ],
  checkCalls: [
    {
      prompt: "About to answer {answer}; the harness looked the key up again:",
      calls: {
        captureTool: "lookup",
        capture: { source: "argument" as const, argument: "key", pattern: "^(?<key>\\w+)$", flags: "" },
        calls: [{ tool: "lookup", arguments: { key: "{key}" } }],
      },
    },
  ],
  stepBudgets: [4, 12],
};

describe("harness-call operators", () => {
  const context = (seed: number) => ({
    random: createRandom(seed),
    library,
    toolNames: ["lookup", "dump", "submit"],
  });
  const named = (name: string) =>
    builtinOperators.find((operator) => operator.name === name) as MutationOperator;

  it("add-prelude, add-follow-up and add-check-calls set the library's harness calls in their own section", () => {
    const prelude = applyOperator(named("add-prelude"), lookupTextHarness, context(1));
    expect(prelude?.context.prelude).toEqual(library.preludes[0]);
    expect(applyOperator(named("add-prelude"), prelude as HarnessConfig, context(2))).toBeNull();
    const followUp = applyOperator(named("add-follow-up"), lookupTextHarness, context(1));
    expect(followUp?.errorRecovery.followUps).toHaveLength(1);
    expect(library.followUps).toContainEqual(followUp?.errorRecovery.followUps?.[0]);
    const every = applyOperator(named("add-every-follow-up"), lookupTextHarness, context(1));
    expect(new Set(every?.errorRecovery.followUps?.map((entry) => entry.note))).toEqual(
      new Set(library.followUps.map((entry) => entry.note)),
    );
    expect(applyOperator(named("add-every-follow-up"), followUp as HarnessConfig, context(1))).toBeNull();
    const check = applyOperator(named("add-check-calls"), lookupTextHarness, context(1));
    expect(check?.verification).toMatchObject({
      enabled: true,
      maxChecks: 1,
      calls: library.checkCalls[0]?.calls,
    });
    expect(applyOperator(named("set-steps"), lookupTextHarness, context(1))?.budget.maxSteps).toBeOneOf([
      4, 12,
    ]);
  });

  it("does not apply where the library offers nothing", () => {
    for (const name of [
      "add-prelude",
      "add-follow-up",
      "add-every-follow-up",
      "add-check-calls",
      "set-steps",
    ]) {
      expect(
        applyOperator(named(name), lookupTextHarness, { ...context(1), library: genericLibrary }),
        name,
      ).toBeNull();
    }
  });
});

describe("direction operators", () => {
  it("every direction has operators", () => {
    for (const direction of fixDirections) expect(operatorsOf(direction).length).toBeGreaterThan(0);
  });

  it("each operator changes only its own direction's section, over many random draws", () => {
    const applied = new Map<string, number>();
    for (const operator of builtinOperators) {
      for (const base of bases) {
        for (let seed = 0; seed < 20; seed++) {
          const context = { random: createRandom(seed), library, toolNames: ["lookup", "dump", "submit"] };
          const result = applyOperator(operator, base, context);
          if (result === null) continue;
          applied.set(operator.name, (applied.get(operator.name) ?? 0) + 1);
          expect(changedSections(base, result)).toEqual([directionSection[operator.direction]]);
        }
      }
    }
    for (const operator of builtinOperators)
      expect(applied.get(operator.name) ?? 0, operator.name).toBeGreaterThan(0);
  }, 60_000);

  it("an operator's variants are exactly the configs its random draws reach, each named by its option", () => {
    const toolNames = ["lookup", "dump", "submit"];
    for (const operator of builtinOperators.filter((entry) => entry.variants !== undefined)) {
      for (const base of bases) {
        const variants = (operator.variants?.(base, { library, toolNames }) ?? []).filter(
          (variant) => changedSections(base, variant.config).length > 0,
        );
        const drawn = new Set<string>();
        for (let seed = 0; seed < 40; seed++) {
          const result = applyOperator(operator, base, { random: createRandom(seed), library, toolNames });
          if (result !== null) drawn.add(JSON.stringify(result));
        }
        const name = `${operator.name} on ${base.id}`;
        expect(new Set(variants.map((variant) => JSON.stringify(variant.config))), name).toEqual(drawn);
        for (const variant of variants)
          expect(variant.edit, name).toMatch(new RegExp(`^${operator.name}\\[\\d+\\]$`));
      }
    }
  });

  it("every single edit of a direction: one per operator and option, in order, none twice", () => {
    const hints = ["First hint.", "Second hint.", "Third hint."];
    const edits = everySingleEdit(operatorsOf("guidance"), lookupTextHarness, {
      random: createRandom(1),
      library: { ...library, hints: [...hints, "Second hint."] },
      toolNames: [],
    });
    expect(edits.map((entry) => entry.edit)).toEqual(["add-hint[0]", "add-hint[1]", "add-hint[2]"]);
    expect(edits.map((entry) => entry.config.prompt.hints)).toEqual(hints.map((hint) => [hint]));
    const rich = everySingleEdit(operatorsOf("guidance"), richBase, {
      random: createRandom(1),
      library: { ...library, hints },
      toolNames: [],
    });
    expect(rich.map((entry) => entry.edit)).toEqual([
      "add-hint[0]",
      "add-hint[1]",
      "add-hint[2]",
      "drop-hint[0]",
      "move-hints",
    ]);
  });

  it("chained operators of one direction still touch only that section", () => {
    for (const direction of fixDirections) {
      let config = richBase;
      const random = createRandom(7);
      for (let round = 0; round < 10; round++) {
        for (const operator of operatorsOf(direction)) {
          config =
            applyOperator(operator, config, {
              random,
              library: genericLibrary,
              toolNames: ["lookup", "dump", "submit"],
            }) ?? config;
        }
      }
      const changed = changedSections(richBase, config);
      expect(changed.every((name) => name === directionSection[direction])).toBe(true);
    }
  });

  it("rejects an operator that edits another section, naming it", () => {
    const rogue: MutationOperator = {
      name: "sneaky",
      direction: "guidance",
      apply: (config) => ({
        ...config,
        prompt: { ...config.prompt, hints: ["x"] },
        budget: { ...config.budget, maxSteps: 99 },
      }),
    };
    const attempt = () =>
      applyOperator(rogue, lookupTextHarness, {
        random: createRandom(1),
        library: genericLibrary,
        toolNames: [],
      });
    expect(attempt).toThrow(DirectionViolationError);
    expect(attempt).toThrow(/direction "guidance" may change only section "prompt", but changed "budget"/);
  });

  it("rejects an operator whose result is not a valid config", () => {
    const broken: MutationOperator = {
      name: "negative-budget",
      direction: "budget",
      apply: (config) => ({ ...config, budget: { ...config.budget, maxSteps: -1 } }),
    };
    expect(() =>
      applyOperator(broken, lookupTextHarness, {
        random: createRandom(1),
        library: genericLibrary,
        toolNames: [],
      }),
    ).toThrow(/budget\.maxSteps/);
  });

  it("lets id and description change with the section", () => {
    const edited = {
      ...lookupTextHarness,
      id: "other",
      description: "x",
      budget: { ...lookupTextHarness.budget, maxSteps: 9 },
    };
    expect(assertDirectionalEdit(lookupTextHarness, edited, "budget").budget.maxSteps).toBe(9);
    expect(sectionNames).toHaveLength(7);
  });
});
