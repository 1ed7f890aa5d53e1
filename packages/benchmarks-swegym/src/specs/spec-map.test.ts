import { describe, expect, it } from "vitest";
import { lookupSpec, mergeSpecMaps, parseSpecMap, sweGymSpecs } from "./spec-map.js";

describe("spec map", () => {
  it("has SWE-Gym's test commands for its eleven repositories", () => {
    expect(Object.keys(sweGymSpecs)).toHaveLength(11);
    expect(lookupSpec(sweGymSpecs, "getmoto/moto", "5.0")?.test_cmd).toBe("pytest -n0 -rA");
    expect(lookupSpec(sweGymSpecs, "dask/dask", "2024.1")?.test_cmd).toBe("pytest -n0 -rA  --color=no");
    expect(lookupSpec(sweGymSpecs, "pydantic/pydantic", "2.7")).toMatchObject({
      test_cmd: "pytest -rA --tb=short -vv -o console_output_style=classic --no-header",
      log_parser: "pytest_pydantic",
    });
    expect(lookupSpec(sweGymSpecs, "python/mypy", "1.10")?.test_cmd).toBe("pytest -rA -k");
    expect(lookupSpec(sweGymSpecs, "python/mypy", "0.990")?.test_cmd).toBe("pytest -n0 -rA -k");
    expect(lookupSpec(sweGymSpecs, "project-monai/monai", "1.3")?.test_cmd).toBe("pytest -rA ");
    expect(lookupSpec(sweGymSpecs, "nobody/else", "1.0")).toBeUndefined();
  });

  it("merges a user file over the built-in map, version by version", () => {
    const user = parseSpecMap(
      JSON.stringify({
        "pandas-dev/pandas": { "2.2": { test_cmd: "pytest -rA -x", install: "pip install -e ." } },
        "acme/widgets": { "0.3": { test_cmd: "pytest -rA", python: "3.11" } },
      }),
      "specs.json",
    );
    const merged = mergeSpecMaps(sweGymSpecs, user);
    expect(lookupSpec(merged, "pandas-dev/pandas", "2.2")).toEqual({
      test_cmd: "pytest -rA -x",
      install: "pip install -e .",
    });
    expect(lookupSpec(merged, "pandas-dev/pandas", "2.1")?.test_cmd).toBe("pytest -rA --tb=long");
    expect(lookupSpec(merged, "acme/widgets", "0.3")?.python).toBe("3.11");
  });

  it("requires test_cmd and names the file and field", () => {
    expect(() =>
      parseSpecMap(JSON.stringify({ "acme/widgets": { "0.3": { install: "x" } } }), "specs.json"),
    ).toThrow(
      /specs\.json, field "acme\/widgets\.0\.3\.test_cmd": expected string \(a spec needs "test_cmd"\)/,
    );
    expect(() => parseSpecMap("{", "specs.json")).toThrow(/specs\.json: not JSON/);
    expect(() =>
      parseSpecMap(JSON.stringify({ "a/b": { "1": { test_cmd: "pytest", log_parser: "junit" } } }), "s.json"),
    ).toThrow(/field "a\/b\.1\.log_parser"/);
  });
});
