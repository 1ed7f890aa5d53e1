import { describe, expect, it } from "vitest";
import { evalScript, heredocDelimiter, shellWord, testCommand } from "./eval-script.js";
import { modifiedFiles, mypyCaseExpression, testDirectives } from "./test-directives.js";

const testPatch = `diff --git a/tests/test_a.py b/tests/test_a.py
index 1111111..2222222 100644
--- a/tests/test_a.py
+++ b/tests/test_a.py
@@ -1 +1,2 @@
 x
+y
diff --git a/tests/test_new.py b/tests/test_new.py
new file mode 100644
--- /dev/null
+++ b/tests/test_new.py
@@ -0,0 +1 @@
+z
diff --git a/tests/data/expected.json b/tests/data/expected.json
--- a/tests/data/expected.json
+++ b/tests/data/expected.json
@@ -1 +1 @@
-{}
+[]
`;

describe("test directives", () => {
  it("runs every touched file except non-test extensions, and resets only files that existed", () => {
    expect(testDirectives(testPatch)).toEqual(["tests/test_a.py", "tests/test_new.py"]);
    expect(modifiedFiles(testPatch)).toEqual(["tests/test_a.py", "tests/data/expected.json"]);
  });

  it("builds SWE-Gym's mypy -k expression from the [case ...] headers", () => {
    const mypy = "+[case testOne]\n+x\n+[case testTwo-skip]\n";
    expect(mypyCaseExpression(mypy)).toBe("testOne or testTwo-skip");
    expect(
      testCommand(
        { repo: "python/mypy", base_commit: "abc1234", test_patch: mypy },
        { test_cmd: "pytest -n0 -rA -k" },
      ),
    ).toBe("pytest -n0 -rA -k 'testOne or testTwo-skip'");
  });
});

describe("eval script", () => {
  const instance = { repo: "acme/widgets", base_commit: "abc1234", test_patch: testPatch };

  it("follows make_eval_script_list_py: reset, apply the test patch, markers around the test command, reset", () => {
    const script = evalScript(
      instance,
      { test_cmd: "pytest -rA", install: "pip install -e ." },
      {
        repoDirectory: "/testbed",
        condaEnvironment: "testbed",
      },
    );
    const lines = script.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "#!/bin/bash",
      "set -uxo pipefail",
      "source /opt/miniconda3/bin/activate",
      "conda activate testbed",
      "cd '/testbed'",
    ]);
    const reset = "git checkout abc1234 tests/test_a.py tests/data/expected.json";
    const order = [
      "git -c core.fileMode=false diff abc1234",
      "pip install -e .",
      reset,
      "git apply -v - <<'EOF_114329324912'",
      ": '>>>>> Start Test Output'",
      "pytest -rA tests/test_a.py tests/test_new.py",
      ": '>>>>> End Test Output'",
    ];
    let at = 0;
    for (const line of order) {
      const found = lines.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found;
    }
    expect(lines.at(-2)).toBe(reset);
  });

  it("leaves the conda lines out where there is no conda", () => {
    const script = evalScript(
      instance,
      { test_cmd: "pytest -rA" },
      { repoDirectory: "/tmp/ws", condaEnvironment: null },
    );
    expect(script).not.toContain("conda");
  });
});

describe("quoting (test names come from the test patch)", () => {
  it("leaves plain names as upstream writes them and single-quotes any other", () => {
    expect(shellWord("tests/test_a.py::case[1-2]")).toBe("'tests/test_a.py::case[1-2]'");
    expect(shellWord("tests/test_a.py")).toBe("tests/test_a.py");
    expect(shellWord("tests/test_$(touch x)'.py")).toBe("'tests/test_$(touch x)'\\''.py'");
  });

  it("refuses a test patch holding the heredoc delimiter line", () => {
    const instance = {
      repo: "acme/widgets",
      base_commit: "abc1234",
      test_patch: `+x\n${heredocDelimiter}\nrm -rf /\n`,
    };
    expect(() =>
      evalScript(instance, { test_cmd: "pytest" }, { repoDirectory: "/r", condaEnvironment: null }),
    ).toThrow(/the test patch contains the heredoc delimiter line/);
  });
});
