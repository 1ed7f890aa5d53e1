// A benchmark package whose action grammar is a module of its own, named relative to this file: the
// tiny spelling benchmark without its built-in grammar, taking the one `grammarModule` loads.
import { benchmarkPlugin as tiny } from "../tiny-benchmark/index.js";

export const benchmarkPlugin = {
  ...tiny,
  id: "spelling-split-grammar",
  grammarModule: "./grammar/spelling-grammar.js",
  async createBenchmark(values, context) {
    const benchmark = await tiny.createBenchmark(values);
    const { actionGrammar: _builtIn, ...rest } = benchmark;
    return context?.actionGrammar === undefined ? rest : { ...rest, actionGrammar: context.actionGrammar };
  },
};
export default benchmarkPlugin;
