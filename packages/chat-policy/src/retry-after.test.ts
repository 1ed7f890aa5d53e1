import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "./retry-after.js";

const now = () => Date.parse("2030-01-01T00:00:00Z");

describe("parseRetryAfter", () => {
  it("reads seconds, HTTP dates and retry-after-ms", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "3" }), now)).toBe(3_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(new Headers({ "retry-after": "Tue, 01 Jan 2030 00:00:07 GMT" }), now)).toBe(7_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Mon, 31 Dec 2029 23:59:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ "retry-after": "9", "retry-after-ms": "250" }), now)).toBe(250);
  });

  it("ignores missing or unreadable values", () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after": "-4" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "x", "retry-after": "2" }), now)).toBe(2_000);
  });
});
