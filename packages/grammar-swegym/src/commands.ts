/**
 * The shell commands the grammar writes. Each is ONE command (mini-swe-agent's rule: one command, or
 * commands joined by `&&`), runs in a fresh subshell in the repository, and prints what the next view
 * is read from.
 */

/** mini-swe-agent's submission command (swebench.yaml `instance_template`, "Submission"). */
export const submitCommand = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached";

/** Lists the repository's Python files. */
export const exploreCommand = "find . -name '*.py' -not -path './.git/*' | sort | head -n 200";

/** A Python single-quoted-safe text for a shell `'...'` argument. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Searches the non-test Python sources for a fixed string, with file names and line numbers. */
export function searchCommand(term: string): string {
  return `grep -rnF --include='*.py' --exclude-dir=tests --exclude-dir=.git -e ${shellQuote(term)} . | head -n 40`;
}

/** Shows lines `first`..`last` of a file with their numbers (the prompt's own "View file content" example). */
export function showCommand(file: string, first: number, last: number): string {
  return `nl -ba ${shellQuote(file)} | sed -n '${first},${last}p'`;
}

/** Seconds a test run of the grammar may take before `timeout` stops it. */
export const testTimeLimitSeconds = 20;

/** The line a test run prints when `timeout` stopped it. */
export const testTimeoutMarker = "HS: the test run timed out";

/** Runs the tests: all of them, one test file or one test id; stops at the first failure or after 20 s. */
export function testCommand(target: string | null): string {
  const what = target === null ? "" : ` ${shellQuote(target)}`;
  // a rewrite can make the code loop forever: the run is cut after 20 s and says so
  return `{ timeout ${testTimeLimitSeconds} python3 -m pytest -x -q -p no:cacheprovider --tb=short${what} 2>&1; [ $? -ne 124 ] || echo '${testTimeoutMarker}'; } | tail -n 60`;
}

/** Python literal of a text (a JSON string is a valid Python string literal). */
function pythonString(text: string): string {
  return JSON.stringify(text);
}

/**
 * Replaces line `line` of `file` with `replacement` only if it still reads `original`, prints what
 * changed, then shows the region around it. A line that changed since the view showed it is left
 * alone and the script says so.
 */
export function editCommand(file: string, line: number, original: string, replacement: string): string {
  const script = [
    "import pathlib, sys",
    `path = pathlib.Path(${pythonString(file)})`,
    `number, old, new = ${line}, ${pythonString(original)}, ${pythonString(replacement)}`,
    'lines = path.read_text().split("\\n")',
    "if number > len(lines) or lines[number - 1] != old:",
    '    sys.exit(f"not edited: line {number} of {path} no longer reads {old!r}")',
    "lines[number - 1] = new",
    'path.write_text("\\n".join(lines))',
    'print(f"edited {path}:{number}: {old.strip()} -> {new.strip()}")',
  ].join("\n");
  const first = Math.max(1, line - 5);
  return `python3 - <<'HS_EDIT' && ${showCommand(file, first, line + 5)}\n${script}\nHS_EDIT`;
}

/** Restores an edited file to the checked-out version. */
export function revertCommand(file: string): string {
  return `git checkout -- ${shellQuote(file)} && git status --short`;
}

/**
 * Evaluates an expression the issue writes (`parse("+5m")`) with every public name of the given
 * packages and their modules in scope, printing its repr or the traceback.
 */
export function reproduceCommand(packages: readonly string[], expression: string): string {
  const script = [
    "import importlib, pkgutil",
    `for package_name in ${JSON.stringify(packages)}:`,
    "    package = importlib.import_module(package_name)",
    "    modules = [package] + [importlib.import_module(package.__name__ + '.' + info.name) for info in pkgutil.iter_modules(getattr(package, '__path__', []))]",
    "    for module in modules:",
    "        globals().update({key: value for key, value in vars(module).items() if not key.startswith('_')})",
    `print(repr(${expression}))`,
  ].join("\n");
  return `python3 - <<'HS_RUN'\n${script}\nHS_RUN`;
}

/**
 * How long one expression of a probe may run before it counts as raising `TimeoutError`:
 * CPU seconds (the process's own, so a loaded machine does not change the verdict; a rewrite that loops
 * is cut quickly) and wall seconds (for one that sleeps or waits).
 */
export const probeTimeLimits = { cpuSeconds: 0.1, wallSeconds: 1 } as const;

/**
 * A candidate text as one line, the way a probe prints it: stripped, the two lines of a guard and its
 * line joined by ` \n ` (a backslash and an n between spaces).
 */
export function rewriteKey(text: string): string {
  return text
    .split("\n")
    .map((part) => part.trim())
    .join(" \\n ");
}

/** Characters of a probe result kept. */
const probeResultChars = 100;

/** One line a probe tries: its number, its text as shown, its candidate rewrites. */
export interface ProbeTarget {
  /** 1-based line. */
  line: number;
  /** The line as shown. */
  original: string;
  /** Candidate texts of the line. */
  rewrites: readonly string[];
}

