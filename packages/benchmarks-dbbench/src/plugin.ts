import { type BenchmarkPluginV1, InvalidInputError, type PluginOptionValues } from "@hs/harness";
import { createDbBench } from "./create-dbbench.js";
import type { ProtocolChoice } from "./environment.js";

const protocols: readonly ProtocolChoice[] = ["auto", "v0.2", "fc"];

function stringValue(values: PluginOptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

function protocolOf(values: PluginOptionValues): ProtocolChoice | undefined {
  const text = stringValue(values, "protocol");
  if (text === undefined) return undefined;
  if (!(protocols as readonly string[]).includes(text))
    throw new InvalidInputError(`expected one of ${protocols.join(", ")}, got "${text}"`, {
      field: "--protocol",
    });
  return text as ProtocolChoice;
}

function timeLimitOf(values: PluginOptionValues): number | undefined {
  const text = stringValue(values, "query-time-limit");
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value <= 0)
    throw new InvalidInputError(`expected a positive number of milliseconds, got "${text}"`, {
      field: "--query-time-limit",
    });
  return value;
}

/** DBBench as an `hs` plugin: `hs ... --bench dbbench [--engine sqlite|mysql://...] [--protocol P]`. */
export const benchmarkPlugin: BenchmarkPluginV1 = {
  specificationVersion: "v1",
  id: "dbbench",
  description: "AgentBench's DB task on SQLite or MySQL/MariaDB",
  options: {
    engine: { type: "string", description: "sqlite (default) or a mysql://user:password@host:port URL" },
    protocol: { type: "string", description: "grader: auto (default), v0.2 or fc" },
    "query-time-limit": { type: "string", description: "milliseconds one statement may run (default 60000)" },
  },
  grammarModule: "@hs/grammar-dbbench",
  async createBenchmark(values, context = {}) {
    const engine = stringValue(values, "engine");
    const protocol = protocolOf(values);
    const queryTimeLimitMs = timeLimitOf(values);
    return createDbBench({
      ...(engine === undefined ? {} : { engine }),
      ...(protocol === undefined ? {} : { protocol }),
      ...(queryTimeLimitMs === undefined ? {} : { queryTimeLimitMs }),
      ...(context.actionGrammar === undefined ? {} : { actionGrammar: context.actionGrammar }),
    });
  },
};
