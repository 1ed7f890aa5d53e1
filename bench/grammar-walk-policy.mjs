// A policy for bench scripts that walks an action grammar's decisions, `choose(decision, view)` picking
// each option's label, and returns the finished action as an LLM's reply would be (text or tool calls).

/** A `PolicyV1` over `grammar` whose decisions `choose` makes. */
export function grammarWalkPolicy(grammar, id, choose) {
  return {
    specificationVersion: "v1",
    id,
    version: "0",
    async act(view) {
      const labels = [];
      for (;;) {
        const step = grammar.next(view, labels);
        if (step.done)
          return {
            content: step.content,
            ...(view.actionFormat === "tool-calls" ? { toolCalls: step.toolCalls } : {}),
            logprob: 0,
            tokens: [],
          };
        labels.push(choose(step.decision, view));
      }
    },
  };
}

/** The grammar's prior, greedy: the option of highest prior score (the first of equals). */
export function priorGreedyPolicy(grammar) {
  const score = (option) =>
    option.features.reduce((sum, value, index) => sum + value * grammar.prior[index], 0);
  return grammarWalkPolicy(grammar, "prior-greedy", (decision) => {
    const scores = decision.options.map(score);
    return decision.options[scores.indexOf(Math.max(...scores))].label;
  });
}
