/** The project's seeded generator and hashes live in `@hs/harness`; re-exported for compatibility. */
export { createRandom, hashString, mixSeed } from "@hs/harness";
