import { HarnessSError, harnessConfigSchema, InvalidInputError, taskSchema } from "@hs/spec";
import { trajectorySchema } from "@hs/spec/v1";

// The contracts from the installed package alone: a task parses, a misspelled harness-config key is
// refused with the key it resembles, and the errors are recognised through their marker.
const task = taskSchema.parse({
  id: "lookup/train/0",
  benchmark: "lookup",
  split: "train",
  category: "capital",
  instruction: "What is the capital of France?",
  metadata: { key: "france" },
});
const refused = harnessConfigSchema.safeParse({ schemaVersion: 1, id: "smoke", descripton: "" });
const messages = refused.success ? [] : refused.error.issues.map((issue) => issue.message);
if (!messages.some((message) => message.includes('(did you mean "description"?)')))
  throw new Error(`a misspelled key was not named: ${JSON.stringify(messages)}`);
if (!HarnessSError.isInstance(new InvalidInputError("expected a number", { field: "reward" })))
  throw new Error("an InvalidInputError is not recognised as a HarnessSError");
if (trajectorySchema.safeParse({ schemaVersion: 2 }).success)
  throw new Error("@hs/spec/v1 accepted a trajectory of another schema version");
console.log(
  `@hs/spec: task ${task.id} parsed; unknown key refused (${messages.length} issues); @hs/spec/v1 resolves`,
);
