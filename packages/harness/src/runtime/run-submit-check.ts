import type { ToolCall, TrajectoryStep } from "@hs/spec";
import type { Episode } from "./episode.js";
import { captureValues, checkCallPrefix, expandHarnessCalls } from "./harness-calls.js";
import { runHarnessCalls } from "./run-harness-calls.js";
import type { StepProgress } from "./step-progress.js";

/** The captures of the most recent policy call of `tool` that matches the check's capture source. */
function checkCaptures(
  episode: Episode,
  current: readonly TrajectoryStep["executed"][number][],
  held: ToolCall,
): Record<string, string> | null {
  const section = episode.options.harness.verification.calls;
  if (!section) return null;
  if (section.captureTool === undefined) return {};
  const earlier = [
    ...episode.state.steps.flatMap((step) => step.executed),
    ...current,
    { call: held, result: { content: "", isError: false, done: false } },
  ];
  for (let index = earlier.length - 1; index >= 0; index--) {
    const entry = earlier[index];
    if (entry === undefined || entry.call.name !== section.captureTool) continue;
    const captures = captureValues(section.capture, entry.call, entry.result.content);
    if (captures !== null) return captures;
  }
  return null;
}

/**
 * A submit held back for its check: counts the check, records it, runs the check's calls on the
 * captures of the last matching policy call, and returns the prompt with what they found.
 */
export async function runSubmitCheck(
  episode: Episode,
  call: ToolCall,
  prompt: string,
  progress: StepProgress,
): Promise<string> {
  const { harness, task } = episode.options;
  progress.checks += 1;
  progress.events.push({
    type: "verification",
    step: progress.index,
    detail: `submit held for check ${progress.checks}`,
  });
  const captures = checkCaptures(episode, progress.executed, call);
  const section = harness.verification.calls;
  if (!section || captures === null) return prompt;
  const calls = expandHarnessCalls(
    section.calls,
    { ...episode.metadata, ...captures },
    task.metadata,
    section.capture,
    checkCallPrefix(call.id),
  );
  const ran = await runHarnessCalls(
    episode,
    calls,
    "check",
    progress.index,
    progress.events,
    progress.harnessCalls,
  );
  progress.environmentMs += ran.elapsed;
  return ran.blocks.length > 0 ? [prompt, ...ran.blocks].join("\n\n") : prompt;
}
