import { posix } from "node:path";
import type { Workspace } from "../runtime/workspace.js";

/** Arguments of the file viewer/editor tool. */
export interface EditorArguments {
  /** `view`, `create`, `str_replace` or `insert`. */
  command: string;
  /** File path, relative to the repository or absolute inside it. */
  path: string;
  /** Content for `create`. */
  file_text?: string;
  /** Text to replace (must occur exactly once) for `str_replace`. */
  old_str?: string;
  /** Replacement for `str_replace`, text for `insert`. */
  new_str?: string;
  /** Line after which `insert` inserts (0 = top). */
  insert_line?: number;
  /** `[first, last]` lines for `view` (1-based, last -1 = end). */
  view_range?: [number, number];
}

/** What the editor answers. */
export interface EditorResult {
  /** Text for the policy. */
  content: string;
  /** True when the command failed. */
  isError: boolean;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function resolvePath(workspace: Workspace, path: string): string | null {
  const absolute = posix.resolve(workspace.directory, path);
  const inside = absolute === workspace.directory || absolute.startsWith(`${workspace.directory}/`);
  return inside ? absolute : null;
}

async function readText(workspace: Workspace, path: string): Promise<string | null> {
  const result = await workspace.run(`test -f ${quote(path)} && cat -- ${quote(path)}`, {
    timeLimitMs: 30_000,
  });
  return result.returncode === 0 ? result.output : null;
}

async function writeText(workspace: Workspace, path: string, content: string): Promise<boolean> {
  const command = `mkdir -p -- "$(dirname ${quote(path)})" && cat > ${quote(path)}`;
  const result = await workspace.run(command, { timeLimitMs: 30_000, input: content });
  return result.returncode === 0;
}

function numbered(text: string, first: number, last: number): string {
  const lines = text.split("\n");
  const end = last === -1 ? lines.length : Math.min(last, lines.length);
  const shown: string[] = [];
  for (let line = Math.max(first, 1); line <= end; line++) {
    shown.push(`${String(line).padStart(6)}\t${lines[line - 1] ?? ""}`);
  }
  return shown.join("\n");
}

async function replaceOnce(
  workspace: Workspace,
  path: string,
  text: string,
  args: EditorArguments,
): Promise<EditorResult> {
  const oldText = args.old_str ?? "";
  const count = oldText === "" ? 0 : text.split(oldText).length - 1;
  if (count !== 1) {
    const why = count === 0 ? "did not appear verbatim" : `appears ${count} times; make it unique`;
    return { content: `No replacement was performed: old_str ${why} in ${args.path}.`, isError: true };
  }
  const updated = text.replace(oldText, () => args.new_str ?? "");
  if (!(await writeText(workspace, path, updated)))
    return { content: `Cannot write ${args.path}.`, isError: true };
  const at = updated.slice(0, updated.indexOf(args.new_str ?? "")).split("\n").length;
  return {
    content: `The file ${args.path} has been edited.\n${numbered(updated, at - 4, at + 4)}`,
    isError: false,
  };
}

/**
 * A file viewer and editor with `str_replace`, in the manner of SWE-agent's and OpenHands'
 * `str_replace_editor`, working through the workspace's own commands (so the sandbox holds for it too).
 */
export async function runEditor(workspace: Workspace, args: EditorArguments): Promise<EditorResult> {
  const path = resolvePath(workspace, args.path);
  if (path === null) return { content: `The path ${args.path} is outside the repository.`, isError: true };
  if (args.command === "create") {
    const done = await writeText(workspace, path, args.file_text ?? "");
    return done
      ? { content: `File created successfully at: ${args.path}`, isError: false }
      : { content: `Cannot create ${args.path}.`, isError: true };
  }
  const text = await readText(workspace, path);
  if (text === null) return { content: `The path ${args.path} is not a readable file.`, isError: true };
  if (args.command === "view") {
    const [first, last] = args.view_range ?? [1, -1];
    return {
      content: `Here's the result of running \`cat -n\` on ${args.path}:\n${numbered(text, first, last)}`,
      isError: false,
    };
  }
  if (args.command === "str_replace") return replaceOnce(workspace, path, text, args);
  if (args.command === "insert") {
    const lines = text.split("\n");
    const at = Math.max(0, Math.min(args.insert_line ?? 0, lines.length));
    lines.splice(at, 0, ...(args.new_str ?? "").split("\n"));
    if (!(await writeText(workspace, path, lines.join("\n"))))
      return { content: `Cannot write ${args.path}.`, isError: true };
    return {
      content: `The file ${args.path} has been edited.\n${numbered(lines.join("\n"), at - 3, at + 5)}`,
      isError: false,
    };
  }
  return {
    content: `Unknown editor command "${args.command}"; use view, create, str_replace or insert.`,
    isError: true,
  };
}
