import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBundledMirror } from "./bundled-mirror.js";
import { parseInstances } from "./load-instances.js";

const dataDirectory = fileURLToPath(new URL("../../data", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-mirror-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("ensureBundledMirror", () => {
  it("rebuilds the recorded hashes from a copy installed by npm (.gitignore renamed to .npmignore)", () => {
    const file = join(dataDirectory, "train.jsonl");
    const instances = parseInstances(readFileSync(file, "utf8"), file, "train")
      .instances.map((entry) => entry.instance)
      .filter((instance) => instance.repo === "harness-s/csvlite");
    expect(instances.length).toBeGreaterThan(0);
    const repos = join(scratch, "repos");
    cpSync(join(dataDirectory, "repos", "csvlite"), join(repos, "csvlite"), { recursive: true });
    expect(existsSync(join(repos, "csvlite", ".gitignore"))).toBe(true);
    renameSync(join(repos, "csvlite", ".gitignore"), join(repos, "csvlite", ".npmignore"));
    const cache = join(scratch, "cache");
    mkdirSync(cache);
    const mirror = ensureBundledMirror(repos, instances, cache);
    expect(existsSync(join(mirror, "complete"))).toBe(true);
  });
});
