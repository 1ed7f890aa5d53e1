import { genericConventions } from "@hs/harness";
import { defaultRouter } from "@hs/harness-s";
import { createProfileRouter } from "@hs/router";
import type { BenchmarkV1, RouterContextV1, RouterV1 } from "@hs/spec";
import { loadRouterPlugin } from "./plugins.js";

/** The routers `--router` names without a package: the Harness-S default and the profile router alone. */
export const builtInRouterNames = ["harness-s", "profile"] as const;

/** What `--router` says about the routers: the names above, a package name or a path. */
export const routerOptionUsage = `harness-s (default: profile router + Borda vote of the profile judges), profile, category (@hs/router-category), or a router package or path`;

/** The router context of a benchmark: its observable failure conventions. */
export function routerContext(benchmark: BenchmarkV1 | undefined): RouterContextV1 {
  return {
    ...(benchmark === undefined ? {} : { benchmark }),
    conventions: benchmark?.failureConventions ?? genericConventions,
  };
}

/** A built-in router by name, or the router of a plugin package or file. */
export async function resolveRouter(spec: string | undefined, benchmark: BenchmarkV1): Promise<RouterV1> {
  if (spec === undefined || spec === "harness-s") return defaultRouter(benchmark);
  const context = routerContext(benchmark);
  if (spec === "profile") return createProfileRouter({ conventions: context.conventions });
  return (await loadRouterPlugin(spec)).createRouter(context);
}
