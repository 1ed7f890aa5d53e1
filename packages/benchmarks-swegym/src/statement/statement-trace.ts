/**
 * A line trace of the calls a problem statement writes: the harness (or the policy) runs them in the
 * repository under Python's `sys.settrace`, restricted to the repository's non-test files, and shows
 * each call's value or traceback and the repository lines the calls executed, so the region of the
 * bug is in view before any file is read. The calls are the statement's own (`statementTerms`), never
 * a test of the grader.
 */

/** First line of a trace's output (what readers key on). */
export const traceHeader = "HS-TRACE: the calls the issue writes, run in the repository";

/** The line before the executed lines. */
export const traceLinesHeader = "repository lines the calls executed (deepest calls first):";

/** Executed lines shown, at most. */
export const traceLineCap = 30;

/** Seconds one call may run before it counts as raising `TimeoutError`. */
export const traceCallSeconds = 2;

/** One executed line as printed: `path.py:LINE xHITS` then a tab and the line's text. */
const tracedLinePattern = /^([^\s:]+\.py):(\d+) x(\d+)\t(.*)$/;

const script = [
  "import importlib, linecache, os, pkgutil, signal, sys, traceback",
  "sys.dont_write_bytecode = True",
  "root = os.path.realpath(os.getcwd()) + os.sep",
  "calls = HS_CALLS",
  "show_lines = os.environ.get('HS_TRACE_LINES', '1') == '1'",
  "known = dict()",
  "def relative(path):",
  "    if path not in known:",
  "        real = os.path.realpath(path)",
  "        parts = real[len(root):].split(os.sep)",
  "        test = any(part in ('tests', 'test', '.git') for part in parts[:-1]) or parts[-1].startswith('test_') or parts[-1] == 'conftest.py'",
  "        known[path] = None if path.startswith('<') or not real.startswith(root) or test else real[len(root):]",
  "    return known[path]",
  "executed = dict()",
  "codes = dict()",
  "clock = [0]",
  "def depth_of(frame):",
  "    depth = 0",
  "    while frame is not None:",
  "        depth, frame = depth + (relative(frame.f_code.co_filename) is not None), frame.f_back",
  "    return depth",
  "def tracer(frame, event, argument):",
  "    if relative(frame.f_code.co_filename) is None:",
  "        return None",
  "    codes.setdefault(frame.f_code, frame.f_globals)",
  "    depth = depth_of(frame)",
  "    def local(frame, event, argument):",
  "        if event == 'line':",
  "            clock[0] += 1",
  "            entry = executed.setdefault((relative(frame.f_code.co_filename), frame.f_lineno), [0, depth, clock[0]])",
  "            entry[0] += 1",
  "        return local",
  "    return local",
  "def alarm(*_):",
  `    raise TimeoutError('the call ran past ${traceCallSeconds} s')`,
  "signal.signal(signal.SIGALRM, alarm)",
  "def package_names():",
  "    names = []",
  "    for base in ('.', 'src'):",
  "        if not os.path.isdir(base):",
  "            continue",
  "        if base == 'src':",
  "            sys.path.insert(0, os.path.abspath('src'))",
  "        for name in sorted(os.listdir(base)):",
  "            if not name.startswith(('.', 'test')) and os.path.isfile(os.path.join(base, name, '__init__.py')):",
  "                names.append(name)",
  "    return names",
  "def frames(error):",
  "    found = [entry for entry in traceback.extract_tb(error.__traceback__) if relative(entry.filename) is not None]",
  "    for entry in found[-4:]:",
  "        print('    File \"%s\", line %d, in %s' % (relative(entry.filename), entry.lineno, entry.name))",
  "        print('      ' + (entry.line or '').strip())",
  "    if isinstance(error, SyntaxError) and error.filename and relative(error.filename):",
  "        print('    File \"%s\", line %d' % (relative(error.filename), error.lineno or 0))",
  "        print('      ' + (error.text or '').strip())",
  "scope = dict()",
  "try:",
  "    print('packages: ' + ' '.join(package_names()))",
  "    for package_name in package_names():",
  "        package = importlib.import_module(package_name)",
  "        modules = [package] + [importlib.import_module(package.__name__ + '.' + info.name) for info in pkgutil.iter_modules(getattr(package, '__path__', []))]",
  "        for module in modules:",
  "            scope.update(dict((key, value) for key, value in vars(module).items() if not key.startswith('_')))",
  "except BaseException as error:",
  "    frames(error)",
  "    print('the repository does not import: %s: %s' % (type(error).__name__, error))",
  "    sys.exit(0)",
  "if not calls:",
  "    print('the issue writes no call to run')",
  "for index, call in enumerate(calls):",
  "    print('[%d] %s' % (index, call))",
  `    signal.setitimer(signal.ITIMER_REAL, ${traceCallSeconds})`,
  "    sys.settrace(tracer)",
  "    try:",
  "        print('  => ' + repr(eval(call, scope))[:300].replace(chr(10), '\\\\n'))",
  "    except BaseException as error:",
  "        sys.settrace(None)",
  "        print('  raised %s: %s' % (type(error).__name__, str(error)[:300].replace(chr(10), ' ')))",
  "        frames(error)",
  "    finally:",
  "        sys.settrace(None)",
  "        signal.setitimer(signal.ITIMER_REAL, 0)",
  "if show_lines and executed:",
  `    print(${JSON.stringify(traceLinesHeader)})`,
  "    ranked = sorted(executed.items(), key=lambda item: (-item[1][1], item[0][0], item[0][1]))",
  `    for (path, number), (hits, depth, first) in ranked[:${traceLineCap}]:`,
  "        print('%s:%d x%d\\t%s' % (path, number, hits, linecache.getline(os.path.join(root, path), number).rstrip()))",
  `    if len(ranked) > ${traceLineCap}:`,
  `        print('(%d more lines executed)' % (len(ranked) - ${traceLineCap}))`,
].join("\n");

