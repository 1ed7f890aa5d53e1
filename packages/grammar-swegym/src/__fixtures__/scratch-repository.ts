import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ChatMessage, PolicyView } from "@hs/spec";

/** A repository written to a scratch directory, with bash run in it and views of real steps there. */
export interface ScratchRepository {
  /** The scratch directory. */
  directory: string;
  /** Runs a command there; a failing one gives its stdout and stderr. */
  bash: (command: string) => string;
  /** A mini-swe-agent view whose steps ran `commands` for real there, after the statement. */
  viewAfter: (commands: readonly string[]) => PolicyView;
  /** Removes the directory. */
  remove: () => void;
}

/** Writes `files` (path to text) to a new scratch directory; views open with `statement`. */
export function scratchRepository(files: Record<string, string>, statement: string): ScratchRepository {
  const directory = mkdtempSync(join(tmpdir(), "hs-grammar-scratch-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), text);
  }
  const bash = (command: string): string => {
    try {
      return execFileSync("bash", ["-c", command], { cwd: directory, encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      const failed = error as { stdout: string; stderr: string };
      return failed.stdout + failed.stderr;
    }
  };
  const viewAfter = (commands: readonly string[]): PolicyView => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a helpful assistant." },
      {
        role: "user",
        content: `<pr_description>\nConsider the following PR description:\n${statement}\n</pr_description>`,
      },
    ];
    for (const command of commands) {
      messages.push({ role: "assistant", content: `THOUGHT: next.\n\n\`\`\`bash\n${command}\n\`\`\`` });
      messages.push({
        role: "user",
        content: `<returncode>0</returncode>\n<output>\n${bash(command)}</output>`,
      });
    }
    return { messages, tools: [], actionFormat: "text" };
  };
  return { directory, bash, viewAfter, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
