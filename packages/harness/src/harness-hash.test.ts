import { describe, expect, it } from "vitest";
import { canonicalJson, harnessHash } from "./harness-hash.js";
import { lookupTextHarness } from "./test-environments/index.js";

describe("harnessHash", () => {
  it("is stable under key order and changes with content", () => {
    const reordered = Object.fromEntries(
      Object.entries(lookupTextHarness).reverse(),
    ) as typeof lookupTextHarness;
    expect(harnessHash(reordered)).toBe(harnessHash(lookupTextHarness));
    expect(harnessHash(lookupTextHarness)).toMatch(/^sha256:[0-9a-f]{16}$/);
    const changed = { ...lookupTextHarness, budget: { ...lookupTextHarness.budget, maxSteps: 7 } };
    expect(harnessHash(changed)).not.toBe(harnessHash(lookupTextHarness));
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });
});
