import { createDbBench } from "@hs/benchmarks-dbbench";
import { createDbBenchGrammar, readView } from "@hs/grammar-dbbench";
import { probeEpisode } from "@hs/harness/conformance";

// The first view a policy sees on a DBBench dev task (base preset), then the grammar's decisions on it,
// taking the first option each time, up to a finished action.
const benchmark = createDbBench();
try {
  const { tasks } = await benchmark.loadTasks({ split: "dev" });
  const task = tasks[0];
  const harness = benchmark.presets[benchmark.defaultPreset];
  const { views } = await probeEpisode(benchmark, task, harness);
  const view = views[0];
  if (view === undefined) throw new Error("the probe saw no view");
  const read = readView(view);
  if (!read.table || read.headers.length === 0) throw new Error(`view read as ${JSON.stringify(read)}`);
  const grammar = createDbBenchGrammar();
  const first = grammar.next(view, []);
  if (first.done || first.decision.options.length === 0) throw new Error("no first decision");
  const chosen = [];
  let step = first;
  while (!step.done && chosen.length < 64) {
    chosen.push(step.decision.options[0].label);
    step = grammar.next(view, chosen);
  }
  if (!step.done || step.content.length === 0)
    throw new Error(`grammar did not finish after ${chosen.join(" ")}`);
  const options = first.decision.options.map((option) => option.label).join(", ");
  console.log(
    `grammar-dbbench: first decision "${first.decision.name}" [${options}] on table "${read.table}"; ${chosen.length} choices -> ${JSON.stringify(step.content.split("\n")[0])}`,
  );
} finally {
  await benchmark.close();
}
