import { z } from "zod";

/**
 * Replies of the AppWorld environment server (`appworld serve environment`). Every endpoint answers
 * `{"output": ...}`. Source: ace-agent/ace-appworld src/appworld/serve/environment.py (appworld 0.1.4,
 * upstream StonyBrookNLP/appworld).
 */
export function outputEnvelope<Schema extends z.ZodType>(output: Schema) {
  return z.object({ output });
}

/** The supervisor (the user the agent works for), as `/initialize` and `/tasks/{id}` return it. */
export const supervisorSchema = z.object({
  /** First name. */
  first_name: z.string(),
  /** Last name. */
  last_name: z.string(),
  /** Personal email. */
  email: z.string(),
  /** Phone number. */
  phone_number: z.string(),
});
/** The supervisor of a task. */
export type Supervisor = z.infer<typeof supervisorSchema>;

/** A task as `/initialize` and GET `/tasks/{id}` return it (`task_to_dict`). */
export const taskInfoSchema = z.object({
  /** Task id, `<scenario>_<n>`. */
  task_id: z.string(),
  /** The instruction. */
  instruction: z.string(),
  /** The user. */
  supervisor: supervisorSchema,
  /** The world's date and time (a string, or null when the server does not fix it). */
  datetime: z.string().nullable(),
});
/** A task as the server describes it. */
export type TaskInfo = z.infer<typeof taskInfoSchema>;

/** One passed test of `/evaluate` (`TestTracker.passes`). */
export const testPassSchema = z.object({
  /** What the test requires, in words. */
  requirement: z.string(),
  /** `no_op_fail` (fails when nothing is done) or `no_op_pass`; null when the server has no labels. */
  label: z.string().nullable().optional(),
});

/** One failed test of `/evaluate` (`TestTracker.failures`). */
export const testFailureSchema = testPassSchema.extend({
  /** Why it failed. */
  trace: z.string(),
});

/** `/evaluate` with `report: false`: `TestTracker.to_dict(stats_only=False)` (src/appworld/evaluator.py). */
export const evaluationSchema = z.object({
  /** Whether every test passed. */
  success: z.boolean(),
  /** Difficulty 1-3. */
  difficulty: z.number().int().min(1).max(3),
  /** Number of tests. */
  num_tests: z.number().int().nonnegative(),
  /** Passed tests. */
  passes: z.array(testPassSchema),
  /** Failed tests. */
  failures: z.array(testFailureSchema),
});
/** The evaluation of one task. */
export type Evaluation = z.infer<typeof evaluationSchema>;

/** `/evaluate_all`: `Metric.compute_metrics` with details (src/appworld/evaluator.py:376-383). */
export const evaluateAllSchema = z.object({
  /** TGC and SGC of the tasks, in percent. */
  aggregate: z.object({
    /** Task goal completion. */
    task_goal_completion: z.number(),
    /** Scenario goal completion. */
    scenario_goal_completion: z.number(),
  }),
  /** Each task's evaluation. */
  individual: z.record(z.string(), evaluationSchema),
});
/** The evaluation of an experiment's tasks. */
export type EvaluateAll = z.infer<typeof evaluateAllSchema>;

/** One parameter of an API, in AppWorld's api-doc shape. */
export const apiParameterSchema = z.object({
  /** Parameter name. */
  name: z.string(),
  /** `string`, `integer`, `number`, `boolean`, `list[...]`... */
  type: z.string(),
  /** Whether it must be given. */
  required: z.boolean(),
  /** What it is. */
  description: z.string(),
  /** Default when not given (null when none). */
  default: z.unknown(),
  /** Constraints in words, e.g. `value >= 0`. */
  constraints: z.array(z.string()),
});

/** One API doc (`{app_name, api_name, path, method, description, parameters, response_schemas}`). */
export const apiDocSchema = z.object({
  /** App name. */
  app_name: z.string(),
  /** API name. */
  api_name: z.string(),
  /** HTTP path of the API. */
  path: z.string(),
  /** HTTP method. */
  method: z.string(),
  /** What it does. */
  description: z.string(),
  /** Parameters. */
  parameters: z.array(apiParameterSchema),
  /** Response schemas; the server renders each as a fenced block of text. */
  response_schemas: z.object({ success: z.unknown(), failure: z.unknown() }),
});
/** One API doc. */
export type ApiDoc = z.infer<typeof apiDocSchema>;

/** GET `/api_docs`: app name -> api name -> doc. */
export const apiDocsSchema = z.record(z.string(), z.record(z.string(), apiDocSchema));
/** All API docs by app and API. */
export type ApiDocs = z.infer<typeof apiDocsSchema>;

/**
 * Options of `/initialize` (`AppWorldInitDefaults` in src/appworld/environment.py); the server takes
 * any of them beside `task_id`. The listed ones are the ones this package sets; others pass through.
 */
export const initializeOptionsSchema = z
  .object({
    /** Name of the experiment (outputs go under experiments/outputs/NAME). */
    experiment_name: z.string().optional(),
    /** URL of a separate APIs server. */
    remote_apis_url: z.string().optional(),
    /** Maximum `execute` calls. */
    max_interactions: z.number().int().positive().optional(),
    /** Seconds one `execute` may take. */
    timeout_seconds: z.number().positive().optional(),
    /** Random seed of the world. */
    random_seed: z.number().int().optional(),
  })
  .catchall(z.unknown());
/** Options of `/initialize`. */
export type InitializeOptions = z.infer<typeof initializeOptionsSchema>;
