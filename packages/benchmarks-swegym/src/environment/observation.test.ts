import { describe, expect, it } from "vitest";
import { readSubmission, renderObservation, renderTimeout } from "./observation.js";

describe("mini-swe-agent observations", () => {
  it("shows a short output whole", () => {
    expect(renderObservation(0, "a\nb\n")).toBe("<returncode>0</returncode>\n<output>\na\nb\n</output>");
  });

  it("shows the first and last 5,000 characters of an output of 10,000 or more", () => {
    const output = `${"h".repeat(5000)}${"§".repeat(2345)}${"t".repeat(5000)}`;
    const shown = renderObservation(1, output);
    expect(shown).toContain("<warning>\nThe output of your last command was too long.");
    expect(shown).toContain(`<output_head>\n${"h".repeat(5000)}\n</output_head>`);
    expect(shown).toContain("<elided_chars>\n2345 characters elided\n</elided_chars>");
    expect(shown).toContain(`<output_tail>\n${"t".repeat(5000)}\n</output_tail>`);
    expect(shown).not.toContain("§");
    expect(renderObservation(0, "x".repeat(9999))).toContain("<output>\n");
    expect(renderObservation(0, "x".repeat(10000))).toContain("<elided_chars>\n0 characters elided");
  });

  it("reads the submission after the sentinel line only when it is the first line", () => {
    expect(readSubmission("\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\ndiff --git a/x b/x\n")).toBe(
      "diff --git a/x b/x\n",
    );
    expect(readSubmission("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n")).toBe("");
    expect(readSubmission("ok\nCOMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n")).toBeNull();
  });

  it("words a timeout as mini-swe-agent does", () => {
    expect(renderTimeout("sleep 99", "")).toMatch(/^The last command <command>sleep 99<\/command> timed out/);
  });
});
