// The dashboard page: polls /api/state, draws each chart with Vega-Lite (served from the installed
// packages), and lists trajectories from /api/trajectories. Plain browser JavaScript, no build step.
const pollMs = 1500;
const root = document.getElementById("directories");
const statusLine = document.getElementById("status");
const selected = {};

const element = (tag, attributes = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "onclick" || name === "onchange" || name === "oninput") node[name] = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
};
const slot = (parent, id, tag = "div", attributes = {}) => {
  let node = document.getElementById(id);
  if (node === null) {
    node = element(tag, { id, ...attributes });
    parent.append(node);
  }
  return node;
};
const percent = (value) => (typeof value === "number" ? `${(value * 100).toFixed(1)}%` : "n/a");
const table = (head, rows) =>
  element(
    "table",
    {},
    element("tr", {}, ...head.map((cell) => element("th", {}, cell))),
    ...rows.map((row) => element("tr", {}, ...row.map((cell) => element("td", {}, cell)))),
  );
const replace = (node, ...children) => {
  node.replaceChildren(...children);
  return node;
};

function lineChart(container, id, title, values, y, color) {
  const node = slot(container, id, "div", { class: "chart" });
  const key = JSON.stringify(values);
  if (node.dataset.key === key) return;
  node.dataset.key = key;
  node.dataset.points = String(values.length);
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title,
    width: 330,
    height: 170,
    data: { values },
    mark: { type: "line", point: values.length < 80 },
    encoding: {
      x: { field: "step", type: "quantitative" },
      y: { field: "value", type: "quantitative", title: y },
      color: { field: color, type: "nominal" },
      detail: { field: "series", type: "nominal" },
    },
  };
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "svg", container: node });
  view.runAsync();
}

const metricSeries = (run, pick) =>
  run.metrics
    .flatMap((row) =>
      pick(row).map(([series, value]) => ({ step: row.step, value, series, method: run.method })),
    )
    .filter((point) => typeof point.value === "number" && Number.isFinite(point.value));

function runCharts(container, prefix, run) {
  const charts = slot(container, `${prefix}-charts`, "div", { class: "charts" });
  lineChart(
    charts,
    `${prefix}-reward`,
    "Reward and success per step",
    metricSeries(run, (row) => [
      ["reward", row.reward],
      ["success", row.success],
    ]),
    "rate",
    "series",
  );
  lineChart(
    charts,
    `${prefix}-signal`,
    "Share of groups with signal",
    metricSeries(run, (row) => [["signal share", row.signalShare]]),
    "share",
    "series",
  );
  lineChart(
    charts,
    `${prefix}-rescue`,
    "Rescue attempts and saves",
    metricSeries(run, (row) => [
      ["attempts", row.rescue?.attempts ?? 0],
      ["saves", row.rescue?.successes ?? 0],
    ]),
    "groups",
    "series",
  );
  lineChart(
    charts,
    `${prefix}-learner`,
    "Loss and gradient norm",
    metricSeries(run, (row) => [
      ["loss", row.learner?.loss],
      ["gradient norm", row.learner?.gradNorm],
    ]),
    "value",
    "series",
  );
}

function experimentView(container, prefix, directory) {
  const results = directory.results;
  const heldout = results?.heldout ?? {};
  if (Object.keys(heldout).length > 0) {
    const seeds = results.seeds ?? [];
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    replace(
      slot(container, `${prefix}-methods`),
      element("h3", {}, "Held-out success under the base harness, every seed"),
      table(
        ["method", ...seeds.map((seed) => `seed ${seed}`), "mean"],
        Object.entries(heldout).map(([method, values]) => [
          method,
          ...values.map((value) => value.toFixed(3)),
          mean(values).toFixed(3),
        ]),
      ),
    );
  }
  if (directory.runs.length > 1) {
    const points = directory.runs.flatMap((run) =>
      run.metrics.map((row) => ({ step: row.step, value: row.success, method: run.method, series: run.id })),
    );
    const charts = slot(container, `${prefix}-side`, "div", { class: "charts" });
    lineChart(
      charts,
      `${prefix}-methods-success`,
      "Training success per step, every run by method",
      points,
      "success",
      "method",
    );
  }
}

