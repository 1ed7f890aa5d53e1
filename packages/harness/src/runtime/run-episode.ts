import { createHash } from "node:crypto";
import { Immer } from "immer";
import { harnessHash } from "../harness-hash.js";
import { textSeed } from "../seeded-random.js";
import type { BenchmarkV1 } from "../spec/benchmark.js";
import { CancelledError, EnvironmentError, HarnessSError } from "../spec/errors.js";
import { renderHarnessCall } from "../spec/harness-call.js";
import type { HarnessConfig } from "../spec/harness-config.js";
import type { ChatMessage, PolicyView } from "../spec/message.js";
import type { PolicyAction, PolicyV1 } from "../spec/policy.js";
import type { Task } from "../spec/task.js";
import type { ToolCall, ToolResult } from "../spec/tool.js";
import type { HarnessEvent, Trajectory, TrajectoryStep } from "../spec/trajectory.js";
import { parseAction } from "./action-format-middleware.js";
import { selectContext, truncateObservation } from "./context-middleware.js";
import { allEvents, type EpisodeState } from "./episode-state.js";
import { renderMalformedAction, renderToolError, renderToolResult } from "./error-recovery-middleware.js";
import {
  assertHarnessCallTools,
  captureValues,
  expandHarnessCalls,
  firingFollowUps,
} from "./harness-calls-middleware.js";
import { renderInitialMessages } from "./prompt-middleware.js";
import { fillTemplate, metadataValues } from "./template.js";
import { createToolExposure } from "./tool-exposure-middleware.js";
import { holdSubmitForCheck } from "./verification-middleware.js";

// Episode state only grows and is never shared, so deep-freezing every step's views would cost
// time quadratic in the episode's length for nothing.
const { produce } = new Immer({ autoFreeze: false });

/** Options of one episode. */
export interface RunEpisodeOptions {
  /** The task. */
  task: Task;
  /** The benchmark that creates the task's environment. */
  benchmark: BenchmarkV1;
  /** The harness config (validated). */
  harness: HarnessConfig;
  /** The acting policy. */
  policy: PolicyV1;
  /** Episode seed; the same seed, task, harness and policy give the same trajectory. */
  seed: number;
  /** Sample (default) or act greedily. */
  mode?: "sample" | "greedy";
  /** Cancels the episode; `runEpisode` then rejects with `CancelledError`. */
  signal?: AbortSignal;
  /** Clock in milliseconds (injectable for tests). */
  now?: () => number;
}

/** Seed of the policy call at one step, derived from the episode seed. */
export function stepSeed(seed: number, step: number): number {
  return textSeed(`${seed}:${step}`);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError("episode cancelled", { cause: signal.reason });
}

function joinResults(results: readonly ToolResult[]): ToolResult {
  if (results.length === 1) return results[0] as ToolResult;
  return {
    content: results.map((result) => result.content).join("\n\n"),
    isError: results.some((result) => result.isError),
    done: results.some((result) => result.done),
  };
}

