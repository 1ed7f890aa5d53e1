// The DBBench grammar's ceiling: for how many tasks does some sequence of the grammar's decisions pass
// grading? An oracle policy (this script only; it reads the gold SQL, which no policy may) scores each
// option of each decision by its agreement with the task's gold statement, takes the best first and
// then samples around it, up to `--attempts` episodes per task under the base harness.
// With --paths FILE it also writes the first passing decision path of each task (JSON lines).
// Usage: pnpm build && node bench/grammar-ceiling.mjs [--split dev] [--attempts 40] [--paths FILE]
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import * as dbbench from "../packages/benchmarks-dbbench/dist/index.js";
import { createDbBenchGrammar } from "../packages/grammar-dbbench/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";

const { values } = parseArgs({
  options: {
    split: { type: "string", default: "dev" },
    attempts: { type: "string", default: "40" },
    paths: { type: "string" },
  },
});
const attempts = Number(values.attempts);
const grammar = createDbBenchGrammar();
const benchmark = dbbench.createDbBench({ actionGrammar: grammar });
const { tasks } = await benchmark.loadTasks({ split: values.split });
const harness = benchmark.presets[benchmark.defaultPreset];
const records = readFileSync(
  new URL(`../packages/benchmarks-dbbench/data/${values.split}.jsonl`, import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));

