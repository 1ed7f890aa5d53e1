import { askInOrder, byKind, labelValue, namedFeatures, stagedGrammar, viewCache } from "@hs/grammar-kit";

// A two-decision grammar built from the installed kit (kind, then a word of the last message), walked to
// a finished action; the option-order marks and the per-view cache must hold.
const features = namedFeatures(["is-say", "option-order", "bias"]);
const order = features.index.get("option-order");
const contexts = viewCache();
const words = (view) => contexts(view, () => view.messages.at(-1).content.split(" "));
const askKind = () =>
  askInOrder(
    {
      name: "kind",
      options: [
        { label: "kind:say", features: features.vector({ "is-say": 1 }) },
        { label: "kind:stop", features: features.vector({}) },
      ],
    },
    order,
  );
const say = (walk, context) => {
  const label = walk.take();
  if (label === null) {
    const options = context.map((word) => ({ label: `word:${word}`, features: features.vector({}) }));
    return askInOrder({ name: "word", options }, order);
  }
  return { done: true, content: `I say ${labelValue(label)}.`, toolCalls: [] };
};
const grammar = stagedGrammar({
  featureNames: ["is-say", "option-order", "bias"],
  prior: features.weights({ "is-say": 1, "option-order": -0.3 }),
  context: words,
  build: byKind(askKind, { say }, () => ({ done: true, content: "stop", toolCalls: [] })),
});
const view = { actionFormat: "text", tools: [], messages: [{ role: "user", content: "red green blue" }] };
const chosen = [];
let step = grammar.next(view, chosen);
while (!step.done) {
  chosen.push(
    step.decision.options.at(-1).label === "kind:stop" ? "kind:say" : step.decision.options.at(-1).label,
  );
  step = grammar.next(view, chosen);
}
if (step.content !== "I say blue.") throw new Error(`walk ended with ${JSON.stringify(step.content)}`);
const asked = grammar.next(view, ["kind:say"]);
const marks = asked.decision.options.map((option) => option.features[order]);
if (marks.join(",") !== "0,0.5,1") throw new Error(`option-order marks ${marks.join(",")}`);
const once = words(view);
if (words(view) !== once) throw new Error("the view cache computed twice");
console.log(
  `grammar-kit: ${chosen.length} choices -> ${JSON.stringify(step.content)}; order marks ${marks.join(",")}`,
);