/** What a trace built on this one adds (the ranked and the values traces). */
export interface TraceExtension {
  /** Written before `python3` (environment and `timeout`, e.g. `HS_TRACE_LINES=0 `). */
  runner?: string;
  /** Python run after the trace's own script, in the same process (its names in scope). */
  after?: string;
}

/**
 * The trace command for the calls given as a Python list literal (`{metadata.statementCalls}` in a
 * harness call, whose JSON list is one; or the JSON of the calls the policy read). One command: a
 * heredoc Python script, nothing written to the repository.
 */
export function traceStatementCommand(callsLiteral: string, extension: TraceExtension = {}): string {
  const body = [
    script.replace("HS_CALLS", () => callsLiteral),
    ...(extension.after ? [extension.after] : []),
  ];
  return `echo ${JSON.stringify(traceHeader)} && ${extension.runner ?? ""}python3 - <<'HS_TRACE'\n${body.join("\n")}\nHS_TRACE`;
}

/**
 * The statement's calls run on the working tree and, when the tree has changes, on the checked-out
 * version too (the changes stashed for the run, then restored): the before and after of an edit.
 */
export function traceBeforeAfterCommand(callsLiteral: string): string {
  const trace = traceStatementCommand(callsLiteral);
  const before = `HS_TRACE_LINES=0 ${trace.replace(`echo ${JSON.stringify(traceHeader)} && `, "")}`;
  return [
    "if git diff --quiet; then",
    trace,
    "else echo 'after the changes:' &&",
    trace,
    "git stash push -q && { echo 'before the changes (checked-out version):'; ",
    before,
    "git stash pop -q; }; fi",
  ].join("\n");
}

/** One line a trace shows as executed. */
export interface TracedLine {
  /** Repository-relative path. */
  file: string;
  /** 1-based line. */
  line: number;
  /** Times the calls executed it. */
  hits: number;
  /** The line's text. */
  text: string;
}

/** What a trace's output shows: each call's outcome and the executed lines, most relevant first. */
export interface TraceReading {
  /** `=> repr` or `raised Error: message`, one per call, in order. */
  outcomes: string[];
  /** Executed lines in the order shown. */
  lines: TracedLine[];
  /** The repository's top-level packages the trace imported the calls' names from. */
  packages: string[];
}

/** Reads a trace's output; null when `output` holds no trace. */
export function readTraceOutput(output: string): TraceReading | null {
  const start = output.indexOf(traceHeader);
  if (start < 0) return null;
  const reading: TraceReading = { outcomes: [], lines: [], packages: [] };
  for (const row of output.slice(start).split("\n")) {
    const packages = /^packages: (.*)$/.exec(row);
    if (packages !== null && reading.packages.length === 0)
      reading.packages = (packages[1] as string).split(" ").filter((name) => name !== "");
    const outcome = /^ {2}(=> .*|raised .*)$/.exec(row);
    if (outcome !== null) reading.outcomes.push(outcome[1] as string);
    const traced = tracedLinePattern.exec(row);
    if (traced !== null)
      reading.lines.push({
        file: traced[1] as string,
        line: Number(traced[2]),
        hits: Number(traced[3]),
        text: traced[4] as string,
      });
  }
  return reading;
}
