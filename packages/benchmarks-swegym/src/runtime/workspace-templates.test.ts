import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { createLocalRuntime } from "./local-runtime.js";

const fixture = createTinyMirror();
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-scratch-"));
afterAll(() => {
  fixture.remove();
  rmSync(scratch, { recursive: true, force: true });
});
const request = (setup?: { install?: string; artifacts?: string }) => ({
  instanceId: fixture.instance.instance_id,
  repo: fixture.instance.repo,
  baseCommit: fixture.instance.base_commit,
  ...(setup === undefined ? {} : { setup }),
});

describe.each(["auto", "copy"] as const)("workspaces from per-commit templates (layering %s)", (layering) => {
  const runtime = createLocalRuntime({
    mirrorDirectory: fixture.mirror,
    scratchDirectory: scratch,
    layering,
  });

  it("start clean at the base commit, and one workspace's edits reach neither the template nor the next one", async () => {
    const first = await runtime.createWorkspace(request());
    expect((await first.run("git rev-parse HEAD && git status --porcelain")).output.trim()).toBe(
      fixture.instance.base_commit,
    );
    await first.run("echo broken >> calc.py && git add -A && git commit -qm edit");
    await first.close();
    const second = await runtime.createWorkspace(request());
    const state = await second.run("git rev-parse HEAD && git status --porcelain && grep -c broken calc.py");
    expect(state.output.trim()).toBe(`${fixture.instance.base_commit}\n0`);
    await second.close();
  });

  it("run the spec's install once per commit: every workspace of the commit holds its build", async () => {
    const setup = { install: "mkdir -p __pycache__ && date +%s%N > __pycache__/stamp" };
    const first = await runtime.createWorkspace(request(setup));
    const stamp = (await first.run("cat __pycache__/stamp")).output.trim();
    await first.close();
    const second = await runtime.createWorkspace(request(setup));
    expect((await second.run("cat __pycache__/stamp && git status --porcelain")).output.trim()).toBe(stamp);
    await second.close();
    const plain = await runtime.createWorkspace(request());
    expect((await plain.run("ls __pycache__ 2>&1")).returncode).not.toBe(0);
    await plain.close();
  });

  it("copy a commit's prebuilt artifacts in, and name a missing directory or a failed install", async () => {
    const artifacts = join(scratch, `artifacts-${layering}`);
    mkdirSync(join(artifacts, fixture.instance.base_commit, "__pycache__"), { recursive: true });
    writeFileSync(join(artifacts, fixture.instance.base_commit, "__pycache__", "calc.so"), "binary");
    const built = await runtime.createWorkspace(request({ artifacts: `${artifacts}/{commit}` }));
    expect((await built.run("cat __pycache__/calc.so")).output).toBe("binary");
    await built.close();
    await expect(
      runtime.createWorkspace(request({ artifacts: `${artifacts}/none-{commit}` })),
    ).rejects.toThrow(/artifacts directory .*none-[0-9a-f]{40} .* does not exist/);
    await expect(
      runtime.createWorkspace(request({ install: "echo no compiler here; exit 3" })),
    ).rejects.toThrow(
      /the spec's install \(echo no compiler here; exit 3\) exited 3 in fixture__calc at [0-9a-f]{40}:\nno compiler here/,
    );
  });
});
