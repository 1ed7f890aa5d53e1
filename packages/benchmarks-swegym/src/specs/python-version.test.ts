import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Task } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { createSweGym } from "../create-swegym.js";
import { interpreterVersion, pythonMismatch, versionMatches } from "./python-version.js";

describe("a spec's python version against the interpreter", () => {
  it("compares on the spec's own parts", () => {
    expect(versionMatches("3.11", "3.11.7")).toBe(true);
    expect(versionMatches("3", "3.11.7")).toBe(true);
    expect(versionMatches("3.12", "3.11.7")).toBe(false);
    expect(versionMatches("3.1", "3.11.7")).toBe(false);
  });

  it("names both versions and the interpreter", () => {
    expect(
      pythonMismatch("getmoto/moto", "4.1", "3.12", { path: "/usr/bin/python3", version: "3.11.2" }),
    ).toBe(
      "swegym: the spec of getmoto/moto 4.1 asks for Python 3.12, but the tests run on /usr/bin/python3, Python 3.11.2 (give the right one with --python PATH)",
    );
    expect(pythonMismatch("a/b", "1", "3.11", { path: "/p", version: "3.11.2" })).toBeNull();
    expect(pythonMismatch("a/b", "1", undefined, { path: "/p", version: "3.11.2" })).toBeNull();
  });

  it("reads a real interpreter's version", () => {
    expect(interpreterVersion("/usr/bin/python3")).toMatch(/^3\.\d+\.\d+$/);
    expect(interpreterVersion("/nonexistent/python")).toBeNull();
  });
});

describe("createSweGym warns once per repository version", () => {
  const fixture = createTinyMirror();
  const directory = mkdtempSync(join(tmpdir(), "hs-swegym-python-"));
  afterAll(() => {
    fixture.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  it("when the spec's python is not --python's, and when --repos comes without --python", async () => {
    const data = join(directory, "rows.jsonl");
    writeFileSync(data, `${JSON.stringify(fixture.instance)}\n`);
    const specs = { "fixture/calc": { "*": { test_cmd: "python3 -m pytest -rA", python: "2.7" } } };
    const warnings: string[] = [];
    const swegym = await createSweGym({
      repos: fixture.mirror,
      python: "/usr/bin/python3",
      specs,
      warn: (message) => warnings.push(message),
    });
    const { tasks } = await swegym.loadTasks({ path: data });
    await (await swegym.createEnvironment(tasks[0] as Task, { seed: 1 })).close();
    await (await swegym.createEnvironment(tasks[0] as Task, { seed: 2 })).close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /asks for Python 2\.7, but the tests run on \/usr\/bin\/python3, Python 3\.\d+\.\d+/,
    );

    const pathWarnings: string[] = [];
    await createSweGym({ repos: fixture.mirror, specs, warn: (message) => pathWarnings.push(message) });
    expect(pathWarnings[0]).toMatch(/^swegym: --repos without --python: .*python3 is 3\.\d+\.\d+/);
  });
});
