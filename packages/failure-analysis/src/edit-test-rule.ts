import type { FailureConventions, FailureLabel, ModeRule, ObservedTrajectory } from "@hs/spec";
import { ruleLabel } from "./rule-label.js";
import { type CallFact, callText, patternOf, submitCallOf } from "./trajectory-facts.js";

type EditTestRule = Extract<ModeRule, { kind: "edit-test" }>;

/** A file and line, as an edit or a traceback names it. */
interface Location {
  file: string;
  line: number;
}

type Cycle =
  | { kind: "edit"; step: number; at: Location }
  | { kind: "test"; step: number; failed: boolean; assertion: boolean; locations: Location[] }
  | { kind: "revert"; step: number };

/** Every `path:N` and `File "path", line N` a test run's output names. */
export function tracebackLocations(output: string): Location[] {
  const colon = [...output.matchAll(/^\s*(\S+?\.py):(\d+)\b/gm)];
  const quoted = [...output.matchAll(/"?([^"\s]*\.py)"?, line (\d+)/g)];
  return [...colon, ...quoted].map((match) => ({ file: match[1] ?? "", line: Number(match[2]) }));
}

const sameFile = (a: string, b: string) =>
  a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`) || a.endsWith(b) || b.endsWith(a);
const sameLocation = (a: Location, b: Location) => a.line === b.line && sameFile(a.file, b.file);

function cyclesOf(rule: EditTestRule, calls: readonly CallFact[], submit: CallFact | undefined): Cycle[] {
  const test = patternOf(rule.testCallPattern);
  const revert = patternOf(rule.revertCallPattern);
  const edit = patternOf(rule.editResultPattern, "m");
  const cycles: Cycle[] = [];
  for (const fact of calls) {
    if (fact === submit) continue;
    const text = callText(fact.call);
    const edited = edit.exec(fact.content);
    if (edited !== null) {
      cycles.push({ kind: "edit", step: fact.step, at: { file: edited[1] ?? "", line: Number(edited[2]) } });
    } else if (test.test(text)) {
      cycles.push({
        kind: "test",
        step: fact.step,
        failed: patternOf(rule.failedRunPattern, "m").test(fact.content),
        assertion: patternOf(rule.assertionPattern, "m").test(fact.content),
        locations: tracebackLocations(fact.content),
      });
    } else if (revert.test(text)) {
      cycles.push({ kind: "revert", step: fact.step });
    }
  }
  return cycles;
}

function describe(at: Location): string {
  return `${at.file}:${at.line}`;
}

/** The primary SWE-style label of an episode's edit / test / revert cycles. */
function editTestLabel(rule: EditTestRule, cycles: readonly Cycle[], submitStep: number): FailureLabel {
  const modes = rule.modes;
  const lastEditIndex = cycles.findLastIndex((cycle) => cycle.kind === "edit");
  const lastEdit = cycles[lastEditIndex];
  if (lastEdit === undefined || lastEdit.kind !== "edit")
    return ruleLabel(modes.emptySubmission, "submitted without any edit", submitStep);
  const after = cycles.slice(lastEditIndex + 1);
  const kept = !after.some((cycle) => cycle.kind === "revert");
  const runsAfter = after.filter((cycle) => cycle.kind === "test");
  const before = cycles.slice(0, lastEditIndex).filter((cycle) => cycle.kind === "test");
  const named = before.flatMap((cycle) => cycle.locations);
  const nonSource = patternOf(rule.nonSourcePathPattern);
  const sourceNamed = named.filter((location) => !nonSource.test(location.file));
  const firstRun = runsAfter[0];
  if (!kept && firstRun !== undefined && firstRun.failed && !firstRun.assertion) {
    const hit = firstRun.locations.find((location) => sameLocation(location, lastEdit.at));
    if (hit !== undefined)
      return ruleLabel(
        modes.editBrokeFile,
        `the run after the edit of ${describe(lastEdit.at)} raised an error at that line; every edit was reverted`,
        firstRun.step,
      );
  }
  if (sourceNamed.length > 0 && !named.some((location) => sameLocation(location, lastEdit.at)))
    return ruleLabel(
      modes.editedUnnamedLine,
      `step ${lastEdit.step} edited ${describe(lastEdit.at)}; the tracebacks before it named ${sourceNamed.map(describe).slice(0, 4).join(", ")}`,
      lastEdit.step,
    );
  if (kept) {
    const lastRun = runsAfter.at(-1);
    if (lastRun !== undefined && runsAfter.every((cycle) => !cycle.failed))
      return ruleLabel(
        modes.neverRanFailingTests,
        `kept the edit of ${describe(lastEdit.at)}; every run after it passed, so no test it ran exercised the issue`,
        lastRun.step,
      );
    return ruleLabel(
      modes.submittedFailingTests,
      `kept the edit of ${describe(lastEdit.at)}; ${lastRun === undefined ? "no test ran after it" : `the run at step ${lastRun.step} failed`}`,
      lastRun?.step ?? lastEdit.step,
    );
  }
  if (sourceNamed.length === 0)
    return ruleLabel(
      modes.unlocatedFailure,
      `every edit was reverted; no traceback before the last edit (${describe(lastEdit.at)}) named a source line`,
      lastEdit.step,
    );
  return ruleLabel(
    modes.emptySubmission,
    `every edit was reverted; the last was ${describe(lastEdit.at)}`,
    submitStep,
  );
}

/** Labels of an `edit-test` rule (one label: the episode's edit / test outcome), none without a submit. */
export function editTestLabels(
  rule: EditTestRule,
  trajectory: ObservedTrajectory,
  conventions: FailureConventions,
  calls: readonly CallFact[],
): FailureLabel[] {
  const submit = submitCallOf(trajectory, conventions, calls);
  if (submit === undefined) return [];
  return [editTestLabel(rule, cyclesOf(rule, calls, submit), submit.step)];
}
