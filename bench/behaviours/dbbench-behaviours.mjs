// The decisions the kept DBBench siblings induce, read from the policy's own SQL only:
// - read-back (the verification sibling's check): a SELECT after an executed UPDATE, INSERT or DELETE,
//   before the answer;
// - values-first (the context sibling's prelude of each column's values, the guidance sibling's hint to
//   preview distinct values): a SELECT DISTINCT before the first statement with a WHERE;
// - look-after-empty (a hint or note to look at the rows after []): after a SELECT with a WHERE
//   returned [], the next statement is a SELECT without a WHERE.
// Each detector answers null when the episode gives the behaviour no occasion (tasks that changed no
// rows; episodes without a WHERE; episodes without an empty filtered result).

const sqlOf = (step) => /```sql\s*([\s\S]*?)```/.exec(step.action?.content ?? "")?.[1]?.trim() ?? null;
const replyOf = (step) => step.executed?.[0]?.result?.content ?? "";
const hasWhere = (sql) => /\bWHERE\b/i.test(sql);
const changes = (sql) => /^\s*(UPDATE|INSERT|DELETE)\b/i.test(sql);
const detectors = {
  "read-back": (queries) => {
    const change = queries.findIndex(changes);
    if (change < 0) return null;
    return queries.slice(change + 1).some((sql) => /^\s*SELECT\b/i.test(sql));
  },
  "values-first": (queries) => {
    const filtered = queries.findIndex((sql) => /\bWHERE\b/i.test(sql));
    if (filtered < 0) return null;
    return queries.slice(0, filtered).some((sql) => /^\s*SELECT\s+DISTINCT\b/i.test(sql));
  },
  "look-after-empty": (queries, replies) => {
    const empty = queries.findIndex(
      (sql, index) => /^\s*SELECT\b/i.test(sql) && hasWhere(sql) && /^\s*\[\s*\]\s*$/.test(replies[index]),
    );
    if (empty < 0) return null;
    const next = queries[empty + 1];
    return next !== undefined && /^\s*SELECT\b/i.test(next) && !hasWhere(next);
  },
};

/** Each behaviour's verdict on one trajectory: null (no occasion), true or false. */
function verdicts(trajectory) {
  const steps = trajectory.steps.filter((step) => sqlOf(step) !== null);
  const queries = steps.map(sqlOf);
  const replies = steps.map(replyOf);
  return Object.fromEntries(
    Object.entries(detectors).map(([name, detect]) => [name, detect(queries, replies)]),
  );
}

/** The behaviours a sibling's harness induces, read from its config (texts and harness-made calls). */
function behavioursOf(sibling) {
  const text = JSON.stringify(sibling.config).toLowerCase();
  const found = [];
  if (/select the rows your change|read[- ]?back|changecheck/.test(text)) found.push("read-back");
  if (/distinct values|"prelude":\{/.test(text)) found.push("values-first");
  if (/look at the (rows|values)|written differently/.test(text)) found.push("look-after-empty");
  if (found.length > 0) return found;
  return sibling.direction === "verification" ? ["read-back"] : ["values-first"];
}

/** DBBench's behaviour set for bench/behaviour-frequency.mjs (held-out split: dev). */
export const dbbenchBehaviours = { split: "dev", names: Object.keys(detectors), verdicts, behavioursOf };
