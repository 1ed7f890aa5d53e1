import type { GrammarPluginV1 } from "@hs/spec";
import { createSweGymGrammar } from "./swegym-grammar.js";

export * from "./commands.js";
export * from "./features.js";
export * from "./line-rewrites.js";
export * from "./read-view.js";
export * from "./statement-terms.js";
export * from "./swegym-grammar.js";
export { isTestFile, viewContext } from "./view-context.js";

/** The SWE-Gym grammar as a plugin: `hs` imports it for the embedded policy on `--bench swegym`. */
export const grammarPlugin: GrammarPluginV1 = {
  specificationVersion: "v1",
  benchmark: "swegym",
  createGrammar: () => createSweGymGrammar(),
};

export default grammarPlugin;
