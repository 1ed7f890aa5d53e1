import type { FailureConventions, FailureLabel, ModeRule, ObservedTrajectory } from "@hs/spec";
import { editTestLabels } from "./edit-test-rule.js";
import { ruleLabel } from "./rule-label.js";
import { sqlLabels } from "./sql-rule.js";
import { instructionOf } from "./summarize-trajectory.js";
import { type CallFact, callsOf, callText, excerpt, patternOf, submitCallOf } from "./trajectory-facts.js";

type CallRule = Extract<ModeRule, { kind: "call" }>;
type PreconditionRule = Extract<ModeRule, { kind: "precondition" }>;
type CompletedEarlyRule = Extract<ModeRule, { kind: "completed-early" }>;

function callRuleLabel(rule: CallRule, calls: readonly CallFact[]): FailureLabel | undefined {
  const callPattern = new RegExp(rule.callPattern);
  const resultPattern = rule.resultPattern === undefined ? undefined : new RegExp(rule.resultPattern);
  const hit = calls.find((fact, index) => {
    if (rule.failed !== undefined && fact.isError !== rule.failed) return false;
    if (!callPattern.test(callText(fact.call))) return false;
    if (resultPattern !== undefined && !resultPattern.test(fact.content)) return false;
    if (rule.unlessRetried === true && fact.isError) {
      const same = JSON.stringify(fact.call.arguments);
      const retried = calls
        .slice(index + 1)
        .some((later) => !later.isError && JSON.stringify(later.call.arguments) === same);
      if (retried) return false;
    }
    return true;
  });
  if (hit === undefined) return undefined;
  const reply = resultPattern === undefined ? "" : `; reply: ${excerpt(hit.content.slice(-200), 120)}`;
  return ruleLabel(rule.mode, `step ${hit.step}: ${excerpt(callText(hit.call), 160)}${reply}`, hit.step);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function preconditionLabel(rule: PreconditionRule, calls: readonly CallFact[]): FailureLabel | undefined {
  const callPattern = new RegExp(rule.callPattern, "g");
  for (const [index, fact] of calls.entries()) {
    for (const match of callText(fact.call).matchAll(callPattern)) {
      const groups = match.groups ?? {};
      const required = new RegExp(
        rule.requiredPattern.replace(/\{(\w+)\}/g, (_, name: string) => escapeRegExp(groups[name] ?? "")),
      );
      const met = calls.slice(0, index).some((earlier) => required.test(callText(earlier.call)));
      if (!met) {
        return ruleLabel(
          rule.mode,
          `step ${fact.step} calls ${excerpt(match[0], 80)} with no earlier call matching /${excerpt(required.source, 80)}/`,
          fact.step,
        );
      }
    }
  }
  return undefined;
}

function completedEarlyLabel(
  rule: CompletedEarlyRule,
  trajectory: ObservedTrajectory,
  conventions: FailureConventions,
  calls: readonly CallFact[],
): FailureLabel | undefined {
  const submit = submitCallOf(trajectory, conventions, calls);
  if (submit === undefined) return undefined;
  const question = patternOf(rule.questionPattern).test(instructionOf(trajectory).trim());
  if (question) {
    if (!patternOf(rule.noAnswerPattern).test(callText(submit.call))) return undefined;
    return ruleLabel(
      rule.mode,
      `the instruction asks a question; step ${submit.step} submitted no answer`,
      submit.step,
    );
  }
  const changePattern = conventions.changePattern;
  if (changePattern === undefined) return undefined;
  const changed = calls.some(
    (fact) =>
      fact !== submit &&
      fact.step < submit.step &&
      !fact.isError &&
      patternOf(changePattern).test(callText(fact.call)),
  );
  if (changed) return undefined;
  return ruleLabel(
    rule.mode,
    `the instruction asks for a change; step ${submit.step} submitted with no successful state-changing call before it`,
    submit.step,
  );
}

/** Labels of a benchmark's own mode rules (`conventions.modeRules`), in the rules' order. */
export function modeRuleLabels(
  trajectory: ObservedTrajectory,
  conventions: FailureConventions,
): FailureLabel[] {
  const calls = callsOf(trajectory);
  const labels: FailureLabel[] = [];
  for (const rule of conventions.modeRules ?? []) {
    if (rule.kind === "call") {
      const found = callRuleLabel(rule, calls);
      if (found !== undefined) labels.push(found);
    } else if (rule.kind === "precondition") {
      const found = preconditionLabel(rule, calls);
      if (found !== undefined) labels.push(found);
    } else if (rule.kind === "completed-early") {
      const found = completedEarlyLabel(rule, trajectory, conventions, calls);
      if (found !== undefined) labels.push(found);
    } else if (rule.kind === "sql") {
      labels.push(...sqlLabels(rule, trajectory, conventions, calls));
    } else {
      labels.push(...editTestLabels(rule, trajectory, conventions, calls));
    }
  }
  return labels;
}
