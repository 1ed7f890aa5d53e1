import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { viewCache } from "./view-cache.js";

const view = (content: string): PolicyView => ({
  messages: [{ role: "user", content }],
  actionFormat: "text",
  tools: [],
});

describe("viewCache", () => {
  it("computes once per view object, and again for another object with the same content", () => {
    const cache = viewCache<{ length: number }>();
    let computed = 0;
    const compute = (of: PolicyView) => () => {
      computed++;
      return { length: of.messages.length };
    };
    const first = view("task");
    const value = cache(first, compute(first));
    expect(cache(first, compute(first))).toBe(value);
    expect(computed).toBe(1);
    const second = view("task");
    expect(cache(second, compute(second))).not.toBe(value);
    expect(computed).toBe(2);
  });
});
