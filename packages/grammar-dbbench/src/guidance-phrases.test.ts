import {
  dbbenchCheckPrompts,
  dbbenchEmptyResultNotes,
  dbbenchFixErrorSuffix,
  dbbenchHintPhrases,
  dbbenchLibrary,
} from "@hs/benchmarks-dbbench";
import type { ChatMessage, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { v02View } from "./__fixtures__/views.js";
import { type ViewGuidance, viewGuidance } from "./guidance.js";
import { readView } from "./read-view.js";

// The phrases are the adapter's evolution-library texts (shared constants, not copies): when one is
// edited so that viewGuidance no longer reads it, these tests fail.
const headers = ["Player", "Team", "Points"];
const question = "How many points did the player from Leeds score?";
const query = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
const filtered = query("SELECT `Points` FROM `Scorers` WHERE `Team` = 'Leeds';");

function withHint(view: PolicyView, hint: string): PolicyView {
  const messages = view.messages.map(
    (message, index): ChatMessage =>
      index === 2 ? { ...message, content: `${message.content}\n\nHints:\n- ${hint}` } : message,
  );
  return { ...view, messages };
}

const guidanceOf = (view: PolicyView): ViewGuidance => viewGuidance(readView(view));
const plain = guidanceOf(v02View(question, "Scorers", headers));

describe("the grammar reads the library's guidance phrases", () => {
  const hintCases = Object.entries(dbbenchHintPhrases) as [keyof typeof dbbenchHintPhrases, string][];
  it.each(hintCases)("hint %s sets its guidance field", (field, phrase) => {
    expect(plain[field]).toBe(false);
    expect(guidanceOf(withHint(v02View(question, "Scorers", headers), phrase))[field]).toBe(true);
  });

  it("every shared phrase is one of the library's texts", () => {
    for (const phrase of Object.values(dbbenchHintPhrases)) expect(dbbenchLibrary.hints).toContain(phrase);
    expect(dbbenchLibrary.toolErrorSuffixes).toContain(dbbenchFixErrorSuffix);
    expect(dbbenchLibrary.emptyResult?.notes).toEqual(Object.values(dbbenchEmptyResultNotes));
    for (const prompt of Object.values(dbbenchCheckPrompts))
      expect(dbbenchLibrary.verificationPrompts).toContain(prompt);
  });

  it("reads the error suffix as: correct the query, do not answer", () => {
    const error = "1054 (42S22): Unknown column 'Pts' in 'field list'";
    const view = v02View(question, "Scorers", headers, [
      [query("SELECT `Pts` FROM `Scorers`;"), `${error}\n${dbbenchFixErrorSuffix}`],
    ]);
    expect(guidanceOf(view).fixError).toBe(true);
    expect(
      guidanceOf(v02View(question, "Scorers", headers, [[query("SELECT `Pts` FROM `Scorers`;"), error]]))
        .fixError,
    ).toBe(false);
  });

  it("reads each empty-result note", () => {
    const after = (note: string) =>
      guidanceOf(v02View(question, "Scorers", headers, [[filtered, `[]\n${note}`]]));
    const bare = guidanceOf(v02View(question, "Scorers", headers, [[filtered, "[]"]]));
    expect([bare.lookAfterEmpty, bare.fixError, bare.previewAfterEmpty]).toEqual([false, false, false]);
    expect(after(dbbenchEmptyResultNotes.lookAtValues).lookAfterEmpty).toBe(true);
    const doNotAnswer = after(dbbenchEmptyResultNotes.doNotAnswer);
    expect([doNotAnswer.lookAfterEmpty, doNotAnswer.fixError]).toEqual([true, true]);
    expect(after(dbbenchEmptyResultNotes.previewWholeTable).previewAfterEmpty).toBe(true);
  });

  it("reads each check", () => {
    const answer = 'Action: Answer\nFinal Answer: ["12"]';
    const checked = (prompt: string) =>
      guidanceOf(
        v02View(question, "Scorers", headers, [
          [filtered, "[('12',)]"],
          [answer, prompt.replace("{answer}", '["12"]')],
        ]),
      ).check;
    expect(checked(dbbenchCheckPrompts.againstLastResult)).toMatchObject({
      againstLastResult: true,
      matchesLastResult: true,
    });
    expect(checked(dbbenchCheckPrompts.againstQuestion)).toMatchObject({
      againstLastResult: false,
      asksChangeCheck: false,
    });
    expect(checked(dbbenchCheckPrompts.readBackChange)).toMatchObject({ asksChangeCheck: true });
  });
});
