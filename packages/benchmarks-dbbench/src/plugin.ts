import {
  type BenchmarkPluginContextV1,
  type BenchmarkPluginV1,
  InvalidInputError,
  type PluginOptionValues,
} from "@hs/spec";
import { z } from "zod";
import { createDbBench } from "./create-dbbench.js";

const valuesSchema = z.object({
  engine: z
    .string()
    .regex(/^(sqlite|mysql:\/\/.+)$/, 'expected "sqlite" or a mysql://user:password@host:port URL')
    .optional(),
  protocol: z.enum(["auto", "v0.2", "fc"]).optional(),
  "query-time-limit": z
    .string()
    .regex(/^[1-9]\d*$/, "expected a positive whole number of milliseconds")
    .optional(),
});

/** Reads the plugin's option values; a bad one is an InvalidInputError naming the option. */
function parseValues(values: PluginOptionValues): z.infer<typeof valuesSchema> {
  const known = {
    engine: values.engine,
    protocol: values.protocol,
    "query-time-limit": values["query-time-limit"],
  };
  const parsed = valuesSchema.safeParse(known);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = `--${issue?.path.map(String).join(".") ?? ""}`;
  throw new InvalidInputError(`${field}: ${issue?.message ?? "invalid value"}`, { field });
}

/** `hs --bench dbbench` (or `--bench @hs/benchmarks-dbbench`): the DBBench adapter as a plugin. */
export const benchmarkPlugin: BenchmarkPluginV1 = {
  specificationVersion: "v1",
  id: "dbbench",
  description: "DBBench (AgentBench DB task) on SQLite or MySQL/MariaDB, graded as AgentBench grades it",
  options: {
    engine: {
      type: "string",
      description: 'database engine: "sqlite" (default) or mysql://user:password@host:port',
    },
    protocol: {
      type: "string",
      description: "grader: auto (default), v0.2 or fc (use fc with the FC preset)",
    },
    "query-time-limit": { type: "string", description: "milliseconds one statement may run (default 60000)" },
  },
  grammarModule: "@hs/grammar-dbbench",
  async createBenchmark(values: PluginOptionValues, context: BenchmarkPluginContextV1 = {}) {
    const parsed = parseValues(values);
    return createDbBench({
      ...(context.actionGrammar === undefined ? {} : { actionGrammar: context.actionGrammar }),
      ...(parsed.engine === undefined ? {} : { engine: parsed.engine }),
      ...(parsed.protocol === undefined ? {} : { protocol: parsed.protocol }),
      ...(parsed["query-time-limit"] === undefined
        ? {}
        : { queryTimeLimitMs: Number(parsed["query-time-limit"]) }),
    });
  },
};
