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
  /**
   * Every config `apply` can make from `config`, one per option it would draw from (a library entry, a
   * hint to drop), in a fixed order and without random draws. Absent: `apply` makes at most one.
   */
  variants?(config: HarnessConfig, context: Omit<OperatorContext, "random">): OperatorVariant[];
}

/** One of the configs an operator can make, named by the option it took. */
export interface OperatorVariant {
  /** The operator's name and the option's index, e.g. `add-hint[2]` (the library's third hint). */
  edit: string;
  /** The changed config. */
  config: HarnessConfig;
}

/** An option of a choice operator: its index in the list it comes from, and the option itself. */
interface Choice<T> {
  index: number;
  value: T;
}

/** The items that pass `keep`, each with its index in `items`. */
function choicesOf<T>(items: readonly T[], keep: (item: T) => boolean = () => true): Choice<T>[] {
  return items.flatMap((value, index) => (keep(value) ? [{ index, value }] : []));
}

/**
 * An operator that draws one option and edits the config with it: `apply` draws with the random
 * source, `variants` makes the edit of every option in order.
 */
function choiceOperator<T>(operator: {
  name: string;
  direction: FixDirection;
  options(config: HarnessConfig, context: Omit<OperatorContext, "random">): Choice<T>[];
  make(config: HarnessConfig, option: T, context: Omit<OperatorContext, "random">): HarnessConfig;
}): MutationOperator {
  return {
    name: operator.name,
    direction: operator.direction,
    apply(config, context) {
      const choice = pick(operator.options(config, context), context.random);
      return choice === undefined ? null : operator.make(config, choice.value, context);
    },
    variants(config, context) {
      return operator.options(config, context).map((choice) => ({
        edit: `${operator.name}[${choice.index}]`,
        config: operator.make(config, choice.value, context),
      }));
    },
  };
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
  return changed === null ? null : checkedEdit(operator, config, changed);
}

/**
 * `after` checked as `applyOperator` checks an operator's result: only the direction's section changed
 * (else `DirectionViolationError`), a valid config; null when nothing changed.
 */
export function checkedEdit(
  operator: MutationOperator,
  before: HarnessConfig,
  after: HarnessConfig,
): HarnessConfig | null {
  const checked = assertDirectionalEdit(before, after, operator.direction, `operator "${operator.name}"`);
  return changedSections(before, checked).length === 0 ? null : checked;
}

/**
 * Every config one application of one of `operators` makes from `config`, checked as `applyOperator`
 * checks, in the operators' order and then their options' (`variants`; an operator without them applied
 * once), each config once. Named by the edit: `add-hint[2]`, or the operator's name.
 */
export function everySingleEdit(
  operators: readonly MutationOperator[],
  config: HarnessConfig,
  context: OperatorContext,
): OperatorVariant[] {
  const seen = new Set<string>();
  const edits: OperatorVariant[] = [];
  for (const operator of operators) {
    const made =
      operator.variants === undefined
        ? [{ edit: operator.name, config: applyOperator(operator, config, context) }]
        : operator.variants(config, context).map((variant) => ({
            edit: variant.edit,
            config: checkedEdit(operator, config, variant.config),
          }));
    for (const { edit, config: changed } of made) {
      if (changed === null || seen.has(canonicalJson(changed))) continue;
      seen.add(canonicalJson(changed));
      edits.push({ edit, config: changed });
    }
  }
  return edits;
}

/** The name of the edit an operator made: its variant's (`add-hint[2]`) when it has variants, else its own. */
export function editNameOf(
  operator: MutationOperator,
  before: HarnessConfig,
  after: HarnessConfig,
  context: Omit<OperatorContext, "random">,
): string {
  const made = canonicalJson(after);
  const variant = operator.variants?.(before, context).find((entry) => canonicalJson(entry.config) === made);
  return variant?.edit ?? operator.name;
}

