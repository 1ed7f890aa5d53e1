import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseInstances } from "./load-instances.js";

const file = join(import.meta.dirname, "..", "__fixtures__", "mixed.jsonl");
const parsed = parseInstances(readFileSync(file, "utf8"), file, "fixture");

describe("parseInstances", () => {
  it("decodes SWE-bench's JSON-string test lists and keeps extra fields", () => {
    const first = parsed.instances[0]?.instance;
    expect(first?.FAIL_TO_PASS).toEqual(["tests/test_w.py::test_empty"]);
    expect(first?.environment_setup_commit).toBe("b".repeat(40));
    expect((first as Record<string, unknown>).difficulty).toBe("<15 min fix");
  });

  it("takes SWE-Gym's list-valued test lists, a numeric version and no environment_setup_commit", () => {
    const second = parsed.instances[1]?.instance;
    expect(second?.FAIL_TO_PASS).toEqual(["tests/test_w.py::test_empty[a-b]"]);
    expect(second?.version).toBe("1.1");
    expect(second?.environment_setup_commit).toBeUndefined();
  });

  it("names file, line and field of each bad line, and the rest still loads", () => {
    expect(parsed.instances).toHaveLength(2);
    const messages = parsed.problems.map((problem) => problem.message);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toMatch(/mixed\.jsonl:4: not JSON/);
    expect(messages[1]).toMatch(/mixed\.jsonl:5, field "base_commit": expected a git commit hash/);
    expect(messages[2]).toMatch(/mixed\.jsonl:6, field "FAIL_TO_PASS": expected a JSON-encoded list of strings/);
    expect(messages[3]).toMatch(/mixed\.jsonl:7, field "instance_id": instance "acme__widgets-1" appears twice/);
    expect(parsed.problems[1]?.location).toEqual({ file, line: 5, field: "base_commit" });
  });

  it("accepts a UTF-8 byte order mark and refuses an instance with no FAIL_TO_PASS test", () => {
    const [first, second] = readFileSync(file, "utf8").split("\n");
    const row = JSON.parse(second ?? "{}") as Record<string, unknown>;
    const empty = JSON.stringify({ ...row, instance_id: "acme__widgets-9", FAIL_TO_PASS: [] });
    const emptyText = JSON.stringify({ ...row, instance_id: "acme__widgets-10", FAIL_TO_PASS: "[]" });
    const loaded = parseInstances(`\uFEFF${first}\n${empty}\n${emptyText}\n`, "bom.jsonl", "bom");
    expect(loaded.instances.map(({ instance }) => instance.instance_id)).toEqual([
      parsed.instances[0]?.instance.instance_id,
    ]);
    expect(loaded.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/bom\.jsonl:2, field "FAIL_TO_PASS": expected at least one test .* any empty answer would pass/),
      expect.stringMatching(/bom\.jsonl:3, field "FAIL_TO_PASS": expected at least one test/),
    ]);
  });

  it("gives the policy the problem statement and no patch or test list", () => {
    const task = parsed.instances[0]?.task;
    expect(task?.instruction).toBe("Widgets break on empty input.");
    const text = JSON.stringify(task);
    expect(text).not.toContain("diff --git");
    expect(text).not.toContain("test_empty");
    expect(text).not.toContain("test_one");
  });
});
