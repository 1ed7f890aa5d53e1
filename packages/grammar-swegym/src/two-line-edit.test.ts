import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatMessage, PolicyView } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { editCommand, revertCommand, showCommand } from "./commands.js";
import { readView } from "./read-view.js";

const directory = mkdtempSync(join(tmpdir(), "hs-two-line-edit-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const file = "fmt.py";
const lines = [
  "def format_number(value):",
  '    text = f"{value:.2f}"',
  '    text = text.rstrip("0").rstrip(".")',
  ...Array.from({ length: 12 }, (_, index) => `    step_${index} = ${index}`),
  "    return text",
];
writeFileSync(join(directory, file), `${lines.join("\n")}\n`);
const git = (...args: string[]) => execFileSync("git", args, { cwd: directory });
git("init", "-q");
git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".");
git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start");

function run(command: string): ChatMessage[] {
  const output = execFileSync("bash", ["-c", command], { cwd: directory, encoding: "utf8" });
  return [
    { role: "assistant", content: `THOUGHT: next.\n\n\`\`\`bash\n${command}\n\`\`\`` },
    { role: "user", content: `<returncode>0</returncode>\n<output>\n${output}</output>` },
  ];
}

function view(messages: ChatMessage[]): PolicyView {
  return {
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      {
        role: "user",
        content: "<pr_description>\nConsider the following PR description:\nStrip zeros.\n</pr_description>",
      },
      ...messages,
    ],
    tools: [],
    actionFormat: "text",
  } as unknown as PolicyView;
}

describe("a rewrite that writes two lines", () => {
  const original = '    text = text.rstrip("0").rstrip(".")';
  const guarded = '    if "." in text:\n        text = text.rstrip("0").rstrip(".")';
  const shown = run(showCommand(file, 1, 16));
  const edited = [...shown, ...run(editCommand(file, 3, original, guarded))];

  it("is written to the file, and the lines below it keep their text at their new numbers", () => {
    const read = readView(view(edited));
    const byLine = read.shown.get(file);
    expect(read.edits[0]).toMatchObject({ line: 3, applied: true, replacement: guarded });
    expect(byLine?.get(3)?.text).toBe('    if "." in text:');
    expect(byLine?.get(4)?.text).toBe(original.replace("    ", "        "));
    // line 16 was shown before the edit only, outside the region the edit shows again
    expect(byLine?.get(17)?.text).toBe("    return text");
  });

  it("is undone by a revert, the lines below numbered as before", () => {
    const read = readView(view([...edited, ...run(revertCommand(file))]));
    expect(read.edits[0]?.reverted).toBe(true);
    expect(read.shown.get(file)?.get(3)?.text).toBe(original);
    expect(read.shown.get(file)?.get(15)?.text).toBe("    step_11 = 11");
    expect(read.shown.get(file)?.get(16)?.text).toBe("    return text");
    expect(read.shown.get(file)?.get(17)).toBeUndefined();
  });
});