function poolView(container, prefix, directory) {
  const node = slot(container, `${prefix}-pool`);
  const siblings = directory.pool?.siblings ?? [];
  const children = [];
  if (directory.pool !== null) {
    children.push(
      element("h3", {}, `Pool: base ${directory.pool.base?.id ?? "?"} and ${siblings.length} siblings`),
    );
    const against = (comparison) =>
      comparison === undefined
        ? "n/a"
        : `${comparison.rescued}/${comparison.failuresTried} vs re-roll ${comparison.controlRescued} (p ${comparison.pValue.toFixed(3)})`;
    children.push(
      table(
        ["sibling", "direction", "validation", "confirmation", "regressions"],
        siblings.map((sibling) => [
          sibling.id,
          sibling.direction,
          against(sibling.validation.control),
          against(sibling.validation.confirmation),
          `${sibling.validation.regressions}/${sibling.validation.successesTried}`,
        ]),
      ),
    );
  }
  const profiles = directory.profiles?.profiles;
  if (profiles !== undefined) {
    children.push(element("h3", {}, "Profiles"));
    children.push(
      table(
        ["harness", "policy version", "episodes", "success"],
        Object.values(profiles).map((profile) => [
          profile.harnessId,
          profile.policyVersion,
          profile.episodes,
          percent(profile.successRate),
        ]),
      ),
    );
  }
  const matrix = directory.evolution?.properties?.rescueMatrix;
  if (matrix !== undefined) {
    const control = matrix["base-reroll"] ?? {};
    const modes = directory.evolution.properties.modes ?? [];
    children.push(
      element("h3", {}, "Rescue matrix against the re-roll control (same failures, same fresh seeds)"),
    );
    children.push(
      table(
        ["harness", ...modes],
        Object.entries(matrix).map(([harness, row]) => [
          harness,
          ...modes.map((mode) => {
            const cell = row[mode];
            if (cell === undefined || cell.attempts === 0) return "";
            const versus =
              harness === "base-reroll" || control[mode] === undefined
                ? ""
                : ` (re-roll ${control[mode].rescued})`;
            return `${cell.rescued}/${cell.attempts}${versus}`;
          }),
        ]),
      ),
    );
  }
  replace(node, ...children);
}

async function loadTrajectories(browser, directoryIndex) {
  const state = selected[directoryIndex];
  const form = browser.querySelector("form");
  const query = new URLSearchParams({ directory: String(directoryIndex), run: state.run });
  for (const name of ["task", "harness", "outcome", "mode"]) {
    const value = form.elements[name].value;
    if (value !== "") query.set(name, value);
  }
  // a reply to an older request (a poll's, before the filter changed) must not replace a newer one
  browser.listRequest = (browser.listRequest ?? 0) + 1;
  const request = browser.listRequest;
  const reply = await fetch(`/api/trajectories?${query}`);
  const page = await reply.json();
  if (request !== browser.listRequest) return;
  const list = browser.querySelector(".list");
  if (!reply.ok) return replace(list, `could not list trajectories: ${page.error}`);
  replace(
    list,
    element("div", { class: "status" }, `${page.total} trajectories match; showing ${page.rows.length}`),
    element(
      "table",
      { class: "trajectories" },
      element(
        "tr",
        {},
        ...["task", "harness", "outcome", "reward", "steps", "modes", "end"].map((cell) =>
          element("th", {}, cell),
        ),
      ),
      ...page.rows.map((row) =>
        element(
          "tr",
          {
            class: "pick",
            "data-id": row.id,
            onclick: () => openTrajectory(browser, directoryIndex, row.id),
          },
          ...[
            row.taskId,
            row.harnessId,
            row.success ? "passed" : "failed",
            row.reward,
            row.steps,
            row.failureModes.join(", "),
            row.endReason,
          ].map((cell) => element("td", {}, cell)),
        ),
      ),
    ),
  );
}

function turnsOf(trajectory) {
  let seen = 0;
  return trajectory.steps.map((step) => {
    const messages = step.view?.messages ?? [];
    const fresh = messages.slice(seen);
    seen = messages.length + 1;
    return element(
      "div",
      { class: "turn" },
      element("div", { class: "role" }, `step ${step.index}: what the policy saw (new since the last step)`),
      ...fresh.map((message) =>
        element(
          "div",
          {},
          element("div", { class: "role" }, message.role),
          element("pre", {}, message.content),
        ),
      ),
      element("div", { class: "role" }, "policy's reply"),
      element("pre", { class: "action" }, step.action?.content ?? ""),
      ...(step.feedback === undefined || step.feedback === null
        ? []
        : [
            element("div", { class: "role" }, "what the environment answered"),
            element(
              "pre",
              {},
              typeof step.feedback === "string" ? step.feedback : JSON.stringify(step.feedback, null, 2),
            ),
          ]),
    );
  });
}

