import { readFileSync } from "node:fs";
import type { PolicyView } from "@hs/spec";

/** Views of real episodes on train tasks (captured by bench/appworld-capture-views.mjs). */
export interface CapturedEpisode {
  /** Task id. */
  taskId: string;
  /** Preset the episode ran under. */
  preset: "react" | "verl-agent";
  /** Whether it passed. */
  success: boolean;
  /** The views of its first steps. */
  views: PolicyView[];
}

/** The captured episodes: contactrelcount_1 (react), notestagdelete_1 (verl-agent), todoadd_1 (react). */
export const capturedEpisodes: CapturedEpisode[] = JSON.parse(
  readFileSync(new URL("./episode-views.json", import.meta.url), "utf8"),
);

/** One captured episode by task id. */
export function episode(taskId: string): CapturedEpisode {
  const found = capturedEpisodes.find((entry) => entry.taskId === taskId);
  if (found === undefined) throw new Error(`no captured episode ${taskId}`);
  return found;
}

/** A view as a native tool-call harness would render it (the same messages, the `execute` tool offered). */
export function asNativeView(view: PolicyView): PolicyView {
  return {
    ...view,
    actionFormat: "tool-calls",
    tools: [
      {
        name: "execute",
        description: "Run Python code in the task's shell.",
        parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
      },
    ],
  };
}
