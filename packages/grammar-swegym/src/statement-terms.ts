/** The statement reader lives beside the benchmark, which fills task metadata from the same reading. */
export { normalizedValue, type StatementTerms, statementTerms } from "@hs/benchmarks-swegym";
