import type { PolicyView } from "./message.js";
import type { ToolCall } from "./tool.js";

/** One option of a decision, with the features the embedded policy scores it by. */
export interface DecisionOption {
  /** Stable label of the option within its decision (e.g. `column:Name`, `aggregate:COUNT`). */
  label: string;
  /** Numeric features of (view, decisions taken so far, option); the same length for every option. */
  features: readonly number[];
}

/** One decision: pick one of its options. */
export interface Decision {
  /** Decision name (e.g. `kind`, `select-column`, `condition-value`). */
  name: string;
  /** The options; never empty. */
  options: readonly DecisionOption[];
}

/** The grammar's next step: another decision, or the finished action. */
export type GrammarStep =
  | { done: false; decision: Decision }
  | {
      done: true;
      /** The reply text for a text protocol (what an LLM would have written). */
      content: string;
      /** The tool calls for the native format. */
      toolCalls: ToolCall[];
    };

/**
 * An action grammar (version 1): derives, from the rendered view alone, the decisions that build one
 * action. It never sees the task record, labels or environment state.
 */
export interface ActionGrammarV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Number of features per option. */
  readonly featureCount: number;
  /** Names of the features, in vector order (for reports and saved weights). */
  readonly featureNames?: readonly string[];
  /**
   * The grammar designer's prior: weights of a linear score over the features (length
   * `featureCount`), which a trainable policy may start from instead of zero.
   */
  readonly prior?: readonly number[];
  /** The next decision given the labels of the options chosen so far, or the finished action. */
  next(view: PolicyView, chosen: readonly string[]): GrammarStep;
  /**
   * The decisions that build, under `view`, an action making `call` (a call the harness made by
   * itself), or null when the grammar offers none there. Lets a trainer credit a sibling's harness call
   * as the policy's own decision under the base harness. Absent: the grammar recovers none.
   */
  decisionsFor?(view: PolicyView, call: ToolCall): readonly string[] | null;
}
