// node --test bench/behaviours/
import assert from "node:assert/strict";
import { it } from "node:test";
import { dbbenchBehaviours } from "./dbbench-behaviours.mjs";

/** A trajectory of the policy's statements, each [sql, reply]. */
const episode = (...statements) => ({
  steps: statements.map(([sql, reply]) => ({
    action: { content: `\`\`\`sql\n${sql}\n\`\`\`` },
    executed: [{ result: { content: reply } }],
  })),
});

it("DBBench behaviours: read-back, values-first and look-after-empty, null where they have no occasion", () => {
  const update = ["UPDATE t SET a = 1 WHERE b = 'x'", "[]"];
  const distinct = ["SELECT DISTINCT b FROM t", "[('x',)]"];
  const emptyFilter = ["SELECT a FROM t WHERE b = 'X'", "[]"];
  const everything = ["SELECT * FROM t", "[(1, 'x')]"];
  assert.deepEqual(dbbenchBehaviours.verdicts(episode(distinct, update, everything)), {
    "read-back": true,
    "values-first": true,
    "look-after-empty": null,
  });
  assert.deepEqual(dbbenchBehaviours.verdicts(episode(emptyFilter, everything, update)), {
    "read-back": false,
    "values-first": false,
    "look-after-empty": true,
  });
  assert.deepEqual(dbbenchBehaviours.verdicts(episode(everything)), {
    "read-back": null,
    "values-first": null,
    "look-after-empty": null,
  });
});