/** Closes an episode's environment; a throw names the call, the benchmark and the task. */
async function closeEnvironment(
  environment: { close(): Promise<void> },
  benchmark: { id: string },
  task: Task,
) {
  try {
    await environment.close();
  } catch (error) {
    throw new EnvironmentError(
      `benchmark ${benchmark.id}: close() of the environment of task ${task.id} threw: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/**
 * Drives one episode: renders the harness's view, asks the policy, parses the action, executes it in a
 * fresh environment, applies the context and error-recovery policies, stops at submit or budget, grades
 * and returns the trajectory. Policy or environment failures end the episode with `endReason: "error"`;
 * cancellation rejects, and so does a harness that does not fit the environment (a tool it exposes does
 * not exist, a `{metadata.KEY}` the task lacks).
 */
export async function runEpisode(options: RunEpisodeOptions): Promise<Trajectory> {
  const { task, benchmark, harness, policy, seed, signal } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const hash = harnessHash(harness);
  throwIfAborted(signal);
  const environment = await benchmark.createEnvironment(
    task,
    signal === undefined ? { seed } : { seed, signal },
  );
  let exposure: ReturnType<typeof createToolExposure>;
  let initial: ChatMessage[];
  try {
    exposure = createToolExposure(harness.tools, environment.tools, task.metadata);
    assertHarnessCallTools(harness, environment.tools);
    initial = renderInitialMessages(harness.prompt, task, exposure.visible);
  } catch (error) {
    await closeEnvironment(environment, benchmark, task);
    throw error;
  }
  const textProtocol = harness.actionFormat.kind === "text";
  let state: EpisodeState = {
    initial,
    turns: [],
    steps: [],
    malformedInARow: 0,
    checks: 0,
    outputChars: 0,
    droppedTurns: 0,
    endReason: null,
    error: null,
    environmentMs: 0,
    policyMs: 0,
  };
  const timed = async <T>(
    kind: "environmentMs" | "policyMs",
    work: () => Promise<T>,
  ): Promise<[T, number]> => {
    const begin = now();
    const value = await work();
    const elapsed = now() - begin;
    state = produce(state, (draft) => {
      draft[kind] += elapsed;
    });
    return [value, elapsed];
  };
  const callOptions = signal === undefined ? {} : { signal };
  let grade: Awaited<ReturnType<typeof environment.grade>> = { reward: 0, success: false, details: {} };
  const metadata = metadataValues(task.metadata);
  const preludeCalls: TrajectoryStep["executed"] = [];
  const preludeEvents: HarnessEvent[] = [];
  const followUpsFired: number[] = [];
  /** Makes harness calls (never policy actions): each result cut by the context policy and rendered. */
  const runHarnessCalls = async (
    calls: readonly ToolCall[],
    trigger: string,
    step: number,
    events: HarnessEvent[],
    executed: TrajectoryStep["executed"],
  ): Promise<{ blocks: string[]; elapsed: number }> => {
    const blocks: string[] = [];
    let total = 0;
    for (const call of calls) {
      const [result, elapsed] = await timed("environmentMs", () => environment.step(call, callOptions));
      total += elapsed;
      executed.push({ call, result });
      events.push({
        type: "harness-call",
        step,
        detail: `${trigger}: ${call.name} ${JSON.stringify(call.arguments).slice(0, 160)}`,
      });
      const cut = truncateObservation(result.content, harness.context);
      blocks.push(renderHarnessCall(call.name, call.arguments, cut.text));
    }
    return { blocks, elapsed: total };
  };
  /** The captures of the most recent policy call of `tool` that matches the check's capture source. */
  const checkCaptures = (
    current: readonly TrajectoryStep["executed"][number][],
    held: ToolCall,
  ): Record<string, string> | null => {
    const section = harness.verification.calls;
    if (!section) return null;
    if (section.captureTool === undefined) return {};
    const earlier = [
      ...state.steps.flatMap((step) => step.executed),
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
  };

  try {
    await timed("environmentMs", () => environment.reset(callOptions));
    const prelude = harness.context.prelude;
    if (prelude) {
      const calls = expandHarnessCalls(prelude.calls, metadata, task.metadata, undefined, "prelude");
      const { blocks } = await runHarnessCalls(calls, "prelude", 0, preludeEvents, preludeCalls);
      if (blocks.length > 0) {
        const content = [prelude.header, ...blocks].filter((text) => text !== "").join("\n\n");
        state = produce(state, (draft) => void draft.initial.push({ role: "user", content }));
      }
    }
    for (let index = 0; index < harness.budget.maxSteps && state.endReason === null; index++) {
      throwIfAborted(signal);
      const events: HarnessEvent[] = [];
      const context = selectContext(state.initial, state.turns, harness.context);
      if (context.droppedTurns > state.droppedTurns) {
        events.push({
          type: "context-dropped",
          step: index,
          detail: `${context.droppedTurns} earlier turns no longer shown`,
        });
      }
      const view: PolicyView = {
        messages: context.messages,
        tools: textProtocol ? [] : exposure.visible,
        actionFormat: textProtocol ? "text" : "tool-calls",
      };
      let action: PolicyAction;
      let policyMs: number;
      try {
        [action, policyMs] = await timed("policyMs", () =>
          policy.act(view, { seed: stepSeed(seed, index), mode: options.mode ?? "sample", ...callOptions }),
        );
      } catch (error) {
        if (signal?.aborted) throw new CancelledError("episode cancelled", { cause: error });
        throw error;
      }
      const reply: ChatMessage = textProtocol
        ? { role: "assistant", content: action.content }
        : {
            role: "assistant",
            content: action.content,
            ...(action.toolCalls === undefined ? {} : { toolCalls: action.toolCalls }),
          };
      const feedback: ChatMessage[] = [];
      const executed: TrajectoryStep["executed"] = [];
      const harnessCalls: TrajectoryStep["executed"] = [];
      const followUpTexts: string[] = [];
      let environmentMs = 0;
      let endReason: EpisodeState["endReason"] = null;
      let malformedInARow = state.malformedInARow;
      let checks = state.checks;
      const outputChars = state.outputChars + action.content.length;

      const parsed = parseAction(harness.actionFormat, action, `call-${index}`);
      if (harness.budget.maxOutputChars !== null && outputChars > harness.budget.maxOutputChars) {
        events.push({
          type: "budget-hit",
          step: index,
          detail: `policy output reached ${outputChars} characters`,
        });
        endReason = "output-budget";
      } else if (!parsed.ok) {
        malformedInARow += 1;
        events.push({ type: "malformed-action", step: index, detail: parsed.reason });
        if (malformedInARow > harness.errorRecovery.maxReprompts) {
          endReason = "reprompts-exhausted";
        } else {
          events.push({
            type: "reprompted",
            step: index,
            detail: `re-prompt ${malformedInARow} of ${harness.errorRecovery.maxReprompts}`,
          });
          feedback.push({
            role: "user",
            content: renderMalformedAction(harness.errorRecovery, parsed.reason, action.content),
          });
        }
      } else {
        malformedInARow = 0;
        const shown: string[] = [];
        for (const call of parsed.calls) {
          const held = holdSubmitForCheck(harness.verification, call, environment.tools, checks);
          let text: string;
          if (held !== null) {
            checks += 1;
            events.push({ type: "verification", step: index, detail: `submit held for check ${checks}` });
            text = held;
            const captures = checkCaptures(executed, call);
            const section = harness.verification.calls;
            if (section && captures !== null) {
              const calls = expandHarnessCalls(
                section.calls,
                { ...metadata, ...captures },
                task.metadata,
                section.capture,
                `${call.id}.check`,
              );
              const ran = await runHarnessCalls(calls, "check", index, events, harnessCalls);
              environmentMs += ran.elapsed;
              if (ran.blocks.length > 0) text = [held, ...ran.blocks].join("\n\n");
            }
          } else {
            const calls = exposure.resolve(call);
            if (calls === null) {
              events.push({ type: "tool-hidden", step: index, detail: `tool "${call.name}" is not offered` });
              text = renderToolError(
                harness.errorRecovery,
                call.name,
                `tool "${call.name}" is not available`,
              );
            } else {
              if (calls.length > 1 || calls[0] !== call) {
                events.push({
                  type: "macro",
                  step: index,
                  detail: `${call.name} -> ${calls.map((entry) => entry.name).join(", ")}`,
                });
              }
              const results: ToolResult[] = [];
              for (const environmentCall of calls) {
                const [result, elapsed] = await timed("environmentMs", () =>
                  environment.step(environmentCall, callOptions),
                );
                environmentMs += elapsed;
                executed.push({ call: environmentCall, result });
                results.push(result);
                if (result.done) break;
              }
              const result = joinResults(results);
              if (result.isError)
                events.push({ type: "tool-error", step: index, detail: result.content.slice(0, 200) });
              text = result.isError
                ? renderToolError(harness.errorRecovery, call.name, result.content)
                : renderToolResult(harness.errorRecovery, result.content);
              if (result.done) endReason = "submitted";
              else {
                const firing = firingFollowUps(
                  harness.errorRecovery.followUps ?? [],
                  call,
                  result.content,
                  followUpsFired,
                );
                for (const { index: rule, followUp, captures } of firing) {
                  followUpsFired[rule] = (followUpsFired[rule] ?? 0) + 1;
                  const values = { ...metadata, ...captures };
                  const calls = expandHarnessCalls(
                    followUp.calls,
                    values,
                    task.metadata,
                    followUp.capture,
                    `${call.id}.follow-up-${rule}`,
                  );
                  const ran = await runHarnessCalls(calls, `follow-up ${rule}`, index, events, harnessCalls);
                  environmentMs += ran.elapsed;
                  const note = fillTemplate(followUp.note, values, `errorRecovery.followUps.${rule}.note`);
                  followUpTexts.push([note, ...ran.blocks].filter((text) => text !== "").join("\n\n"));
                }
              }
            }
          }
          const cut = truncateObservation(text, harness.context);
          if (cut.cutFrom !== null) {
            events.push({
              type: "truncated",
              step: index,
              detail: `observation cut from ${cut.cutFrom} to ${harness.context.truncateObservationChars} characters`,
            });
          }
          shown.push(cut.text);
          if (!textProtocol)
            feedback.push({ role: "tool", content: cut.text, toolCallId: call.id, name: call.name });
          if (endReason !== null) break;
        }
        if (textProtocol && endReason === null)
          feedback.push({ role: "user", content: [...shown, ...followUpTexts].join("\n\n") });
        else if (endReason === null && followUpTexts.length > 0)
          feedback.push({ role: "user", content: followUpTexts.join("\n\n") });
      }
      if (endReason === null && index + 1 === harness.budget.maxSteps) {
        events.push({
          type: "budget-hit",
          step: index,
          detail: `step budget of ${harness.budget.maxSteps} used`,
        });
        endReason = "budget";
      }
      const step: TrajectoryStep = {
        index,
        view,
        action,
        parsed: parsed.ok ? parsed.calls : null,
        executed,
        feedback: feedback.map((message) => message.content).join("\n\n"),
        events,
        ...(harnessCalls.length === 0 ? {} : { harnessCalls }),
        policyMs,
        environmentMs,
      };
      state = produce(state, (draft) => {
        draft.steps.push(step);
        draft.turns.push({ reply, feedback });
        draft.malformedInARow = malformedInARow;
        draft.checks = checks;
        draft.outputChars = outputChars;
        draft.droppedTurns = Math.max(draft.droppedTurns, context.droppedTurns);
        draft.endReason = endReason;
      });
    }
    [grade] = await timed("environmentMs", () => environment.grade(callOptions));
  } catch (error) {
    if (HarnessSError.isInstance(error) && error.name === "HarnessSCancelledError") throw error;
    if (signal?.aborted) throw new CancelledError("episode cancelled", { cause: error });
    state = produce(state, (draft) => {
      draft.endReason = "error";
      draft.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    });
  } finally {
    await closeEnvironment(environment, benchmark, task);
  }

  const id = createHash("sha256")
    .update(`${task.id}\n${hash}\n${policy.id}@${policy.version}\n${seed}`)
    .digest("hex")
    .slice(0, 20);
  return {
    schemaVersion: 1,
    id,
    taskId: task.id,
    benchmark: task.benchmark,
    split: task.split,
    category: task.category,
    harnessId: harness.id,
    harnessHash: hash,
    policyId: policy.id,
    policyVersion: policy.version,
    seed,
    steps: state.steps,
    endReason: state.endReason ?? "budget",
    ...(state.error === null ? {} : { error: state.error }),
    reward: state.endReason === "error" ? 0 : grade.reward,
    success: state.endReason === "error" ? false : grade.success,
    gradeDetails: grade.details,
    failureModes: [],
    events: [...preludeEvents, ...allEvents(state)],
    ...(preludeCalls.length === 0 ? {} : { preludeCalls }),
    timings: {
      startedAt: new Date(startedAt).toISOString(),
      wallMs: now() - startedAt,
      policyMs: state.policyMs,
      environmentMs: state.environmentMs,
    },
  };
}