async function openTrajectory(browser, directoryIndex, id) {
  const state = selected[directoryIndex];
  const reply = await fetch(
    `/api/trajectory?${new URLSearchParams({ directory: String(directoryIndex), run: state.run, id })}`,
  );
  const detail = browser.querySelector(".detail");
  if (!reply.ok) return replace(detail, `could not open ${id}: ${(await reply.json()).error}`);
  const trajectory = await reply.json();
  replace(
    detail,
    element(
      "h3",
      { class: "trajectory-title" },
      `Trajectory ${trajectory.id}: ${trajectory.taskId} under ${trajectory.harnessId}, ${trajectory.success ? "passed" : "failed"} (${trajectory.endReason})`,
    ),
    ...turnsOf(trajectory),
    element(
      "details",
      { class: "grading" },
      element("summary", {}, "Grading details: hidden from the policy, the router and the judges"),
      element(
        "pre",
        {},
        JSON.stringify(
          {
            reward: trajectory.reward,
            success: trajectory.success,
            gradeDetails: trajectory.gradeDetails ?? null,
          },
          null,
          2,
        ),
      ),
    ),
  );
}

function trajectoryBrowser(container, prefix, directory, directoryIndex) {
  const runs = directory.runs;
  if (runs.length === 0) return;
  selected[directoryIndex] ??= { run: runs[0].id };
  let browser = document.getElementById(`${prefix}-browser`);
  const run = runs.find((candidate) => candidate.id === selected[directoryIndex].run) ?? runs[0];
  if (browser === null) {
    browser = slot(container, `${prefix}-browser`);
    const select = (name, options) =>
      element(
        "select",
        { name },
        element("option", { value: "" }, `any ${name}`),
        ...options.map((option) => element("option", { value: option }, option)),
      );
    const form = element(
      "form",
      {
        class: "filters",
        onchange: () => loadTrajectories(browser, directoryIndex),
        oninput: () => loadTrajectories(browser, directoryIndex),
      },
      element(
        "select",
        { name: "run" },
        ...runs.map((candidate) => element("option", { value: candidate.id }, candidate.id)),
      ),
      element("input", { name: "task", placeholder: "task id contains" }),
      select("harness", run.harnesses),
      element(
        "select",
        { name: "outcome" },
        element("option", { value: "" }, "any outcome"),
        element("option", { value: "success" }, "passed"),
        element("option", { value: "failure" }, "failed"),
      ),
      select("mode", run.modes),
    );
    form.onsubmit = (event) => event.preventDefault();
    form.elements.run.onchange = () => {
      selected[directoryIndex].run = form.elements.run.value;
      loadTrajectories(browser, directoryIndex);
    };
    browser.append(
      element("h3", {}, "Trajectories"),
      form,
      element(
        "div",
        { class: "browser-body" },
        element("div", { class: "list" }),
        element("div", { class: "detail" }),
      ),
    );
    loadTrajectories(browser, directoryIndex);
  } else if (browser.dataset.count !== String(run.trajectories)) {
    loadTrajectories(browser, directoryIndex);
  }
  browser.dataset.count = String(run.trajectories);
}

function directoryView(directory, index) {
  const prefix = `d${index}`;
  const container = slot(root, prefix, "section");
  slot(container, `${prefix}-title`, "h2").textContent =
    `${directory.kind === "run" ? "Run" : "Experiment"}: ${directory.path}`;
  const problems = slot(container, `${prefix}-problems`, "div", { class: "problems" });
  replace(
    problems,
    ...directory.problems.map((problem) =>
      element(
        "div",
        { class: "problem" },
        `could not read ${problem.file}${problem.line === undefined ? "" : ` (line ${problem.line})`}: ${problem.message}`,
      ),
    ),
  );
  experimentView(container, prefix, directory);
  for (const [runIndex, run] of directory.runs.entries()) {
    const runNode = slot(container, `${prefix}-r${runIndex}`, "div", { class: "run" });
    slot(runNode, `${prefix}-r${runIndex}-title`, "h3").textContent =
      `${run.id}: ${run.method}${run.seed === null ? "" : ` seed ${run.seed}`}, ${run.metrics.length} steps, ${run.trajectories} trajectories${run.indexing ? " so far (still listing the file)" : ""}`;
    runCharts(runNode, `${prefix}-r${runIndex}`, run);
  }
  poolView(container, prefix, directory);
  trajectoryBrowser(container, prefix, directory, index);
}

async function poll() {
  try {
    const reply = await fetch("/api/state");
    const state = await reply.json();
    state.directories.forEach(directoryView);
    statusLine.textContent = `updated ${new Date().toLocaleTimeString()}; polling every ${pollMs / 1000} s`;
    document.body.dataset.ready = "true";
  } catch (error) {
    statusLine.textContent = `could not reach the server: ${error.message}; retrying`;
  }
  setTimeout(poll, pollMs);
}
poll();
