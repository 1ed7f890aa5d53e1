import { canonicalJson, parseHarnessConfig, type Random } from "@hs/harness";
import {
  directionSection,
  type EvolutionLibrary,
  type FixDirection,
  fixDirections,
  type HarnessConfig,
  type HarnessSectionName,
  InvalidInputError,
} from "@hs/spec";

import { produce } from "immer";

/** Picks one element with a random source. */
export function pick<T>(items: readonly T[], random: Random): T | undefined {
  if (items.length === 0) return undefined;
  return items[Math.floor(random() * items.length)];
}

/** What an operator may read besides the config. */
export interface OperatorContext {
  /** Random source. */
  random: Random;
  /** Texts and macros to draw from. */
  library: EvolutionLibrary;
  /** Names of the environment's tools (for exposure operators), when known. */
  toolNames: readonly string[];
}

/** A mutation operator of one fix direction. */
export interface MutationOperator {
  /** Operator name, unique within its direction. */
  name: string;
  /** The direction it belongs to; it may change only `directionSection[direction]`. */
  direction: FixDirection;
  /** Returns a changed copy of the config, or null when it does not apply. */
  apply(config: HarnessConfig, context: OperatorContext): HarnessConfig | null;
}

/** The sections of a config. */
export const sectionNames: readonly HarnessSectionName[] = [
  "prompt",
  "actionFormat",
  "context",
  "errorRecovery",
  "budget",
  "tools",
  "verification",
];

/** The sections that differ between two configs. */
export function changedSections(before: HarnessConfig, after: HarnessConfig): HarnessSectionName[] {
  return sectionNames.filter((name) => canonicalJson(before[name]) !== canonicalJson(after[name]));
}

/** A change outside a direction's own section. */
export class DirectionViolationError extends InvalidInputError {
  /** The sections changed outside the allowed one. */
  readonly sections: HarnessSectionName[];

  constructor(direction: FixDirection, sections: HarnessSectionName[], source: string) {
    super(
      `${source} of direction "${direction}" may change only section "${directionSection[direction]}", but changed ${sections.map((name) => `"${name}"`).join(", ")}`,
      { field: sections[0] ?? "" },
    );
    this.sections = sections;
  }
}

/**
 * Checks that `after` differs from `before` only in the direction's section (id and description may
 * change) and that it is a valid harness config. Throws `DirectionViolationError` or `InvalidInputError`.
 */
export function assertDirectionalEdit(
  before: HarnessConfig,
  after: HarnessConfig,
  direction: FixDirection,
  source = "edit",
): HarnessConfig {
  const allowed = directionSection[direction];
  const outside = changedSections(before, after).filter((name) => name !== allowed);
  if (outside.length > 0) throw new DirectionViolationError(direction, outside, source);
  return parseHarnessConfig(after);
}

/**
 * Applies an operator and enforces that it touched only its own section. Returns null when the operator
 * does not apply or changes nothing.
 */
export function applyOperator(
  operator: MutationOperator,
  config: HarnessConfig,
  context: OperatorContext,
): HarnessConfig | null {
  const changed = operator.apply(config, context);
  if (changed === null) return null;
  const checked = assertDirectionalEdit(config, changed, operator.direction, `operator "${operator.name}"`);
  return changedSections(config, checked).length === 0 ? null : checked;
}

