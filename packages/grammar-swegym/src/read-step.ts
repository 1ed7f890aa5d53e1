import { testTimeoutMarker } from "./commands.js";
import type { ObservedEdit, ObservedProbe, ObservedStep, ReadView } from "./read-view.js";
import { readTrace } from "./trace-step.js";

const numberedLine = /^\s*(\d+)\t(.*)$/;
const grepLine = /^(?:\.\/)?([^\s:]+\.py):(\d+):(.*)$/;
const pytestLocation = /^(?:\.\/)?([^\s:"]+\.py):(\d+):/;
const tracebackFrame = /File "([^"]+\.py)", line (\d+)/g;
const listedFile = /^\.\/(\S+\.py)$/;

function normalizePath(path: string): string {
  return path.replace(/^\.\//, "").replace(/^'|'$/g, "");
}

function addFile(read: ReadView, file: string): void {
  if (!read.files.includes(file)) read.files.push(file);
}

/** A traceback path made repository-relative: a relative path as is, an absolute one by a known file it ends with. */
function relativeFile(read: ReadView, path: string): string | null {
  if (!path.startsWith("/")) return path.startsWith("<") ? null : normalizePath(path);
  let best: string | null = null;
  for (const file of read.files) {
    if (path.endsWith(`/${file}`) && (best === null || file.length > best.length)) best = file;
  }
  return best;
}

function showLine(read: ReadView, file: string, line: number, text: string, step: number): void {
  const lines = read.shown.get(file) ?? new Map();
  lines.set(line, { text, step });
  read.shown.set(file, lines);
  addFile(read, file);
}

function addRange(read: ReadView, file: string, first: number, last: number): void {
  const ranges = read.shownRanges.get(file) ?? [];
  ranges.push([first, last]);
  read.shownRanges.set(file, ranges);
}

/** Numbered lines (`nl -ba` / `cat -n`) of `output` as lines of `file`. */
function readNumbered(read: ReadView, file: string, output: string, step: number): void {
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const row of output.split("\n")) {
    const match = numberedLine.exec(row);
    if (match === null) continue;
    const line = Number(match[1]);
    showLine(read, file, line, match[2] as string, step);
    first = Math.min(first, line);
    last = Math.max(last, line);
  }
  if (last > 0) addRange(read, file, first, last);
}

function readLocations(read: ReadView, output: string, step: number, isSearch: boolean): void {
  for (const row of output.split("\n")) {
    const grep = isSearch ? grepLine.exec(row) : null;
    if (grep !== null) {
      const file = normalizePath(grep[1] as string);
      showLine(read, file, Number(grep[2]), grep[3] as string, step);
      read.locations.push({ file, line: Number(grep[2]), source: "search", step });
      continue;
    }
    const listed = listedFile.exec(row.trim());
    if (listed !== null) addFile(read, normalizePath(listed[1] as string));
    const pytest = pytestLocation.exec(row);
    if (pytest !== null && !isSearch) {
      const file = normalizePath(pytest[1] as string);
      addFile(read, file);
      read.locations.push({ file, line: Number(pytest[2]), source: "pytest", step });
    }
  }
  for (const frame of output.matchAll(tracebackFrame)) {
    const file = relativeFile(read, frame[1] as string);
    if (file === null) continue;
    addFile(read, file);
    read.locations.push({ file, line: Number(frame[2]), source: "traceback", step });
  }
}

function readTests(read: ReadView, output: string, step: number): void {
  const failedIds = [...output.matchAll(/^(?:FAILED|ERROR) (\S+::\S+)/gm)].map((match) => match[1] as string);
  const summary = /(\d+ (?:passed|failed|errors?)[^\n]*) in [\d.]+s/.exec(output)?.[1] ?? null;
  const failing = summary !== null && /\d+ (failed|errors?)/.test(summary);
  const timedOut = output.includes(testTimeoutMarker);
  const passed = timedOut ? false : summary === null ? (failedIds.length > 0 ? false : null) : !failing;
  read.tests.push({ step, passed, failedIds });
}