function edit(config: HarnessConfig, recipe: (draft: HarnessConfig) => void): HarnessConfig {
  return produce(config, recipe);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The config with the check on, asking `prompt`; null when it already is. */
function enableCheck(config: HarnessConfig, prompt: string): HarnessConfig | null {
  if (config.verification.enabled && config.verification.prompt === prompt) return null;
  return edit(config, (draft) => {
    draft.verification.enabled = true;
    draft.verification.prompt = prompt;
    draft.verification.maxChecks = Math.max(1, draft.verification.maxChecks);
  });
}

/** The text and config operators, by direction. Each edits only its direction's section. */
const sectionOperators: readonly MutationOperator[] = [
  choiceOperator({
    name: "add-hint",
    direction: "guidance",
    options: (config, { library }) => choicesOf(library.hints, (hint) => !config.prompt.hints.includes(hint)),
    make: (config, hint) => edit(config, (draft) => void draft.prompt.hints.push(hint)),
  }),
  choiceOperator({
    name: "drop-hint",
    direction: "guidance",
    options: (config) => choicesOf(config.prompt.hints.map((_, index) => index)),
    make: (config, index) => edit(config, (draft) => void draft.prompt.hints.splice(index, 1)),
  }),
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
  choiceOperator({
    name: "error-suffix",
    direction: "error-recovery",
    options: (config, { library }) =>
      choicesOf(library.toolErrorSuffixes, (text) => text !== config.errorRecovery.toolErrorSuffix),
    make: (config, suffix) =>
      edit(config, (draft) => {
        draft.errorRecovery.toolErrorSuffix = suffix;
      }),
  }),
  choiceOperator({
    name: "empty-result-note",
    direction: "error-recovery",
    options: (config, { library }) => {
      const empty = library.emptyResult;
      if (empty === null) return [];
      const current = config.errorRecovery.emptyResult?.suffix;
      return choicesOf(empty.notes, (text) => `\n${text}` !== current).map(({ index, value }) => ({
        index,
        value: { pattern: empty.pattern, suffix: `\n${value}` },
      }));
    },
    make: (config, emptyResult) =>
      edit(config, (draft) => {
        draft.errorRecovery.emptyResult = emptyResult;
      }),
  }),
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
  choiceOperator({
    name: "explain-malformed",
    direction: "error-recovery",
    options: (config, { library }) =>
      choicesOf(
        library.malformedActionTemplates,
        (text) => text !== config.errorRecovery.malformedActionTemplate,
      ),
    make: (config, template) =>
      edit(config, (draft) => {
        draft.errorRecovery.malformedActionTemplate = template;
      }),
  }),
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
  choiceOperator({
    name: "hide-tool",
    direction: "tool-exposure",
    options: (config, { toolNames }) => {
      const exposed = config.tools.expose ?? [...toolNames];
      if (exposed.length <= 2) return [];
      return choicesOf(exposed, (name) => !/submit|answer|commit/i.test(name));
    },
    make: (config, hidden, { toolNames }) =>
      edit(config, (draft) => {
        draft.tools.expose = (config.tools.expose ?? [...toolNames]).filter((name) => name !== hidden);
      }),
  }),
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
  choiceOperator({
    name: "add-macro",
    direction: "tool-exposure",
    options: (config, { library }) =>
      choicesOf(library.macros, (macro) => !config.tools.macros.some((entry) => entry.name === macro.name)),
    make: (config, macro) => edit(config, (draft) => void draft.tools.macros.push(macro)),
  }),
  {
    name: "enable-check",
    direction: "verification",
    apply(config, { random, library }) {
      return enableCheck(config, pick(library.verificationPrompts, random) ?? config.verification.prompt);
    },
    variants(config, { library }) {
      const prompts =
        library.verificationPrompts.length > 0 ? library.verificationPrompts : [config.verification.prompt];
      return prompts.flatMap((prompt, index) => {
        const changed = enableCheck(config, prompt);
        return changed === null ? [] : [{ edit: `enable-check[${index}]`, config: changed }];
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
  choiceOperator({
    name: "add-prelude",
    direction: "context",
    options: (config, { library }) => {
      const current = canonicalJson(config.context.prelude ?? null);
      return choicesOf(library.preludes ?? [], (entry) => canonicalJson(entry) !== current);
    },
    make: (config, prelude) =>
      edit(config, (draft) => {
        draft.context.prelude = structuredClone(prelude);
      }),
  }),
  choiceOperator({
    name: "add-follow-up",
    direction: "error-recovery",
    options: (config, { library }) => {
      const present = new Set((config.errorRecovery.followUps ?? []).map((entry) => canonicalJson(entry)));
      return choicesOf(library.followUps ?? [], (entry) => !present.has(canonicalJson(entry)));
    },
    make: (config, followUp) =>
      edit(config, (draft) => {
        draft.errorRecovery.followUps = [...(draft.errorRecovery.followUps ?? []), structuredClone(followUp)];
      }),
  }),
  {
    name: "add-every-follow-up",
    direction: "error-recovery",
    apply(config, { library }) {
      const present = new Set((config.errorRecovery.followUps ?? []).map((entry) => canonicalJson(entry)));
      const missing = (library.followUps ?? []).filter((entry) => !present.has(canonicalJson(entry)));
      if (missing.length < 2) return null;
      return edit(config, (draft) => {
        draft.errorRecovery.followUps = [
          ...(draft.errorRecovery.followUps ?? []),
          ...structuredClone(missing),
        ];
      });
    },
  },
  choiceOperator({
    name: "add-check-calls",
    direction: "verification",
    options: (config, { library }) => {
      const current = canonicalJson(config.verification.calls ?? null);
      return choicesOf(library.checkCalls ?? [], (entry) => canonicalJson(entry.calls) !== current);
    },
    make: (config, check) =>
      edit(config, (draft) => {
        draft.verification.enabled = true;
        draft.verification.prompt = check.prompt;
        draft.verification.maxChecks = Math.max(1, draft.verification.maxChecks);
        draft.verification.calls = structuredClone(check.calls);
        if (check.submitMatch !== undefined) draft.verification.submitMatch = { ...check.submitMatch };
      }),
  }),
  choiceOperator({
    name: "set-steps",
    direction: "budget",
    options: (config, { library }) =>
      choicesOf(library.stepBudgets ?? [], (value) => value !== config.budget.maxSteps),
    make: (config, steps) =>
      edit(config, (draft) => {
        draft.budget.maxSteps = steps;
      }),
  }),
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
