import { describe, expect, it } from "vitest";
import { commands } from "./commands/index.js";
import { main, refuseRepeatedOptions } from "./main.js";

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe("hs", () => {
  it("lists every command in --help", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: hs <command>");
    for (const command of commands) expect(stdout).toContain(command.name);
  });

  it("rejects an unknown command with exit code 2", async () => {
    const { code, stderr } = await run(["fly"]);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "fly"');
  });

  it("gives each command a usage text and rejects unknown options with it", async () => {
    for (const command of commands) {
      const help = await run([command.name, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout.length).toBeGreaterThan(20);
      const bad = await run([command.name, "--no-such-option"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--no-such-option");
    }
  });

  it("refuses an option given twice unless the command declares it repeatable", () => {
    const tokens = [
      { kind: "option", name: "data", rawName: "--data", value: "a" },
      { kind: "option", name: "data", rawName: "--data", value: "b" },
    ];
    expect(() => refuseRepeatedOptions(tokens, { data: { type: "string" } })).toThrow(
      "--data is given twice (--data a, then --data b); give each option once",
    );
    expect(() => refuseRepeatedOptions(tokens, { data: { type: "string", multiple: true } })).not.toThrow();
  });
});
