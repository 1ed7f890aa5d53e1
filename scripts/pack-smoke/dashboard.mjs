import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDashboard } from "@hs/dashboard";

// A run directory written while the installed dashboard serves it: the page, the chart library from the
// installed vega-lite, and the state before and after a step is appended.
const directory = await mkdtemp(join(tmpdir(), "hs-smoke-dashboard-"));
const dashboard = await startDashboard({ directories: [directory] });
try {
  await writeFile(join(directory, "config.json"), JSON.stringify({ method: "grpo", seed: 1 }));
  await writeFile(join(directory, "metrics.jsonl"), `${JSON.stringify({ step: 0, success: 0.1 })}\n`);
  const state = async () => (await (await fetch(new URL("/api/state", dashboard.url))).json()).directories[0];
  if ((await state()).runs[0]?.metrics.length !== 1) throw new Error("the first step is not served");
  await appendFile(join(directory, "metrics.jsonl"), `${JSON.stringify({ step: 1, success: 0.2 })}\n`);
  const after = await state();
  if (after.runs[0]?.metrics.length !== 2) throw new Error("the appended step is not served");
  const page = await (await fetch(dashboard.url)).text();
  const library = await (await fetch(new URL("/vendor/vega-lite.js", dashboard.url))).text();
  if (!page.includes("dashboard.js") || library.length < 100_000) throw new Error("page or library missing");
  console.log(
    `dashboard: ${dashboard.url} served 2 steps of a growing run and vega-lite (${library.length} bytes)`,
  );
} finally {
  await dashboard.close();
  await rm(directory, { recursive: true, force: true });
}
