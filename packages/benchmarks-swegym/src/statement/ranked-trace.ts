import { traceHeader, traceStatementCommand } from "./statement-trace.js";

/**
 * The statement trace with its executed lines ranked against the repository's own tests: the lines
 * the statement's calls executed, those the passing tests execute least first (spectrum-based fault
 * localisation with the statement's calls as the one failing run, the Ochiai score of Abreu, Zoeteweij
 * and van Gemund, "On the accuracy of spectrum-based fault localization", 2007). The tests are the
 * ones the repository holds at its checked-out commit (they pass there; the failing tests come only
 * with the grader's test patch), run in the same process under a per-test line tracer; no test name or
 * test line is printed, only repository lines and the counts of tests that passed and failed.
 */

/** The line before the ranked lines (after the calls' outcomes, in the trace's line format). */
export const rankedLinesHeader =
  "repository lines the calls executed, those the repository's passing tests execute least first";

/** Ranked lines shown, at most: fewer than the trace's, so the lines shown are the suspicious ones. */
export const rankedLineCap = 12;

/** Seconds the whole ranked trace (the calls and the repository's test run) may take; agent commands get 60. */
export const rankedTraceSeconds = 45;

const rankingScript = [
  "if executed:",
  "    import contextlib, io, math",
  "    import pytest",
  "    covered = dict()",
  "    outcomes = [0, 0]",
  "    class Coverage:",
  "        @pytest.hookimpl(hookwrapper=True)",
  "        def pytest_runtest_call(self, item):",
  "            seen = set()",
  "            def local(frame, event, argument):",
  "                if event == 'line':",
  "                    seen.add((relative(frame.f_code.co_filename), frame.f_lineno))",
  "                return local",
  "            def outer(frame, event, argument):",
  "                return local if relative(frame.f_code.co_filename) is not None else None",
  "            sys.settrace(outer)",
  "            outcome = yield",
  "            sys.settrace(None)",
  "            failed = int(outcome.excinfo is not None)",
  "            outcomes[failed] += 1",
  "            for key in seen:",
  "                covered.setdefault(key, [0, 0])[failed] += 1",
  "    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):",
  "        try:",
  "            pytest.main(['-q', '-p', 'no:cacheprovider', '--tb=no', '-o', 'addopts='], plugins=[Coverage()])",
  "        except BaseException:",
  "            pass",
  "    def score(key):",
  "        passed, failed = covered.get(key, [0, 0])",
  "        return (1 + failed) / math.sqrt((1 + outcomes[1]) * (1 + failed + passed))",
  `    print(${JSON.stringify(rankedLinesHeader)} + ' (%d tests passed, %d failed):' % (outcomes[0], outcomes[1]))`,
  "    ranked = sorted(executed.items(), key=lambda item: (-score(item[0]), -item[1][1], item[0][0], item[0][1]))",
  `    for (path, number), (hits, depth, first) in ranked[:${rankedLineCap}]:`,
  "        print('%s:%d x%d\\t%s' % (path, number, hits, linecache.getline(os.path.join(root, path), number).rstrip()))",
  `    if len(ranked) > ${rankedLineCap}:`,
  `        print('(%d more lines executed)' % (len(ranked) - ${rankedLineCap}))`,
].join("\n");

/** The start every ranked trace command has, whatever its calls. */
const rankedRunner = `HS_TRACE_LINES=0 timeout ${rankedTraceSeconds} `;
const rankedCommandStart = `echo ${JSON.stringify(traceHeader)} && ${rankedRunner}`;

/**
 * Whether `command` is a ranked trace (`rankedTraceCommand`), whoever ran it: its output shows no ranked
 * lines when the calls executed no repository line, so only the command tells that the ranking ran.
 */
export function isRankedTraceCommand(command: string): boolean {
  return command.startsWith(rankedCommandStart) && command.includes(rankedLinesHeader);
}

/**
 * The ranked trace command for the calls given as a Python list literal (as `traceStatementCommand`):
 * the trace's calls and outcomes, its own line listing off, then the ranking over the repository's
 * tests, all under `timeout`. Its output starts with `traceHeader`, so `readTraceOutput` reads it.
 */
export function rankedTraceCommand(callsLiteral: string): string {
  return traceStatementCommand(callsLiteral, { runner: rankedRunner, after: rankingScript });
}
