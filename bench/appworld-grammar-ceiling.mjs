// The AppWorld grammar's ceiling: for how many tasks does some sequence of the grammar's actions pass
// AppWorld's evaluation? An oracle policy (this script only; it reads each task's reference solution,
// which no policy may) picks, at every decision, the option that agrees best with the reference code
// (its apps, APIs, literals, fields, answer expression), takes the best first and then samples around
// it, up to `--attempts` episodes per task under the react base harness, graded by the offline world.
// Usage: pnpm build && node bench/appworld-grammar-ceiling.mjs [--splits train,dev,test] [--attempts 4]
import { parseArgs } from "node:util";
import { createAppWorld } from "../packages/benchmarks-appworld/dist/index.js";
import { offlineTask } from "../packages/benchmarks-appworld/dist/world/offline-tasks.js";
import { createAppWorldGrammar } from "../packages/grammar-appworld/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { grammarWalkPolicy } from "./grammar-walk-policy.mjs";

const { values } = parseArgs({
  options: {
    splits: { type: "string", default: "train,dev,test" },
    attempts: { type: "string", default: "4" },
    parallelism: { type: "string", default: "2" },
    preset: { type: "string", default: "react" },
    only: { type: "string" },
    verbose: { type: "boolean", default: false },
  },
});
const attempts = Number(values.attempts);
const grammar = createAppWorldGrammar();

