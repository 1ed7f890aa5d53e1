import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateLog } from "./grade-log.js";
import {
  parseLogPytest,
  parseLogPytestOptions,
  parseLogPytestPydantic,
  parseLogPytestV2,
} from "./log-parsers.js";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "..", "__fixtures__", name), "utf8");

describe("parse_log_pytest", () => {
  const map = parseLogPytest(fixture("pytest-ra.log"));

  it("reads -rA summary lines with parametrised ids, including ids with spaces cut at the space", () => {
    expect(map["tests/test_duration.py::test_parse_seconds[10s-10]"]).toBe("PASSED");
    // Python's split() cuts "[2 s-2]" at its space, exactly as SWE-bench does.
    expect(map["tests/test_duration.py::test_parse_seconds[2"]).toBe("PASSED");
    expect(map["tests/test_duration.py::test_parse_hours[1h-3600]"]).toBe("FAILED");
  });

  it("takes the id from FAILED lines whose message holds further ' - '", () => {
    expect(map["tests/test_duration.py::test_negative"]).toBe("FAILED");
  });

  it("reads XFAIL, ERROR and the SKIPPED [n] form (its id is the count token)", () => {
    expect(map["tests/test_duration.py::test_leap_second"]).toBe("XFAIL");
    expect(map["tests/test_duration.py::test_fixture_broken"]).toBe("ERROR");
    expect(map["[1]"]).toBe("SKIPPED");
  });

  it("ignores progress lines and tracebacks", () => {
    expect(Object.keys(map).some((key) => key.includes("..F"))).toBe(false);
    expect(map.def).toBeUndefined();
  });

  it("does not read coloured lines (that is v2's job)", () => {
    expect(Object.keys(parseLogPytest(fixture("pytest-v2.log")))).toEqual([]);
  });
});

describe("parse_log_pytest_options", () => {
  const map = parseLogPytestOptions(fixture("pytest-options.log"));
  it("shortens an absolute-path parameter to its last component", () => {
    expect(map["tests/test_requests.py::test_path[/file.txt]"]).toBe("PASSED");
  });
  it("keeps // and glob parameters, and non-path parameters", () => {
    expect(map["tests/test_requests.py::test_path[//server/share]"]).toBe("PASSED");
    expect(map["tests/test_requests.py::test_glob[/tmp/*.txt]"]).toBe("PASSED");
    expect(map["tests/test_requests.py::test_url[http://x/y]"]).toBe("FAILED");
  });
});

describe("parse_log_pytest_v2", () => {
  const map = parseLogPytestV2(fixture("pytest-v2.log"));
  it("strips colour codes and reads both line shapes", () => {
    expect(map).toEqual({
      "tests/test_units.py::test_metres": "PASSED",
      "tests/test_units.py::test_feet": "FAILED",
      "tests/test_units.py::test_old_style": "PASSED",
      "tests/test_units.py::test_old_fail": "FAILED",
    });
  });
});

describe("SWE-Gym's pydantic parser", () => {
  it("reduces 'FAILED [ 12%]' so the verbose line reads as name STATUS", () => {
    const map = parseLogPytestPydantic(fixture("pytest-pydantic.log"));
    expect(map["tests/test_main.py::test_ultra_simple_missing"]).toBe("FAILED");
    expect(map["tests/test_main.py::test_nullable_strings_success[a-b]"]).toBe("PASSED");
    expect(map["tests/test_main.py::test_success"]).toBe("PASSED");
  });
  it("differs from v2 on the progress suffix", () => {
    const line = "tests/test_main.py::test_x FAILED [ 12%]\n";
    expect(parseLogPytestV2(line)).toEqual({});
    expect(parseLogPytestPydantic(line)).toEqual({ "tests/test_main.py::test_x": "FAILED" });
  });
});

describe("get_logs_eval", () => {
  it("parses only between the test-output markers", () => {
    const { statusMap, found } = evaluateLog(fixture("pytest-ra.log"), parseLogPytest);
    expect(found).toBe(true);
    expect(statusMap["tests/test_duration.py::test_outside_markers"]).toBeUndefined();
    expect(statusMap["tests/test_duration.py::test_roundtrip"]).toBe("PASSED");
  });
  it("falls back to the whole log when nothing is found between the markers", () => {
    const log = ">>>>> Start Test Output\n>>>>> End Test Output\nPASSED a.py::t\n";
    expect(evaluateLog(log, parseLogPytest)).toEqual({ statusMap: { "a.py::t": "PASSED" }, found: true });
  });
  it.each([">>>>> Patch Apply Failed", ">>>>> Reset Failed", ">>>>> Tests Errored", ">>>>> Tests Timed Out"])(
    "treats %s as not applied",
    (marker) => {
      const log = `${fixture("pytest-ra.log")}\n${marker}\n`;
      expect(evaluateLog(log, parseLogPytest)).toEqual({ statusMap: {}, found: false });
    },
  );
  it("treats a log without both markers as not applied", () => {
    expect(evaluateLog("PASSED a.py::t\n>>>>> Start Test Output\n", parseLogPytest).found).toBe(false);
  });
});
