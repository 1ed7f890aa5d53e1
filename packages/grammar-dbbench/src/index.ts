import type { GrammarPluginV1 } from "@hs/spec";
import { createDbBenchGrammar } from "./dbbench-grammar.js";

export * from "./dbbench-grammar.js";
export * from "./features.js";
export * from "./guidance.js";
export * from "./read-view.js";
export * from "./value-candidates.js";

/** The DBBench grammar as a plugin: `hs` imports it for the embedded policy on `--bench dbbench`. */
export const grammarPlugin: GrammarPluginV1 = {
  specificationVersion: "v1",
  benchmark: "dbbench",
  createGrammar: () => createDbBenchGrammar(),
};

export default grammarPlugin;
