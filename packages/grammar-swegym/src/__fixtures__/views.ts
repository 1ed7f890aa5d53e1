import { readFileSync } from "node:fs";
import { type PolicyView, policyViewSchema } from "@hs/spec";

/**
 * Views captured from real episodes of the bundled TRAIN split (local runtime, bubblewrap), the last
 * view before the submission: `exprcalc-8` under mini-swe-agent and tool-calling (explore, reproduce
 * with a traceback, show the innermost frame, an edit, a failing test run) and `durations-4` under
 * mini-swe-agent (explore, search, show, an edit, a passing test run).
 */
export function fixtureView(name: "exprcalc-8-text" | "exprcalc-8-tools" | "durations-4-text"): PolicyView {
  return policyViewSchema.parse(JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), "utf8")));
}

/** The view as it was after `steps` earlier actions (the messages up to that point). */
export function viewAfter(view: PolicyView, steps: number): PolicyView {
  const messages = [];
  let seen = 0;
  for (const message of view.messages) {
    if (message.role === "assistant" && seen++ === steps) break;
    messages.push(message);
  }
  return { ...view, messages };
}

/** Every prefix of a view (before its first action, after one, ...). */
export function prefixes(view: PolicyView): PolicyView[] {
  const count = view.messages.filter((message) => message.role === "assistant").length;
  return Array.from({ length: count + 1 }, (_, steps) => viewAfter(view, steps));
}