function edit(config: HarnessConfig, recipe: (draft: HarnessConfig) => void): HarnessConfig {
  return produce(config, recipe);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The text and config operators, by direction. Each edits only its direction's section. */
const sectionOperators: readonly MutationOperator[] = [
  {
    name: "add-hint",
    direction: "guidance",
    apply(config, { random, library }) {
      const fresh = library.hints.filter((hint) => !config.prompt.hints.includes(hint));
      const hint = pick(fresh, random);
      return hint === undefined ? null : edit(config, (draft) => void draft.prompt.hints.push(hint));
    },
  },
  {
    name: "drop-hint",
    direction: "guidance",
    apply(config, { random }) {
      if (config.prompt.hints.length === 0) return null;
      const index = Math.floor(random() * config.prompt.hints.length);
      return edit(config, (draft) => void draft.prompt.hints.splice(index, 1));
    },
  },
  {
    name: "move-hints",
    direction: "guidance",
    apply(config) {
      if (config.prompt.hints.length === 0) return null;
      return edit(config, (draft) => {
        draft.prompt.hintPlacement = draft.prompt.hintPlacement === "task" ? "system" : "task";
      });
    },
  },
  {
    name: "case-insensitive-rules",
    direction: "action-format",
    apply(config) {
      if (config.actionFormat.kind !== "text") return null;
      if (config.actionFormat.rules.every((rule) => rule.flags.includes("i"))) return null;
      return edit(config, (draft) => {
        if (draft.actionFormat.kind !== "text") return;
        for (const rule of draft.actionFormat.rules) if (!rule.flags.includes("i")) rule.flags += "i";
      });
    },
  },
  {
    name: "unanchored-fallback-rules",
    direction: "action-format",
    apply(config) {
      if (config.actionFormat.kind !== "text") return null;
      const anchored = config.actionFormat.rules.filter((rule) => rule.pattern.startsWith("^"));
      if (anchored.length === 0) return null;
      return edit(config, (draft) => {
        if (draft.actionFormat.kind !== "text") return;
        for (const rule of anchored) {
          const loose = {
            ...rule,
            arguments: { ...rule.arguments },
            pattern: `\\s*${rule.pattern.slice(1)}`,
          };
          if (!draft.actionFormat.rules.some((existing) => existing.pattern === loose.pattern)) {
            draft.actionFormat.rules.push(loose);
          }
        }
      });
    },
  },
  {
    name: "strip-code-fences",
    direction: "action-format",
    apply(config, { library }) {
      if (config.actionFormat.kind !== "text") return null;
      const aliases = Object.entries(library.fenceAliases ?? {});
      const fenced = config.actionFormat.rules.some((rule) =>
        aliases.some(([tag]) => rule.pattern.includes(escapeRegex(`\`\`\`${tag}`))),
      );
      if (!fenced) return null;
      return edit(config, (draft) => {
        if (draft.actionFormat.kind !== "text") return;
        for (const rule of draft.actionFormat.rules) {
          for (const [tag, spellings] of aliases) {
            rule.pattern = rule.pattern.replaceAll(
              escapeRegex(`\`\`\`${tag}`),
              `\`\`\`(?:${spellings.join("|")})?`,
            );
          }
        }
      });
    },
  },
  {
    name: "widen-observations",
    direction: "context",
    apply(config) {
      const limit = config.context.truncateObservationChars;
      if (limit === null) return null;
      return edit(config, (draft) => {
        draft.context.truncateObservationChars = limit >= 4000 ? null : limit * 4;
      });
    },
  },
  {
    name: "keep-more-turns",
    direction: "context",
    apply(config) {
      const keep = config.context.keepLastTurns;
      if (keep === null) return null;
      return edit(config, (draft) => {
        draft.context.keepLastTurns = keep >= 16 ? null : keep * 2;
      });
    },
  },
  {
    name: "pin-task",
    direction: "context",
    apply(config) {
      if (config.context.pinTask) return null;
      return edit(config, (draft) => {
        draft.context.pinTask = true;
      });
    },
  },
  {
    name: "shorter-marker",
    direction: "context",
    apply(config) {
      const marker = "[... output cut; query fewer rows or columns]";
      if (config.context.truncationMarker === marker) return null;
      return edit(config, (draft) => {
        draft.context.truncationMarker = marker;
      });
    },
  },
  {
    name: "error-suffix",
    direction: "error-recovery",
    apply(config, { random, library }) {
      const suffix = pick(
        library.toolErrorSuffixes.filter((text) => text !== config.errorRecovery.toolErrorSuffix),
        random,
      );
      return suffix === undefined
        ? null
        : edit(config, (draft) => {
            draft.errorRecovery.toolErrorSuffix = suffix;
          });
    },
  },
  {
    name: "empty-result-note",
    direction: "error-recovery",
    apply(config, { random, library }) {
      const empty = library.emptyResult;
      if (empty === null) return null;
      const current = config.errorRecovery.emptyResult?.suffix;
      const note = pick(
        empty.notes.filter((text) => `\n${text}` !== current),
        random,
      );
      return note === undefined
        ? null
        : edit(config, (draft) => {
            draft.errorRecovery.emptyResult = { pattern: empty.pattern, suffix: `\n${note}` };
          });
    },
  },
  {
    name: "more-reprompts",
    direction: "error-recovery",
    apply(config) {
      if (config.errorRecovery.maxReprompts >= 4) return null;
      return edit(config, (draft) => {
        draft.errorRecovery.maxReprompts += 2;
      });
    },
  },
  {
    name: "explain-malformed",
    direction: "error-recovery",
    apply(config, { random, library }) {
      const template = pick(
        library.malformedActionTemplates.filter(
          (text) => text !== config.errorRecovery.malformedActionTemplate,
        ),
        random,
      );
      return template === undefined
        ? null
        : edit(config, (draft) => {
            draft.errorRecovery.malformedActionTemplate = template;
          });
    },
  },
  {
    name: "more-steps",
    direction: "budget",
    apply(config) {
      if (config.budget.maxSteps >= 60) return null;
      return edit(config, (draft) => {
        draft.budget.maxSteps = Math.min(60, Math.ceil(draft.budget.maxSteps * 1.5));
      });
    },
  },
  {
    name: "unlimited-output",
    direction: "budget",
    apply(config) {
      if (config.budget.maxOutputChars === null) return null;
      return edit(config, (draft) => {
        draft.budget.maxOutputChars = null;
      });
    },
  },
  {
    name: "hide-tool",
    direction: "tool-exposure",
    apply(config, { random, toolNames }) {
      const exposed = config.tools.expose ?? [...toolNames];
      if (exposed.length <= 2) return null;
      const candidates = exposed.filter((name) => !/submit|answer|commit/i.test(name));
      const hidden = pick(candidates, random);
      if (hidden === undefined) return null;
      return edit(config, (draft) => {
        draft.tools.expose = exposed.filter((name) => name !== hidden);
      });
    },
  },
  {
    name: "expose-all",
    direction: "tool-exposure",
    apply(config) {
      if (config.tools.expose === null) return null;
      return edit(config, (draft) => {
        draft.tools.expose = null;
      });
    },
  },
  {
    name: "add-macro",
    direction: "tool-exposure",
    apply(config, { random, library }) {
      const fresh = library.macros.filter(
        (macro) => !config.tools.macros.some((entry) => entry.name === macro.name),
      );
      const macro = pick(fresh, random);
      return macro === undefined ? null : edit(config, (draft) => void draft.tools.macros.push(macro));
    },
  },
  {
    name: "enable-check",
    direction: "verification",
    apply(config, { random, library }) {
      const prompt = pick(library.verificationPrompts, random) ?? config.verification.prompt;
      if (config.verification.enabled && config.verification.prompt === prompt) return null;
      return edit(config, (draft) => {
        draft.verification.enabled = true;
        draft.verification.prompt = prompt;
        draft.verification.maxChecks = Math.max(1, draft.verification.maxChecks);
      });
    },
  },
  {
    name: "more-checks",
    direction: "verification",
    apply(config) {
      if (!config.verification.enabled || config.verification.maxChecks >= 3) return null;
      return edit(config, (draft) => {
        draft.verification.maxChecks += 1;
      });
    },
  },
];

/**
 * Operators that change what the policy can see and do rather than what it is told: harness-made calls
 * before the first step, after a matching result and before a held submit, and the step budget.
 */
export const harnessCallOperators: readonly MutationOperator[] = [
  {
    name: "add-prelude",
    direction: "context",
    apply(config, { random, library }) {
      const current = canonicalJson(config.context.prelude ?? null);
      const prelude = pick(
        (library.preludes ?? []).filter((entry) => canonicalJson(entry) !== current),
        random,
      );
      return prelude === undefined
        ? null
        : edit(config, (draft) => {
            draft.context.prelude = structuredClone(prelude);
          });
    },
  },
  {
    name: "add-follow-up",
    direction: "error-recovery",
    apply(config, { random, library }) {
      const present = new Set((config.errorRecovery.followUps ?? []).map((entry) => canonicalJson(entry)));
      const followUp = pick(
        (library.followUps ?? []).filter((entry) => !present.has(canonicalJson(entry))),
        random,
      );
      return followUp === undefined
        ? null
        : edit(config, (draft) => {
            draft.errorRecovery.followUps = [
              ...(draft.errorRecovery.followUps ?? []),
              structuredClone(followUp),
            ];
          });
    },
  },
  {
    name: "add-check-calls",
    direction: "verification",
    apply(config, { random, library }) {
      const current = canonicalJson(config.verification.calls ?? null);
      const check = pick(
        (library.checkCalls ?? []).filter((entry) => canonicalJson(entry.calls) !== current),
        random,
      );
      return check === undefined
        ? null
        : edit(config, (draft) => {
            draft.verification.enabled = true;
            draft.verification.prompt = check.prompt;
            draft.verification.maxChecks = Math.max(1, draft.verification.maxChecks);
            draft.verification.calls = structuredClone(check.calls);
            if (check.submitMatch !== undefined) draft.verification.submitMatch = { ...check.submitMatch };
          });
    },
  },
  {
    name: "set-steps",
    direction: "budget",
    apply(config, { random, library }) {
      const steps = pick(
        (library.stepBudgets ?? []).filter((value) => value !== config.budget.maxSteps),
        random,
      );
      return steps === undefined
        ? null
        : edit(config, (draft) => {
            draft.budget.maxSteps = steps;
          });
    },
  },
];

/** The built-in operators, by direction: the section operators, then the harness-call operators. */
export const builtinOperators: readonly MutationOperator[] = [...sectionOperators, ...harnessCallOperators];

/** The built-in operators of one direction. */
export function operatorsOf(direction: FixDirection): MutationOperator[] {
  return builtinOperators.filter((operator) => operator.direction === direction);
}

/** Every direction has at least one operator. */
export const directionsWithOperators: readonly FixDirection[] = fixDirections.filter(
  (direction) => operatorsOf(direction).length > 0,
);