function readEdit(read: ReadView, command: string, output: string, step: number): void {
  const path = /path = pathlib\.Path\(("(?:\\.|[^"\\])*")\)/.exec(command);
  const values = /number, old, new = (\d+), ("(?:\\.|[^"\\])*"), ("(?:\\.|[^"\\])*")\n/.exec(command);
  if (path === null || values === null) return;
  const file = JSON.parse(path[1] as string) as string;
  const edit = {
    file,
    line: Number(values[1]),
    original: JSON.parse(values[2] as string) as string,
    replacement: JSON.parse(values[3] as string) as string,
    applied: /^edited /m.test(output),
    reverted: false,
    step,
  };
  read.edits.push(edit);
  if (edit.applied) shiftShown(read, file, edit.line, addedLines(edit));
}

function addedLines(edit: ObservedEdit): number {
  return edit.replacement.split("\n").length - 1;
}

/** Renumbers the lines shown below `line` of `file` after `by` lines were added there (removed: negative). */
function shiftShown(read: ReadView, file: string, line: number, by: number): void {
  const lines = read.shown.get(file);
  if (by === 0 || lines === undefined) return;
  const moved = [...lines].filter(([number]) => number > line);
  for (const [number] of moved) lines.delete(number);
  for (const [number, shown] of moved) if (number + by > line) lines.set(number + by, shown);
}

function readProbe(read: ReadView, output: string, step: number): void {
  let probe: ObservedProbe | null = null;
  let current: string[] | null = null;
  const finish = () => {
    if (probe !== null && probe.original.length > 0) read.probes.set(`${probe.file}:${probe.line}`, probe);
  };
  for (const row of output.split("\n")) {
    const header = /^probed (.+):(\d+) with \d+ rewrites$/.exec(row);
    if (header !== null) {
      finish();
      probe = {
        file: normalizePath(header[1] as string),
        line: Number(header[2]),
        step,
        original: [],
        rewrites: new Map(),
      };
      current = null;
    } else if (probe === null) continue;
    else if (row.startsWith("original: ")) current = probe.original;
    else if (row.startsWith("rewrite: ")) {
      current = [];
      probe.rewrites.set(row.slice("rewrite: ".length).trim(), current);
    } else if (row === "  = the original's results" && current !== null) current.push(...probe.original);
    else if (current !== null) {
      const result = /^ {2}\[\d+\] (.*)$/.exec(row);
      if (result !== null) current.push(result[1] as string);
    }
  }
  finish();
}

function readRevert(read: ReadView, file: string, step: number): void {
  for (const edit of [...read.edits].reverse()) {
    if (edit.file !== file || edit.reverted) continue;
    edit.reverted = true;
    if (!edit.applied) continue;
    shiftShown(read, file, edit.line, -addedLines(edit));
    read.shown.get(file)?.set(edit.line, { text: edit.original, step });
  }
}

/** Folds one earlier step into what the view shows. */
export function readStep(read: ReadView, step: ObservedStep, index: number): void {
  const command = step.command;
  const output = step.output ?? "";
  if (command === null) return;
  if (command.startsWith("find . -name '*.py'")) read.explored = true;
  const search = /^grep -rnF .* -e '((?:[^']|'\\'')*)' \./.exec(command);
  if (search !== null) read.searched.add((search[1] as string).replace(/'\\''/g, "'"));
  if (command.includes("<<'HS_EDIT'")) readEdit(read, command, output, index);
  if (command.includes("<<'HS_PROBE'")) readProbe(read, output, index);
  const reproduce = /print\(repr\(([\s\S]*)\)\)\nHS_RUN$/.exec(command);
  if (reproduce !== null) read.reproduced.add(reproduce[1] as string);
  const revert = /^git checkout -- '((?:[^']|'\\'')*)'/.exec(command);
  if (revert !== null) readRevert(read, (revert[1] as string).replace(/'\\''/g, "'"), index);
  const shown = /nl -ba '?((?:[^'\s]|'\\'')+)'?/.exec(command);
  const editor =
    /^(?:Here's the result of running `cat -n` on|The file) (\S+?)(?::| has been edited\.)\n/.exec(output);
  if (shown !== null) readNumbered(read, normalizePath(shown[1] as string), output, index);
  else if (editor !== null) readNumbered(read, normalizePath(editor[1] as string), output, index);
  readLocations(read, output, index, /^grep\b/.test(command));
  readTrace(read, command, output, index, (file, line, text) => showLine(read, file, line, text, index));
  if (/\bpytest\b/.test(command)) readTests(read, output, index);
}
