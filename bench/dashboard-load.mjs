// The dashboard's load time in Debian's chromium for a run of N trajectories (default 10,000), and
// screenshots of each view. The run is made from a real run directory given as --from (its
// metrics.jsonl, and its trajectories.jsonl repeated with new ids up to N), so record sizes are real.
// Ratio printed against the same page over the run's own metrics with no trajectories (the baseline,
// measured in the same run).
//
//   pnpm build && node bench/dashboard-load.mjs --from runs/exp/runs/grpo/seed-1 [--trajectories 10000] [--screenshots DIR]
import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startDashboard } from "../packages/dashboard/dist/index.js";

// the browser driver is a dev dependency of @hs/dashboard
const dashboardPackage = createRequire(new URL("../packages/dashboard/package.json", import.meta.url));
const { default: puppeteer } = await import(pathToFileURL(dashboardPackage.resolve("puppeteer-core")).href);

const { values } = parseArgs({
  options: {
    from: { type: "string" },
    trajectories: { type: "string", default: "10000" },
    screenshots: { type: "string" },
    chromium: { type: "string", default: "/usr/bin/chromium" },
  },
});
if (values.from === undefined) {
  process.stderr.write(
    "usage: node bench/dashboard-load.mjs --from RUN_DIR [--trajectories N] [--screenshots DIR]\n",
  );
  process.exit(2);
}
const wanted = Number(values.trajectories);

async function makeRun(directory, count) {
  await mkdir(directory, { recursive: true });
  await copyFile(join(values.from, "config.json"), join(directory, "config.json"));
  await copyFile(join(values.from, "metrics.jsonl"), join(directory, "metrics.jsonl"));
  const out = createWriteStream(join(directory, "trajectories.jsonl"));
  let written = 0;
  for (let round = 0; written < count; round++) {
    const lines = createInterface({ input: createReadStream(join(values.from, "trajectories.jsonl")) });
    for await (const line of lines) {
      if (written >= count) break;
      const record = JSON.parse(line);
      record.id = `${record.id}-r${round}`;
      if (!out.write(`${JSON.stringify(record)}\n`))
        await new Promise((resolve) => out.once("drain", resolve));
      written += 1;
    }
  }
  await new Promise((resolve) => out.end(resolve));
}

async function loadSeconds(browser, directory, screenshots) {
  const dashboard = await startDashboard({ directories: [directory] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const started = performance.now();
    await page.goto(dashboard.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: 300_000 });
    await page.waitForSelector("#d0-r0-reward svg");
    const ready = (performance.now() - started) / 1000;
    let listed = null;
    if (screenshots !== undefined) {
      await page.screenshot({ path: join(screenshots, "run-curves.png"), fullPage: false });
      await page.waitForSelector("#d0-browser tr.pick");
      listed = (performance.now() - started) / 1000;
      await page.select("#d0-browser select[name=outcome]", "failure");
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.click("#d0-browser tr.pick");
      await page.waitForSelector("#d0-browser .trajectory-title");
      await page.$eval("#d0-browser", (node) => node.scrollIntoView());
      await page.$eval("#d0-browser .detail .turn:nth-of-type(2)", (node) =>
        node.scrollIntoView({ block: "nearest" }),
      );
      await page.screenshot({ path: join(screenshots, "trajectory-browser.png"), fullPage: false });
    }
    await page.close();
    return { ready, listed };
  } finally {
    await dashboard.close();
  }
}

const root = await mkdtemp(join(tmpdir(), "hs-dashboard-bench-"));
const browser = await puppeteer.launch({
  executablePath: values.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  if (values.screenshots !== undefined) await mkdir(values.screenshots, { recursive: true });
  const baseline = join(root, "baseline");
  await makeRun(baseline, 0);
  await writeFile(join(baseline, "trajectories.jsonl"), "");
  const large = join(root, "large");
  process.stderr.write(`writing ${wanted} trajectories...\n`);
  await makeRun(large, wanted);
  const base = await loadSeconds(browser, baseline);
  const full = await loadSeconds(browser, large, values.screenshots);
  console.log(`page ready, metrics only (baseline): ${base.ready.toFixed(2)} s`);
  console.log(
    `page ready, ${wanted} trajectories: ${full.ready.toFixed(2)} s (${(full.ready / base.ready).toFixed(1)}x the baseline)`,
  );
  if (full.listed !== null)
    console.log(`trajectory list shown: ${full.listed.toFixed(2)} s after navigation`);
} finally {
  await browser.close();
  await rm(root, { recursive: true, force: true });
}
