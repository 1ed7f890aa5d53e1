import { type DecisionWalk, labelValue } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import {
  editCommand,
  exploreCommand,
  reproduceCommand,
  revertCommand,
  searchCommand,
  submitCommand,
  testCommand,
} from "./commands.js";
import { ask, bashAction, option } from "./decision-options.js";
import { grammarTuning, rewriteFeature } from "./features.js";
import { probeVerdict, promisingRewrites } from "./probe-verdict.js";
import type { ObservedProbe } from "./read-view.js";
import { statementRewriteKinds } from "./statement-kinds.js";
import { type EditLine, enclosingDefinition, lineNames, type ViewContext } from "./view-context.js";

/** `explore`: list the Python files. */
export function exploreStep(_walk: DecisionWalk, context: ViewContext): GrammarStep {
  return bashAction(context.read, "Let me list the repository's Python files.", exploreCommand);
}

/** `submit`: the sentinel command, or the submit tool where the view offers one natively. */
export function submitStep(_walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  if (read.nativeTools && read.submitTool !== undefined) {
    return {
      done: true,
      content: "THOUGHT: The change is made; submitting.",
      toolCalls: [{ id: "call-submit", name: read.submitTool.name, arguments: {} }],
    };
  }
  return bashAction(read, "The change is made; submitting.", submitCommand);
}

/** `search`: grep the sources for a name the statement writes. */
export function searchStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const terms = read.terms.identifiers;
  const chosen = walk.take();
  if (chosen === null) {
    return ask(
      "search-term",
      terms.map((term, index) =>
        option(
          `term:${term}`,
          {
            "term-called": read.terms.called.has(term) ? 1 : 0,
            "term-position": terms.length <= 1 ? 0 : index / (terms.length - 1),
            "term-searched": read.searched.has(term) ? 1 : 0,
          },
          context,
        ),
      ),
    );
  }
  const term = labelValue(chosen);
  return bashAction(read, `Let me find where \`${term}\` is defined and used.`, searchCommand(term));
}

/** `reproduce`: evaluate an expression the statement writes. */
export function reproduceStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const { read } = context;
  const expressions = read.terms.expressions;
  const chosen = walk.take();
  if (chosen === null) {
    return ask(
      "expression",
      expressions.map((_, index) =>
        option(
          `expression:${index}`,
          { "option-fit": read.reproduced.has(expressions[index] as string) ? -2 : 0 },
          context,
        ),
      ),
    );
  }
  const expression = expressions[Number(labelValue(chosen))] ?? (expressions[0] as string);
  return bashAction(
    read,
    `Let me reproduce the issue with \`${expression}\`.`,
    reproduceCommand(context.packages, expression),
  );
}

/** `test`: all tests, one test file, or a test the last run reported failing. */
export function testStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const failing = context.lastTest?.failedIds ?? [];
  const targets = [
    { label: "tests:all", values: { "test-all": 1 } },
    ...failing.map((id) => ({ label: `tests:${id}`, values: { "test-failing": 1 } })),
    ...context.testFiles
      .slice(0, grammarTuning.maxTestFiles)
      .map((file) => ({ label: `tests:${file}`, values: { "test-file": 1 } })),
  ];
  const chosen = walk.take();
  if (chosen === null)
    return ask(
      "test-target",
      targets.map((target) => option(target.label, target.values, context)),
    );
  const target = labelValue(chosen);
  return bashAction(
    context.read,
    target === "all" ? "Let me run the test suite." : `Let me run ${target}.`,
    testCommand(target === "all" ? null : target),
  );
}

/** `revert`: restore a file the episode edited. */
export function revertStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const files = [...new Set(context.liveEdits.map((edit) => edit.file))].reverse();
  const chosen = walk.take();
  if (chosen === null)
    return ask(
      "revert-file",
      files.map((file) => option(`revert:${file}`, {}, context)),
    );
  const file = labelValue(chosen);
  return bashAction(
    context.read,
    `The tests fail after my edit of ${file}; let me undo it.`,
    revertCommand(file),
  );
}

/** Whether the line's enclosing function or assignment is a name the statement writes. */
function inNamedFunction(context: ViewContext, entry: EditLine): boolean {
  const name = enclosingDefinition(context.read, entry.file, entry.line);
  if (name === undefined) return false;
  return context.read.terms.identifiers.includes(name) || context.read.terms.words.has(name.toLowerCase());
}

/** Whether a traceback frame of the latest run that had one points within 5 lines of the line. */
function nearTraceback(context: ViewContext, entry: EditLine): boolean {
  const frames = context.read.locations.filter((location) => location.source === "traceback");
  const latest = Math.max(-1, ...frames.map((location) => location.step));
  return frames.some(
    (location) =>
      location.step === latest && location.file === entry.file && Math.abs(location.line - entry.line) <= 5,
  );
}

