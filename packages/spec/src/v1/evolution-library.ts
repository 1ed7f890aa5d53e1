import type { CheckCalls, FollowUp, Prelude } from "./harness-call.js";
import type { HarnessConfig } from "./harness-config.js";

/**
 * Texts and macros the mutation operators of directional evolution draw from. Data only; a benchmark
 * supplies its own (`BenchmarkV1.evolutionLibrary`), phrased in its protocol's terms.
 */
export interface EvolutionLibrary {
  /** Hints the guidance operators may add. */
  hints: string[];
  /** Suffixes the error-recovery operators may append after a tool error. */
  toolErrorSuffixes: string[];
  /** Re-prompt texts after an unparsable action. Template fields `{reason}`, `{reply}`. */
  malformedActionTemplates: string[];
  /** Prompts the verification operators may show before accepting a submit. Template fields `{answer}`. */
  verificationPrompts: string[];
  /** Macro tools the tool-exposure operators may add. */
  macros: HarnessConfig["tools"]["macros"];
  /** What an empty tool result looks like, and notes the error-recovery operators may show after one. */
  emptyResult: { pattern: string; notes: string[] } | null;
  /**
   * Code-fence language tags of the protocol's text rules and the spellings a lenient rule accepts for
   * each (e.g. `sql` -> `sql`, `SQL`, `mysql`), for the action-format operator that loosens fences.
   */
  fenceAliases?: Record<string, string[]>;
  /**
   * Preludes the context operator `add-prelude` may set: calls the harness makes before the first step
   * (what the policy sees, not what it is told). Absent: none.
   */
  preludes?: Prelude[];
  /**
   * Follow-ups the error-recovery operator `add-follow-up` may add: a note naming the cause of a result
   * and the harness's own calls after it (e.g. a login after a 401). Absent: none.
   */
  followUps?: FollowUp[];
  /**
   * Checks with calls the verification operator `add-check-calls` may set: what the check runs before a
   * held submit (the tests, a read-back of changed rows) and shows. Absent: none.
   */
  checkCalls?: {
    /** The check's prompt (template field `{answer}`). */
    prompt: string;
    /** What the check runs and shows. */
    calls: CheckCalls;
    /** A non-terminal call that counts as a submit (`verification.submitMatch`), when the protocol has one. */
    submitMatch?: NonNullable<HarnessConfig["verification"]["submitMatch"]>;
  }[];
  /** Step budgets the budget operator `set-steps` may choose. Absent: none. */
  stepBudgets?: number[];
}
