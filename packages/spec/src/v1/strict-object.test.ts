import { describe, expect, it } from "vitest";
import { z } from "zod";
import { strictSection } from "./strict-object.js";

const section = strictSection({ maxSteps: z.number(), maxOutputChars: z.number().nullable() });

function messageOf(input: unknown): string {
  const result = section.safeParse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return result.error.issues.map((issue) => issue.message).join("; ");
}

describe("strictSection", () => {
  it("names an unknown key, the known key it is closest to, and the keys it expects", () => {
    expect(messageOf({ maxSteps: 3, maxOutputChars: null, maxStep: 4 })).toBe(
      'unknown key "maxStep" (did you mean "maxSteps"?); expected keys: maxSteps, maxOutputChars',
    );
  });

  it("suggests no key when none is close, and names every unknown key", () => {
    expect(messageOf({ maxSteps: 3, maxOutputChars: null, zzzzzz: 1, MAXSTEPS: 2 })).toBe(
      'unknown keys "zzzzzz", "MAXSTEPS" (did you mean "maxSteps"?); expected keys: maxSteps, maxOutputChars',
    );
  });

  it("accepts the known keys", () => {
    expect(section.parse({ maxSteps: 3, maxOutputChars: null })).toEqual({
      maxSteps: 3,
      maxOutputChars: null,
    });
  });
});
