import { z } from "zod";
import { describeUnknownKeys } from "./did-you-mean.js";

/**
 * A `z.strictObject` whose unknown-key error names each unknown key, the closest known key ("did you
 * mean") and the keys it expects, so a misspelled optional key is an error instead of being dropped.
 */
export function strictSection<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? describeUnknownKeys(issue.keys, known) : undefined,
  });
}
