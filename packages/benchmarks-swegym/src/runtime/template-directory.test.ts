import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryTemplateDirectory } from "./workspace-templates.js";

describe("temporaryTemplateDirectory", () => {
  it("names its process, and removes the directories of processes that are gone", () => {
    // pid_max is at most 2^22 on Linux: no process has a larger pid
    const stale = join(tmpdir(), `hs-swegym-templates-${2 ** 22 + 7}-gone`);
    mkdirSync(join(stale, "fixture__calc"), { recursive: true });
    const live = join(tmpdir(), `hs-swegym-templates-${process.ppid}-alive`);
    mkdirSync(live, { recursive: true });
    const made = temporaryTemplateDirectory();
    expect(basename(made)).toMatch(new RegExp(`^hs-swegym-templates-${process.pid}-`));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    rmSync(live, { recursive: true, force: true });
    rmSync(made, { recursive: true, force: true });
  });
});
