import type { BenchmarkV1, EnvironmentV1 } from "@hs/spec";

const sleep = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));

/** The benchmark with every environment step taking `delayMs` longer (a slow worker, or an LLM-bound one). */
export function slowBenchmark(benchmark: BenchmarkV1, delayMs: number): BenchmarkV1 {
  return wrapEnvironments(benchmark, (environment) => ({
    ...environment,
    tools: environment.tools,
    reset: (options) => environment.reset(options),
    step: async (call, options) => {
      await sleep(delayMs);
      return environment.step(call, options);
    },
    grade: (options) => environment.grade(options),
    close: () => environment.close(),
  }));
}

/**
 * The benchmark with the first `hangs` episodes never finishing their first step (a job that never
 * ends: only the worker's time limit frees it); later episodes run as usual.
 */
export function hangingBenchmark(benchmark: BenchmarkV1, hangs: number): BenchmarkV1 {
  let started = 0;
  return wrapEnvironments(benchmark, (environment) => {
    const hangsHere = started++ < hangs;
    return {
      ...environment,
      tools: environment.tools,
      reset: (options) => environment.reset(options),
      step: (call, options) => (hangsHere ? new Promise(() => {}) : environment.step(call, options)),
      grade: (options) => environment.grade(options),
      close: () => environment.close(),
    };
  });
}

function wrapEnvironments(
  benchmark: BenchmarkV1,
  wrap: (environment: EnvironmentV1) => EnvironmentV1,
): BenchmarkV1 {
  const wrapped = Object.create(benchmark) as BenchmarkV1;
  wrapped.createEnvironment = async (task, options) => wrap(await benchmark.createEnvironment(task, options));
  return wrapped;
}
