import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunWriter } from "./__fixtures__/write-run.js";
import { type Dashboard, startDashboard } from "./dashboard-server.js";

const chromium = process.env.HS_CHROMIUM ?? "/usr/bin/chromium";
// CI installs Debian's chromium (scripts/tools.sh); a machine without it says why instead of passing
const available = existsSync(chromium);
if (!available && process.env.CI === "true")
  throw new Error(`the browser tests need ${chromium} (Debian's chromium)`);

describe.skipIf(!available)("the dashboard in a real browser (Debian's chromium)", () => {
  let dashboard: Dashboard;
  let browser: Browser;
  let page: Page;
  let writer: Awaited<ReturnType<typeof createRunWriter>>;
  let broken: string;

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), "hs-dashboard-"));
    writer = await createRunWriter(join(root, "run"));
    await writer.step();
    await writer.step();
    broken = join(root, "broken");
    await mkdir(broken);
    await writeFile(join(broken, "config.json"), JSON.stringify({ method: "grpo", seed: 2 }));
    await writeFile(
      join(broken, "metrics.jsonl"),
      '{"step":0,"success":0.5,"reward":0.5,"signalShare":1}\n{"step":1,"succ',
    );
    dashboard = await startDashboard({ directories: [join(root, "run"), broken, join(root, "missing")] });
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    page = await browser.newPage();
    await page.goto(dashboard.url);
    await page.waitForSelector("body[data-ready=true]");
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
  });

  const points = () => page.$eval("#d0-r0-reward", (node) => Number((node as HTMLElement).dataset.points));

  it("draws a run's curves and adds points as the run writes steps, without a reload", async () => {
    await page.waitForSelector("#d0-r0-reward svg");
    expect(await points()).toBe(4);
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => navigations.push(frame.url()));
    await writer.step();
    await writer.step();
    await page.waitForFunction(
      () => Number((document.querySelector("#d0-r0-reward") as HTMLElement).dataset.points) === 8,
      { timeout: 10_000 },
    );
    expect(navigations).toEqual([]);
    expect(await page.$eval("#d0-r0-title", (node) => node.textContent)).toContain(
      "4 steps, 16 trajectories",
    );
    for (const chart of ["signal", "rescue", "learner"])
      expect(await page.$(`#d0-r0-${chart} svg`)).not.toBeNull();
  }, 30_000);

  it("opens a trajectory with every turn, and shows grading details only in the section marked as such", async () => {
    await page.waitForSelector("#d0-browser tr.pick");
    await page.select("#d0-browser select[name=outcome]", "failure");
    // the list before the filter may also say "8 ": wait for the filtered rows themselves
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll("#d0-browser tr.pick"));
      const status = document.querySelector("#d0-browser .status")?.textContent ?? "";
      return status.startsWith("8 ") && rows.every((row) => row.children[2]?.textContent === "failed");
    });
    await page.click("#d0-browser tr.pick");
    await page.waitForSelector("#d0-browser .trajectory-title");
    const title = await page.$eval("#d0-browser .trajectory-title", (node) => node.textContent);
    expect(title).toMatch(/failed/);
    const turns = await page.$$eval("#d0-browser .turn", (nodes) =>
      nodes.map((node) => node.textContent ?? ""),
    );
    expect(turns).toHaveLength(2);
    expect(turns[0]).toContain("What is the capital");
    expect(turns[1]).toContain("answer: Paris");
    expect(turns.join("\n")).not.toContain("SECRET-LABEL");
    expect(await page.$eval("#d0-browser details.grading", (node) => node.textContent)).toContain(
      "SECRET-LABEL",
    );
  }, 30_000);

  it("shows what it could read of a broken run and says what it could not", async () => {
    const problems = await page.$eval("#d1-problems", (node) => node.textContent ?? "");
    expect(problems).toContain(join(broken, "metrics.jsonl"));
    expect(problems).toContain("line 2 has no end yet");
    expect(await page.$eval("#d1-r0-title", (node) => node.textContent)).toContain("1 steps");
    expect(await page.$eval("#d2-problems", (node) => node.textContent)).toContain("no such directory");
    await appendFile(join(broken, "metrics.jsonl"), 'ess":1}\n');
    await page.waitForFunction(() => document.querySelector("#d1-problems")?.textContent === "", {
      timeout: 10_000,
    });
    expect(await page.$eval("#d1-r0-title", (node) => node.textContent)).toContain("2 steps");
  }, 30_000);
});
