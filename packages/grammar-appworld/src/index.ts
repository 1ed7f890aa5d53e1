import type { GrammarPluginV1 } from "@hs/spec";
import { createAppWorldGrammar } from "./appworld-grammar.js";

export * from "./appworld-grammar.js";
export * from "./features.js";
export * from "./instruction-values.js";
export * from "./python-literal.js";
export * from "./read-view.js";

/** The AppWorld grammar as a plugin: `hs` imports it for the embedded policy on `--bench appworld`. */
export const grammarPlugin: GrammarPluginV1 = {
  specificationVersion: "v1",
  benchmark: "appworld",
  createGrammar: () => createAppWorldGrammar(),
};

export default grammarPlugin;
