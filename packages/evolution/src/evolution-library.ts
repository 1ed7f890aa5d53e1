export { type EvolutionLibrary, genericLibrary } from "@hs/harness";
