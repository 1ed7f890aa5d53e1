import type { ChatMessage } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { selectContext, type Turn, trimOlderOutputs } from "./select-context.js";

const marker = "[NOT SHOWN FOR BREVITY]";
const turn = (index: number, outputChars: number): Turn => ({
  reply: { role: "assistant", content: `code ${index}` },
  feedback: [{ role: "user", content: `${index}:`.padEnd(outputChars, "x") }],
});
const baseContext = {
  keepLastTurns: null,
  truncateObservationChars: null,
  truncationMarker: "",
  pinTask: true,
};

describe("trimOlderOutputs", () => {
  it("replaces the oldest observations until the history fits, keeping replies and the last messages", () => {
    const history = Array.from({ length: 6 }, (_, index) => turn(index, 100)).flatMap((entry) => [
      entry.reply,
      ...entry.feedback,
    ]);
    const trimmed = trimOlderOutputs(history, { maxChars: 500, keepLastMessages: 5, marker });
    const contents = trimmed.map((message) => message.content);
    expect(contents.filter((content) => content === marker)).toHaveLength(2);
    expect(contents.slice(0, 6)).toEqual([
      "code 0",
      marker,
      "code 1",
      marker,
      "code 2",
      "2:".padEnd(100, "x"),
    ]);
    expect(trimmed.slice(-5)).toEqual(history.slice(-5));
    expect(trimmed.reduce((sum, message) => sum + message.content.length, 0)).toBeLessThanOrEqual(500);
  });

  it("leaves a history under the limit, or with no rule, as it is", () => {
    const history: ChatMessage[] = [turn(0, 100).reply, ...turn(0, 100).feedback];
    expect(trimOlderOutputs(history, { maxChars: 10_000, keepLastMessages: 5, marker })).toEqual(history);
    expect(trimOlderOutputs(history, null)).toEqual(history);
  });

  it("never trims the pinned initial messages in selectContext", () => {
    const initial: ChatMessage[] = [{ role: "user", content: "Task: ".padEnd(2_000, "t") }];
    const turns = Array.from({ length: 8 }, (_, index) => turn(index, 300));
    const { messages } = selectContext(initial, turns, {
      ...baseContext,
      trimOlderOutputs: { maxChars: 1_000, keepLastMessages: 5, marker },
    });
    expect(messages[0]).toEqual(initial[0]);
    expect(messages.filter((message) => message.content === marker).length).toBeGreaterThan(0);
    expect(messages.at(-1)?.content).not.toBe(marker);
  });
});
