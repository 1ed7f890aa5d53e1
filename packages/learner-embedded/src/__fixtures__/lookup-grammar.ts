export { createLookupGrammar } from "@hs/harness/test-environments";
