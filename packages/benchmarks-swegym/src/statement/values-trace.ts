import { traceStatementCommand } from "./statement-trace.js";

/**
 * The statement trace with the module-level values its calls read: a table, a constant or a compiled
 * pattern is built when its module is imported, before the trace starts, so none of its lines is among
 * the lines the calls executed, and a bug in one is out of sight. After the calls, each repository
 * function they ran names the module globals it reads (`co_names`); those holding data (not a function,
 * class or module) are found in their module's source as top-level assignments, and their lines are
 * printed in the trace's line format (`x0`: the calls executed none of them), so a reader of traces
 * shows and probes them like the executed lines. Only the statement's calls and the repository's own
 * source are read.
 */

/** The line before the value definitions. */
export const valuesLinesHeader =
  "module-level values the calls read (built at import, so not among the executed lines):";

/**
 * Lines of one definition shown, at most, when none of its lines holds a string the calls pass (when some
 * do, those lines and the definition's first are shown: the entries of a table the calls look up).
 */
export const valueDefinitionLineCap = 16;

/** Value lines shown, at most. */
export const valueLineCap = 30;

const valuesScript = [
  "import ast, re, types",
  "def strings_of(call):",
  "    try:",
  "        return [node.value for node in ast.walk(ast.parse(call, mode='eval')) if isinstance(node, ast.Constant) and isinstance(node.value, str)]",
  "    except SyntaxError:",
  "        return []",
  "call_strings = [text for call in calls for text in strings_of(call)]",
  "def mentions(line):",
  "    return any(constant in text for _, constant in re.findall(r'''([\"'])((?:(?!\\1).)+)\\1''', line) for text in call_strings)",
  "read_names = dict()",
  "for code, module_globals in codes.items():",
  "    for name in code.co_names:",
  "        if name in module_globals and not callable(module_globals[name]) and not isinstance(module_globals[name], types.ModuleType):",
  "            read_names.setdefault(relative(code.co_filename), set()).add(name)",
  "value_rows = []",
  "for path in sorted(read_names):",
  "    try:",
  "        tree = ast.parse(open(os.path.join(root, path)).read())",
  "    except (OSError, SyntaxError, ValueError):",
  "        continue",
  "    for node in tree.body:",
  "        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []",
  "        names = [element.id for target in targets for element in ([target] + list(getattr(target, 'elts', []))) if isinstance(element, ast.Name)]",
  "        if any(name in read_names[path] for name in names):",
  "            numbers = list(range(node.lineno, (node.end_lineno or node.lineno) + 1))",
  "            named = [number for number in numbers[1:] if mentions(linecache.getline(os.path.join(root, path), number))]",
  `            value_rows.extend((path, number) for number in ([numbers[0]] + named if named else numbers[:${valueDefinitionLineCap}]))`,
  "if value_rows:",
  `    print(${JSON.stringify(valuesLinesHeader)})`,
  `    for path, number in value_rows[:${valueLineCap}]:`,
  "        print('%s:%d x0\\t%s' % (path, number, linecache.getline(os.path.join(root, path), number).rstrip()))",
  `    if len(value_rows) > ${valueLineCap}:`,
  `        print('(%d more value lines)' % (len(value_rows) - ${valueLineCap}))`,
].join("\n");

/**
 * The values trace command for the calls given as a Python list literal (as `traceStatementCommand`):
 * each call's outcome, the lines they executed unless `executedLines` is false, then the values.
 */
export function valuesTraceCommand(callsLiteral: string, executedLines = true): string {
  return traceStatementCommand(callsLiteral, {
    runner: executedLines ? "" : "HS_TRACE_LINES=0 ",
    after: valuesScript,
  });
}