/** Whether a probe of the line found a promising rewrite of it that no reverted edit tried. */
function lineProbeMatched(context: ViewContext, entry: EditLine): boolean {
  return promisingRewrites(context.read).some(
    ([probe]) => probe.file === entry.file && probe.line === entry.line,
  );
}

/** The features of a shown line, as an option of `edit-line` or `probe-line`. */
export function lineValues(context: ViewContext, entry: EditLine): Record<string, number> {
  const { read } = context;
  const names = lineNames(entry.text);
  const overlap =
    names.length === 0 ? 0 : names.filter((name) => read.terms.words.has(name)).length / names.length;
  const at = (source: string) =>
    read.locations.some(
      (location) =>
        location.file === entry.file && location.line === entry.line && location.source === source,
    );
  return {
    "line-in-traceback": at("traceback") ? 1 : 0,
    "line-search-hit": at("search") ? 1 : 0,
    "line-traced": read.traced.has(`${entry.file}:${entry.line}`) ? 1 : 0,
    "line-ranked": read.ranked.get(`${entry.file}:${entry.line}`) ?? 0,
    "line-statement-words": overlap,
    "line-rewrites": Math.min(1, entry.rewrites.length / 10),
    "line-edited": read.edits.some((edit) => edit.file === entry.file && edit.line === entry.line) ? 1 : 0,
    "line-control": /^\s*(if|elif|while|return|for)\b/.test(entry.text) ? 1 : 0,
    "line-just-shown": read.shown.get(entry.file)?.get(entry.line)?.step === read.steps.length - 1 ? 1 : 0,
    "line-raise": /^\s*(raise|assert)\b/.test(entry.text) ? 1 : 0,
    "line-in-named-function": inNamedFunction(context, entry) ? 1 : 0,
    "line-traceback-near": nearTraceback(context, entry) ? 1 : 0,
    "line-probed": read.probes.has(`${entry.file}:${entry.line}`) ? 1 : 0,
    "line-probe-match": lineProbeMatched(context, entry) ? 1 : 0,
    "line-statement-kind": entry.rewrites.some((rewrite) =>
      statementRewriteKinds(read.statement).has(rewrite.kind),
    )
      ? 1
      : 0,
  };
}

function probeValues(context: ViewContext, probe: ObservedProbe | undefined, text: string) {
  const verdict = probe === undefined ? undefined : probeVerdict(context.read, probe, text);
  if (verdict === undefined) return {};
  return {
    "rewrite-probe-match": verdict.matched ? 1 : 0,
    "rewrite-probe-fixed-error": verdict.fixedError ? 1 : 0,
    "rewrite-probe-broke": verdict.broke ? 1 : 0,
    "rewrite-probe-same": verdict.same ? 1 : 0,
  };
}

/** `edit`: which shown line, then which rewrite of it. */
export function editStep(walk: DecisionWalk, context: ViewContext): GrammarStep {
  const lines = context.editLines();
  const lineLabel = walk.take();
  if (lineLabel === null) {
    return ask(
      "edit-line",
      lines.map((entry) => option(`line:${entry.file}:${entry.line}`, lineValues(context, entry), context)),
    );
  }
  const entry =
    lines.find((candidate) => `line:${candidate.file}:${candidate.line}` === lineLabel) ??
    (lines[0] as EditLine);
  const rewriteLabel = walk.take();
  const tried = (text: string) =>
    context.read.edits.some(
      (edit) => edit.file === entry.file && edit.line === entry.line && edit.replacement === text,
    );
  if (rewriteLabel === null) {
    const statementKinds = statementRewriteKinds(context.read.statement);
    const probe = context.read.probes.get(`${entry.file}:${entry.line}`);
    return ask(
      "rewrite",
      entry.rewrites.map((rewrite, index) =>
        option(
          `rewrite:${index}:${rewrite.kind}`,
          {
            [rewriteFeature(rewrite.kind)]: 1,
            "rewrite-tried": tried(rewrite.text) ? 1 : 0,
            "rewrite-statement-kind": statementKinds.has(rewrite.kind) ? 1 : 0,
            "rewrite-statement-number": context.read.terms.numbers.some(
              (number) => rewrite.text.includes(number) && !entry.text.includes(number),
            )
              ? 1
              : 0,
            ...probeValues(context, probe, rewrite.text),
          },
          context,
        ),
      ),
    );
  }
  const rewrite = entry.rewrites[Number(rewriteLabel.split(":")[1])] ?? entry.rewrites[0];
  const replacement = rewrite?.text ?? entry.text;
  return bashAction(
    context.read,
    `Line ${entry.line} of ${entry.file} looks wrong; let me change \`${entry.text.trim()}\` to \`${replacement.trim()}\`.`,
    editCommand(entry.file, entry.line, entry.text, replacement),
  );
}
