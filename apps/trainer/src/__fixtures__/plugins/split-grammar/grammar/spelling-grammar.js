// The action grammar of the split-grammar benchmark (GrammarPluginV1): the tiny benchmark's own.
import { benchmarkPlugin as tiny } from "../../tiny-benchmark/index.js";

const { actionGrammar } = await tiny.createBenchmark({});

export const grammarPlugin = {
  specificationVersion: "v1",
  benchmark: "spelling",
  createGrammar: () => actionGrammar,
};
export default grammarPlugin;
