import type { SchemaElement } from "hyparquet";

const text = (name: string, optional = false): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  repetition_type: optional ? "OPTIONAL" : "REQUIRED",
});

/**
 * Parquet schema of verl's RL dataset rows (volcengine/verl `examples/data_preprocess/*.py` write
 * `data_source`, `prompt` as a list of chat messages, `ability`, `reward_model{style, ground_truth}`,
 * `extra_info`). `prompt` is a 3-level LIST of structs, as pyarrow writes a list of dicts.
 */
export const verlSchema: SchemaElement[] = [
  { name: "root", num_children: 5 },
  text("data_source"),
  { name: "prompt", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "REQUIRED", num_children: 2 },
  text("role"),
  text("content"),
  text("ability"),
  { name: "reward_model", repetition_type: "REQUIRED", num_children: 2 },
  text("style"),
  text("ground_truth", true),
  { name: "extra_info", repetition_type: "REQUIRED", num_children: 5 },
  { name: "index", type: "INT32", repetition_type: "REQUIRED" },
  text("split"),
  text("task_id"),
  text("harness_id"),
  text("tools"),
];
