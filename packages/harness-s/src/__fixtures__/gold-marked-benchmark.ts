import { createLookupBenchmark } from "@hs/harness/test-environments";
import type { BenchmarkV1, EnvironmentV1, Task } from "@hs/spec";

/** The marker the grader writes into its details: no component outside the grader may see it. */
export const goldMarker = "GOLD-7f3a";
/** The dataset category annotation of every task: routing may not see it either. */
export const secretCategory = "SECRET-CAT";
/** The category the benchmark declares observable (read from the instruction the policy is shown). */
export const observableCategory = "capital-question";

/**
 * The lookup test benchmark with a grader that leaks a gold marker into `details.label` and tasks
 * whose dataset category is `SECRET-CAT`; `observableCategory` reads the instruction.
 */
export function createGoldMarkedBenchmark(): BenchmarkV1 {
  const inner = createLookupBenchmark();
  return {
    ...inner,
    id: "lookup",
    async loadTasks(options) {
      const { tasks, problems } = await inner.loadTasks(options);
      return { tasks: tasks.map((task) => ({ ...task, category: secretCategory })), problems };
    },
    async createEnvironment(task: Task, options): Promise<EnvironmentV1> {
      const environment = await inner.createEnvironment(task, options);
      return {
        ...environment,
        async grade() {
          const graded = await environment.grade();
          return { ...graded, details: { ...graded.details, label: goldMarker } };
        },
      };
    },
    observableCategory: (task) => (/capital of/i.test(task.instruction) ? observableCategory : "other"),
  };
}
