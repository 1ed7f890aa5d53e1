import type { HarnessEvent, ToolCall, TrajectoryStep } from "@hs/spec";
import { renderHarnessCall } from "../harness-call-text.js";
import type { Episode } from "./episode.js";
import { expandHarnessCalls } from "./harness-calls.js";
import { truncateObservation } from "./select-context.js";

/** Makes harness calls (never policy actions): each result cut by the context policy and rendered. */
export async function runHarnessCalls(
  episode: Episode,
  calls: readonly ToolCall[],
  trigger: string,
  step: number,
  events: HarnessEvent[],
  executed: TrajectoryStep["executed"],
): Promise<{ blocks: string[]; elapsed: number }> {
  const { environment, callOptions } = episode;
  const blocks: string[] = [];
  let total = 0;
  for (const call of calls) {
    const [result, elapsed] = await episode.timed("environmentMs", () => environment.step(call, callOptions));
    total += elapsed;
    executed.push({ call, result });
    events.push({
      type: "harness-call",
      step,
      detail: `${trigger}: ${call.name} ${JSON.stringify(call.arguments).slice(0, 160)}`,
    });
    const cut = truncateObservation(result.content, episode.options.harness.context);
    blocks.push(renderHarnessCall(call.name, call.arguments, cut.text));
  }
  return { blocks, elapsed: total };
}

/** Runs the harness's prelude calls and pins what they found after the task message. */
export async function runPrelude(episode: Episode): Promise<void> {
  const { harness, task } = episode.options;
  const prelude = harness.context.prelude;
  if (!prelude) return;
  const calls = expandHarnessCalls(prelude.calls, episode.metadata, task.metadata, undefined, "prelude");
  const { blocks } = await runHarnessCalls(
    episode,
    calls,
    "prelude",
    0,
    episode.preludeEvents,
    episode.preludeCalls,
  );
  if (blocks.length > 0) {
    const content = [prelude.header, ...blocks].filter((text) => text !== "").join("\n\n");
    episode.state.initial.push({ role: "user", content });
  }
}