/**
 * Tries each candidate text of some lines of `file` against expressions the issue writes, in one
 * Python process: for the original file and for each rewrite (one line changed at a time) it imports
 * the packages afresh and prints each expression's repr (`[i] => ...`) or what it raised (`[i] raised
 * Error: ...`), each cut after `probeTimeLimits`; a rewrite giving the original's results prints `= the original's
 * results`. The file is never written (the import system is served each rewrite from memory), so the
 * repository is as before whatever a rewrite does.
 */
export function probeCommand(
  packages: readonly string[],
  expressions: readonly string[],
  file: string,
  targets: readonly ProbeTarget[],
): string {
  const script = [
    "import importlib, importlib.machinery, os, pathlib, pkgutil, signal, sys",
    "sys.dont_write_bytecode = True",
    `packages, expressions = ${JSON.stringify(packages)}, ${JSON.stringify(expressions)}`,
    `path = pathlib.Path(${pythonString(file)})`,
    `targets = ${JSON.stringify(targets.map((target) => [target.line, target.original, target.rewrites]))}`,
    "text = path.read_text()",
    "def alarm(number, _):",
    `    raise TimeoutError("ran past " + ("${probeTimeLimits.cpuSeconds} CPU s" if number == signal.SIGPROF else "${probeTimeLimits.wallSeconds} s"))`,
    "signal.signal(signal.SIGALRM, alarm)",
    "signal.signal(signal.SIGPROF, alarm)",
    "def limited(work):",
    `    signal.setitimer(signal.ITIMER_PROF, ${probeTimeLimits.cpuSeconds})`,
    `    signal.setitimer(signal.ITIMER_REAL, ${probeTimeLimits.wallSeconds})`,
    "    try:",
    "        return work()",
    "    finally:",
    "        signal.setitimer(signal.ITIMER_PROF, 0)",
    "        signal.setitimer(signal.ITIMER_REAL, 0)",
    // the rewritten text is served to the import system from memory (the file on disk never changes,
    // so no pyc or directory cache can be stale) and a module's code is compiled once per text
    "root, served = os.getcwd() + os.sep, None",
    "probed = os.path.normpath(os.path.join(root, path))",
    "compiled, standard_get_code = {}, importlib.machinery.SourceFileLoader.get_code",
    "def get_code(self, fullname):",
    "    source_path = self.get_filename(fullname)",
    "    if not source_path.startswith(root):",
    "        return standard_get_code(self, fullname)",
    "    data = served if served is not None and source_path == probed else self.get_data(source_path)",
    "    key = (source_path, data)",
    "    if key not in compiled:",
    "        compiled[key] = self.source_to_code(data, source_path)",
    "    return compiled[key]",
    "importlib.machinery.SourceFileLoader.get_code = get_code",
    "def load():",
    "    for name in [name for name in sys.modules if name.split('.')[0] in packages]:",
    "        del sys.modules[name]",
    "    scope = {}",
    "    for package_name in packages:",
    "        package = importlib.import_module(package_name)",
    "        modules = [package] + [importlib.import_module(package.__name__ + '.' + info.name) for info in pkgutil.iter_modules(getattr(package, '__path__', []))]",
    "        for module in modules:",
    "            scope.update({key: value for key, value in vars(module).items() if not key.startswith('_')})",
    "    return scope",
    "def outcome(expression, scope):",
    "    try:",
    `        return "=> " + limited(lambda: repr(eval(expression, scope)))[:${probeResultChars}]`,
    "    except BaseException as error:",
    `        return f"raised {type(error).__name__}: {error}"[:${probeResultChars}]`,
    "def results():",
    "    try:",
    "        scope = load()",
    "    except BaseException as error:",
    `        return [f"raised {type(error).__name__}: {error}"[:${probeResultChars}]] * len(expressions)`,
    "    return [outcome(expression, scope) for expression in expressions]",
    "def show(found):",
    "    for index, result in enumerate(found):",
    '        print(f"  [{index}] {result}".replace("\\n", "\\\\n"))',
    "for index, expression in enumerate(expressions):",
    '    print(f"[{index}] {expression}")',
    "base = results()",
    "for number, old, rewrites in targets:",
    '    lines = text.split("\\n")',
    "    if number > len(lines) or lines[number - 1] != old:",
    '        print(f"not probed: line {number} of {path} no longer reads {old!r}")',
    "        continue",
    '    print(f"probed {path}:{number} with {len(rewrites)} rewrites")',
    '    print(f"original: {old.strip()}")',
    "    show(base)",
    "    for new in rewrites:",
    "        lines[number - 1] = new",
    '        served = "\\n".join(lines).encode()',
    "        found = results()",
    '        print("rewrite: " + " \\\\n ".join(part.strip() for part in new.split("\\n")))',
    "        if found == base:",
    `            print("  = the original's results")`,
    "        else:",
    "            show(found)",
  ].join("\n");
  return `python3 - <<'HS_PROBE'\n${script}\nHS_PROBE`;
}