const normal = (text) =>
  String(text)
    .toLowerCase()
    .replace(/[`"[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();

/** What the oracle reads from the gold statement. */
function goldOf(record) {
  const label = Array.isArray(record.label) ? record.label.join(" ") : String(record.label ?? "");
  const statement = record.sql?.query ?? label;
  const type = record.type?.[0] === "INSERT" ? "insert" : record.type?.[0] === "UPDATE" ? "update" : "query";
  const text = normal(statement);
  const unquote = (raw) => raw.replaceAll("''", "'").replaceAll("\\'", "'");
  const literalPattern = /'((?:[^'\\]|''|\\')*)'|(-?\d+(?:\.\d+)?)/g;
  const literalsOf = (part) =>
    [...part.matchAll(literalPattern)].map((match) =>
      unquote(match[1] ?? match[2] ?? "").replace(/^%|%$/g, ""),
    );
  const valuesPart = statement.slice(Math.max(0, statement.search(/\bvalues\s*\(/i)));
  const literals = literalsOf(statement);
  // column op value, on the statement as written (identifiers normalised, values keep their case)
  const comparisons = [
    ...statement.matchAll(
      /([`"[]?[^`"[\],()=<>]+?[`"\]]?)\s*(<=|>=|=|<|>|\bLIKE\b|\bIN\b)\s*('(?:[^'\\]|''|\\')*'|-?\d+(?:\.\d+)?)/gi,
    ),
  ].map((match) => ({
    column: normal(match[1].replace(/^.*\b(where|and|or|set)\s+/i, "")),
    operator: match[2].toLowerCase(),
    value: literalsOf(match[3])[0] ?? "",
  }));
  const between = (from, to) => {
    const start = text.indexOf(from);
    if (start < 0) return "";
    const rest = text.slice(start + from.length);
    const end = to.map((word) => rest.indexOf(word)).filter((index) => index >= 0);
    return end.length === 0 ? rest : rest.slice(0, Math.min(...end));
  };
  return {
    type,
    text,
    literals,
    select: between("select ", [" from "]),
    where: between(" where ", [" order by ", " limit ", " group by "]),
    set: between(" set ", [" where "]),
    order: between(" order by ", [" limit "]),
    values: type === "insert" ? literalsOf(valuesPart) : [],
    comparisons,
  };
}

const mentions = (clause, column) => {
  if (column === "*") return clause.includes("*");
  const name = normal(column);
  return (
    name.length > 0 &&
    new RegExp(`(^|[^a-z0-9])${name.replace(/[.*+?^${}()|\\]/g, "\\$&")}($|[^a-z0-9])`).test(clause)
  );
};

const matchScore = (wanted, value) =>
  wanted.includes(value)
    ? 3
    : wanted.some((entry) => entry.toLowerCase() === value.toLowerCase())
      ? 2
      : wanted.some((entry) => value.length > 2 && entry.toLowerCase().includes(value.toLowerCase()))
        ? 1
        : 0;

/** How well an option agrees with the gold statement (higher is better). */
function score(gold, decision, label, chosen, priorActions) {
  const value = label.slice(label.indexOf(":") + 1);
  switch (decision) {
    case "kind":
      return priorActions === 0
        ? value === gold.type
          ? 3
          : 0
        : value === "answer"
          ? 3
          : value === gold.type
            ? 1
            : 0;
    case "select-column":
      return mentions(gold.select, value) ? 2 + value.length / 100 : 0;
    case "aggregate": {
      const match = gold.select.match(/\b(count|sum|avg|min|max)\s*\(/);
      return (match ? match[1] : "none") === value.toLowerCase() ? 3 : 0;
    }
    case "condition-first":
    case "condition-more": {
      const used = chosen.filter((entry) => entry.startsWith("condition:add")).length;
      const wanted = (gold.where.match(/ and | or /g) ?? []).length + (gold.where === "" ? 0 : 1);
      return (value === "add") === used < wanted ? 3 : 0;
    }
    case "condition-column":
    case "where-column":
      return mentions(gold.where, value) ? 2 - gold.where.indexOf(normal(value)) / 1000 : 0;
    case "set-column-first":
    case "set-column": {
      if (value === "(where)") return 1;
      return mentions(gold.set, value) && !chosen.includes(label) ? 2 : 0;
    }
    case "condition-operator": {
      const column = normal(chosen.at(-1)?.slice(7) ?? "");
      const operator = gold.comparisons.find((entry) => entry.column === column)?.operator ?? "=";
      return operator === value.toLowerCase() ? 3 : 0;
    }
    case "condition-value":
    case "set-value":
    case "where-value": {
      const column = normal((decision === "condition-value" ? chosen.at(-2) : chosen.at(-1))?.slice(7) ?? "");
      const wanted = gold.comparisons.filter((entry) => entry.column === column).map((entry) => entry.value);
      return matchScore(wanted.length > 0 ? wanted : gold.literals, value);
    }
    case "insert-value":
      return matchScore([gold.values[chosen.length - 1] ?? ""], value);
    case "order":
      if (gold.order === "") return value === "none" ? 3 : 0;
      return value !== "none" && gold.order.includes(value.startsWith("asc") ? "asc" : "desc")
        ? 2
        : gold.order.includes("asc") || gold.order.includes("desc")
          ? 0
          : value.startsWith("asc")
            ? 1
            : 0;
    case "order-column":
      return mentions(gold.order, value) ? 2 : 0;
    case "answer-source":
      return value === "none" ? (gold.type === "query" ? 0 : 3) : 1;
    case "answer-format":
      return value === "all" ? 1 : 0.5;
    default:
      return 0;
  }
}

let rngState = 1;
const random = () => {
  rngState = (rngState * 1664525 + 1013904223) >>> 0;
  return rngState / 2 ** 32;
};

function oraclePolicy(gold, temperature, paths) {
  let actions = 0;
  return {
    specificationVersion: "v1",
    id: "oracle",
    version: "oracle",
    async act(view) {
      const labels = [];
      const decisions = [];
      for (;;) {
        const step = grammar.next(view, labels);
        if (step.done) {
          paths.push({ labels, decisions });
          actions++;
          return { content: step.content, toolCalls: step.toolCalls, logprob: null };
        }
        const { name, options } = step.decision;
        const scores = options.map((option) => score(gold, name, option.label, labels, actions));
        let index = scores.indexOf(Math.max(...scores));
        if (temperature > 0) {
          const weights = scores.map((value) => Math.exp(value / temperature));
          const target = random() * weights.reduce((sum, weight) => sum + weight, 0);
          let cumulative = 0;
          index = options.length - 1;
          for (let option = 0; option < weights.length; option++) {
            cumulative += weights[option];
            if (cumulative >= target) {
              index = option;
              break;
            }
          }
        }
        labels.push(options[index].label);
        decisions.push(name);
      }
    },
  };
}

const byCategory = new Map();
const found = [];
let passed = 0;
const started = Date.now();
for (const [position, task] of tasks.entries()) {
  const index = Number(task.id.split("/").at(-1));
  const gold = goldOf(records[index]);
  let success = false;
  let path = null;
  for (let attempt = 0; attempt < attempts && !success; attempt++) {
    const paths = [];
    const trajectory = await runEpisode({
      task,
      benchmark,
      harness,
      policy: oraclePolicy(gold, attempt === 0 ? 0 : attempt < attempts / 2 ? 0.7 : 1.5, paths),
      seed: attempt,
      mode: "sample",
    });
    if (trajectory.success) {
      success = true;
      path = paths;
    }
  }
  if (success) {
    passed++;
    found.push({ taskId: task.id, category: task.category, steps: path });
  }
  const entry = byCategory.get(task.category) ?? { n: 0, passed: 0 };
  entry.n++;
  entry.passed += success ? 1 : 0;
  byCategory.set(task.category, entry);
  if ((position + 1) % 20 === 0)
    console.error(`ceiling: ${position + 1}/${tasks.length} tasks, ${passed} passable`);
}
const groups = { SELECT: { n: 0, passed: 0 }, INSERT: { n: 0, passed: 0 }, UPDATE: { n: 0, passed: 0 } };
for (const [category, entry] of byCategory) {
  const group = groups[category] ?? groups.SELECT;
  group.n += entry.n;
  group.passed += entry.passed;
}
const share = (entry) => (entry.n === 0 ? 0 : entry.passed / entry.n);
const overall = (share(groups.SELECT) + share(groups.INSERT) + share(groups.UPDATE)) / 3;
console.log(
  JSON.stringify({
    split: values.split,
    attempts,
    tasks: tasks.length,
    passable: passed,
    success: passed / tasks.length,
    overall_cat_accuracy: overall,
    per_category: Object.fromEntries(
      [...byCategory].map(([name, entry]) => [name, `${entry.passed}/${entry.n}`]),
    ),
    wall_s: (Date.now() - started) / 1000,
  }),
);
if (values.paths !== undefined) {
  writeFileSync(values.paths, `${found.map((entry) => JSON.stringify(entry)).join("\n")}\n`);
  console.error(`wrote ${found.length} oracle paths to ${values.paths}`);
}
