import type { GrammarStep, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { type DecisionWalk, labelValue } from "./decision-walk.js";
import { byKind } from "./kind-steps.js";
import { namedFeatures } from "./named-features.js";
import { offersDecisions, stagedGrammar } from "./staged-grammar.js";

// A two-kind grammar over the last message: `say` asks which word of it to repeat, `stop` ends.
const features = namedFeatures(["is-say", "bias"] as const);
const words = (view: PolicyView) => (view.messages.at(-1)?.content ?? "").split(" ");
const finished = (content: string): GrammarStep => ({ done: true, content, toolCalls: [] });
const askKind = (): GrammarStep => ({
  done: false,
  decision: {
    name: "kind",
    options: [
      { label: "kind:say", features: features.vector({ "is-say": 1 }) },
      { label: "kind:stop", features: features.vector({}) },
    ],
  },
});
const say = (walk: DecisionWalk, context: string[]): GrammarStep => {
  const label = walk.take();
  if (label === null)
    return {
      done: false,
      decision: {
        name: "word",
        options: context.map((word) => ({ label: `word:${word}`, features: features.vector({}) })),
      },
    };
  return finished(labelValue(label));
};
const grammar = stagedGrammar({
  featureNames: ["is-say", "bias"],
  prior: features.weights({ "is-say": 2 }),
  context: words,
  build: byKind(askKind, { say }, () => finished("stop")),
});
const view: PolicyView = {
  messages: [{ role: "user", content: "red green" }],
  actionFormat: "text",
  tools: [],
};

describe("stagedGrammar and byKind", () => {
  it("declares its features and prior", () => {
    expect(grammar).toMatchObject({ specificationVersion: "v1", featureCount: 2, prior: [2, 0] });
    expect(grammar.featureNames).toEqual(["is-say", "bias"]);
  });

  it("replays the chosen labels from the kind decision on", () => {
    const first = grammar.next(view, []);
    expect(first.done === false && first.decision.name).toBe("kind");
    const second = grammar.next(view, ["kind:say"]);
    expect(second.done === false && second.decision.options.map((option) => option.label)).toEqual([
      "word:red",
      "word:green",
    ]);
    expect(grammar.next(view, ["kind:say", "word:green"])).toEqual(finished("green"));
  });

  it("hands a kind it has no step for to the fallback, Object's own names included", () => {
    expect(grammar.next(view, ["kind:stop"])).toEqual(finished("stop"));
    expect(grammar.next(view, ["kind:constructor"])).toEqual(finished("stop"));
  });

  it("recovers the decisions of a harness call: the first label sequence the view offers to its end", () => {
    const crediting = stagedGrammar({
      featureNames: ["is-say", "bias"],
      prior: features.weights({}),
      context: words,
      build: byKind(askKind, { say }, () => finished("stop")),
      labelsForCall: (call) => [
        ["kind:say", `word:${String(call.arguments.word)}`],
        ["kind:say"],
        ["kind:stop"],
      ],
    });
    const call = (word: string) => ({ id: "h", name: "say", arguments: { word } });
    expect(crediting.decisionsFor?.(view, call("green"))).toEqual(["kind:say", "word:green"]);
    // blue is not a word of the view; "kind:say" alone does not finish an action
    expect(crediting.decisionsFor?.(view, call("blue"))).toEqual(["kind:stop"]);
    expect(offersDecisions(crediting, view, ["kind:say"])).toBe(false);
    expect(offersDecisions(crediting, view, ["kind:say", "word:green", "word:red"])).toBe(false);
    expect(grammar.decisionsFor).toBeUndefined();
  });
});
