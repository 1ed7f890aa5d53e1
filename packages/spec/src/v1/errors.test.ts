import { describe, expect, it } from "vitest";
import { ApiCallError, HarnessSError, InvalidInputError, TimeoutError } from "./errors.js";

describe("HarnessSError", () => {
  it("is recognised across copies of the package through its Symbol.for marker", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("@hs/harness.error")]: true,
    });
    expect(HarnessSError.isInstance(foreign)).toBe(true);
    expect(HarnessSError.isInstance(new Error("plain"))).toBe(false);
    expect(HarnessSError.isInstance(null)).toBe(false);
  });

  it("carries name, cause and retryability", () => {
    const cause = new Error("socket hang up");
    expect(new TimeoutError("slow", { cause })).toMatchObject({
      name: "HarnessSTimeoutError",
      isRetryable: true,
      cause,
    });
    expect(new ApiCallError("rate limited", { status: 429 }).isRetryable).toBe(true);
    expect(new ApiCallError("server", { status: 503 }).isRetryable).toBe(true);
    expect(new ApiCallError("bad request", { status: 400 }).isRetryable).toBe(false);
    const invalid = new InvalidInputError("expected a number", { file: "a.jsonl", line: 3, field: "reward" });
    expect(invalid.message).toBe('a.jsonl:3, field "reward": expected a number');
    expect(invalid.isRetryable).toBe(false);
  });
});