function mulberry(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const has = (gold, text) => gold.includes(text);
const quoted = (gold, text) =>
  has(gold, `'${text}'`) || has(gold, `"${text}"`) || has(gold, JSON.stringify(text));

function goldPlan(gold) {
  const calls = [...gold.matchAll(/apis\.(\w+)\.(\w+)\b/g)].map((match) => [match[1], match[2]]);
  const apps = new Set([...gold.matchAll(/login\((?:"|')(\w+)/g)].map((match) => match[1]));
  for (const [app] of calls) if (app !== "supervisor") apps.add(app);
  const apis = calls.filter(([app]) => app !== "supervisor").map(([app, api]) => `${app}.${api}`);
  return { apps, apis: [...new Set(apis)] };
}

// which kind of cell the oracle writes next: whatever the reference needs that the view lacks
function kindScore(label, view, plan, random) {
  const kind = label.slice(5);
  const text = view.messages.map((message) => message.content).join("\n");
  const documented = (key) => text.includes(`'api_name': '${key.split(".")[1]}'`);
  const ran = (pattern) => pattern.test(text);
  const needs = {
    apps: !ran(/show_app_descriptions\(\)\)\n/),
    apis: [...plan.apps].some((app) => !text.includes(`show_api_descriptions(app_name="${app}")`)),
    doc: plan.apis.some((key) => !documented(key)),
    passwords: !ran(/show_account_passwords\(\)\)/),
    login: [...plan.apps].some((app) => !text.includes(`${app}_token = apis.${app}.login`)),
    page: plan.apis.some((key) => /^\w+\.show_/.test(key) && !text.includes(`${key.replace(".", "_")} = []`)),
  };
  const order = ["apps", "apis", "doc", "passwords", "login", "page"];
  const firstNeed = order.find((name) => needs[name]);
  if (firstNeed !== undefined) return kind === firstNeed ? 10 : 0;
  const acted = ran(/^for item in|_result = apis\.\w+\.(?!show_)\w+\(/m);
  const changing = plan.apis.some((key) => !/\.show_/.test(key));
  if (changing && !acted) return kind === "each" ? 6 + random() * 3 : kind === "call" ? 5 + random() * 3 : 0;
  return kind === "complete" ? 10 : 0;
}

function optionScore(decision, label, gold, plan, text) {
  const [head, ...restParts] = label.split(":");
  const rest = restParts.join(":");
  if (head === "app") return plan.apps.has(rest) ? 3 : 0;
  if (head === "api" && decision === "doc-api")
    return plan.apis.includes(rest) && !text.includes(`'api_name': '${rest.split(".")[1]}'`) ? 3 : 0;
  if (head === "api") return plan.apis.includes(rest) ? 3 : 0;
  if (head === "list") return plan.apis.includes(rest.replace("_", ".")) ? 2 : 0;
  if (head === "username") return rest === "email" ? 1 : 0;
  if (head === "token") return 3;
  if (decision.startsWith("arg:")) {
    const parameter = decision.slice(4);
    const used = has(gold, `${parameter}=`);
    if (head === "omit") return used ? 0 : 2;
    if (!used) return 0;
    if (head === "item" || head === "item-list") return quoted(gold, rest) ? 2 : 0.5;
    if (head === "item-in") return has(gold, rest) ? 2 : 0;
    if (head === "choice")
      return has(
        gold,
        `${parameter}=${rest === "true" ? "True" : rest === "false" ? "False" : `"${rest}"`}`,
      ) || has(gold, `${parameter}='${rest}'`)
        ? 3
        : 0.2;
    if (head === "value") {
      const literal = rest.replace(/^(string|number):/, "");
      const forms = [
        `${parameter}="${literal}"`,
        `${parameter}='${literal}'`,
        `${parameter}=${literal}`,
        `${parameter}=["${literal}"]`,
        `${parameter}=${JSON.stringify(literal)}`,
      ];
      return forms.some((form) => has(gold, form)) ? 3 : 0;
    }
    if (head === "seen") return 1;
    return 0;
  }
  if (head === "cond") {
    if (rest === "all") return 0.5;
    if (rest === "none") return 0.8;
    const [field, operator, ...valueParts] = rest.split(":");
    const value = valueParts.join(":");
    if (!quoted(gold, field) && !has(gold, `${field}=`)) return 0;
    if (operator === "true" || operator === "false")
      return has(gold, `['${field}'] == ${operator === "true" ? "True" : "False"}`) ||
        (operator === "false" && has(gold, `not item['${field}']`)) ||
        has(gold, `${field}=${operator === "true" ? "True" : "False"}`)
        ? 2
        : 0.1;
    if (operator === "gt" || operator === "lt")
      return has(gold, `${operator === "gt" ? ">" : "<"} ${value}`) ? 2 : 0;
    if (operator === "ends") return has(gold, `endswith(${JSON.stringify(value)})`) ? 2 : 0;
    if (operator === "starts") return has(gold, value) ? 2 : 0;
    return quoted(gold, value) ? 2 : has(gold, value) ? 1 : 0.1;
  }
  if (head === "answer") {
    if (rest === "none") return has(gold, "complete_task()") ? 3 : 0;
    if (rest === "count") return has(gold, "answer=len(") ? 3 : 0;
    if (rest === "sum") return has(gold, "answer=round(sum(") ? 3 : 0;
    if (rest === "max" || rest === "min") return has(gold, `answer=${rest}(`) ? 3 : 0;
    if (rest === "field") return /answer=\w+\[0\]\[/.test(gold) ? 3 : 0;
    return 0.1;
  }
  if (head === "field") return quoted(gold, rest) ? 2 : 0;
  return 0;
}

function oraclePolicy(gold, attempt) {
  const plan = goldPlan(gold);
  const random = mulberry(7919 * (attempt + 1));
  return grammarWalkPolicy(grammar, "oracle", (decision, view) => {
    const text = view.messages.map((message) => message.content).join("\n");
    const scored = decision.options.map((option, index) => ({
      label: option.label,
      score:
        (decision.name === "kind"
          ? kindScore(option.label, view, plan, random)
          : optionScore(decision.name, option.label, gold, plan, text)) -
        index * 1e-3 +
        (attempt > 0 ? random() * 0.9 : 0),
    }));
    scored.sort((left, right) => right.score - left.score);
    return scored[0].label;
  });
}

const appworld = createAppWorld({ parallelism: Number(values.parallelism) });
const started = Date.now();
const report = {};
for (const split of values.splits.split(",")) {
  const { tasks } = await appworld.loadTasks({ split });
  const chosen = tasks.filter((task) => values.only === undefined || task.id.startsWith(values.only));
  const results = new Map();
  let episodes = 0;
  const queue = [...chosen];
  const worker = async () => {
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
      const gold = offlineTask(task.id).solution;
      let passed = false;
      for (let attempt = 0; attempt < attempts && !passed; attempt += 1) {
        const trajectory = await runEpisode({
          task,
          benchmark: appworld,
          harness: appworld.presets[values.preset],
          policy: oraclePolicy(gold, attempt),
          seed: attempt,
          mode: "greedy",
        });
        episodes += 1;
        passed = trajectory.success;
        if (values.verbose && attempt === 0 && !passed)
          console.error(
            `${task.id} fails: ${trajectory.steps.map((step) => step.action.content.split("\n").slice(1, -1).join(" ").slice(0, 160)).join("\n   ")}\n   ${JSON.stringify(trajectory.gradeDetails.failures)}`,
          );
      }
      results.set(task.id, passed);
    }
  };
  await Promise.all(Array.from({ length: Number(values.parallelism) }, worker));
  const passedTasks = [...results.values()].filter(Boolean).length;
  const scenarios = new Map();
  for (const [id, passed] of results) {
    const scenario = id.split("_")[0];
    scenarios.set(scenario, (scenarios.get(scenario) ?? true) && passed);
  }
  const passedScenarios = [...scenarios.values()].filter(Boolean).length;
  report[split] = {
    tasks: results.size,
    passed: passedTasks,
    tgc: Number(((100 * passedTasks) / Math.max(1, results.size)).toFixed(1)),
    sgc: Number(((100 * passedScenarios) / Math.max(1, scenarios.size)).toFixed(1)),
    scenarios: scenarios.size,
    episodes,
    failed: [...results].filter(([, passed]) => !passed).map(([id]) => id),
  };
  console.log(JSON.stringify({ split, ...report[split] }));
}
console.log(
  JSON.stringify({ attempts, preset: values.preset, seconds: Math.round((Date.now() - started) / 1000) }),
);
await appworld.close();
