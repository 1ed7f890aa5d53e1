import type { ToolCall } from "@hs/spec";
import type { Episode } from "./episode.js";
import { expandHarnessCalls, firingFollowUps, followUpCallPrefix } from "./harness-calls.js";
import { runHarnessCalls } from "./run-harness-calls.js";
import type { StepProgress } from "./step-progress.js";
import { fillTemplate } from "./template.js";

/** Runs the follow-ups that fire after a policy call's result and keeps each note with what its calls found. */
export async function runFollowUps(
  episode: Episode,
  call: ToolCall,
  resultText: string,
  progress: StepProgress,
): Promise<void> {
  const { harness, task } = episode.options;
  const fired = episode.followUpsFired;
  const firing = firingFollowUps(
    harness.errorRecovery.followUps ?? [],
    call,
    resultText,
    fired,
    episode.followUpsMatched,
  );
  for (const { index: rule, followUp, captures } of firing) {
    fired[rule] = (fired[rule] ?? 0) + 1;
    const values = { ...episode.metadata, ...captures };
    const calls = expandHarnessCalls(
      followUp.calls,
      values,
      task.metadata,
      followUp.capture,
      followUpCallPrefix(call.id, rule),
    );
    const trigger = `follow-up ${rule}`;
    const ran = await runHarnessCalls(
      episode,
      calls,
      trigger,
      progress.index,
      progress.events,
      progress.harnessCalls,
    );
    progress.environmentMs += ran.elapsed;
    const note = fillTemplate(followUp.note, values, `errorRecovery.followUps.${rule}.note`);
    progress.followUpTexts.push([note, ...ran.blocks].filter((text) => text !== "").join("\n\n"));
  }
}
