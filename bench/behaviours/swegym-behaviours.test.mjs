// node --test bench/behaviours/
import assert from "node:assert/strict";
import { it } from "node:test";
import { rankedTraceCommand, traceStatementCommand } from "../../packages/benchmarks-swegym/dist/index.js";
import { swegymBehaviours } from "./swegym-behaviours.mjs";

/** A trajectory of the policy's bash commands, each [command, output]. */
const episode = (...commands) => ({
  steps: commands.map(([command, output], index) => ({
    parsed: [{ id: `call-${index}`, name: "bash", arguments: { command } }],
    executed: [
      {
        call: { id: `call-${index}` },
        result: { content: `<returncode>0</returncode>\n<output>\n${output}\n</output>` },
      },
    ],
  })),
});
const calls = JSON.stringify(["evaluate('2 ^ 3')"]);
const ranked = [rankedTraceCommand(calls), "calls: ..."];
const plain = [traceStatementCommand(calls), "calls: ..."];
const listing = ["find . -name '*.py'", "./pkg/core.py"];
const fruitlessProbe = [
  "python3 - <<'HS_PROBE'",
  "probed pkg/core.py:3 with 4 rewrites\noriginal: x\n  [0] => 1",
];
const fruitfulProbe = [
  "python3 - <<'HS_PROBE'",
  "probed pkg/core.py:3 with 4 rewrites\noriginal: x\n  [0] => 1\nrewrite: y\n  [0] => 8",
];

it("SWE-Gym behaviours: the policy's own ranked trace, a trace before the first probe, ranked after a fruitless probe", () => {
  assert.deepEqual(swegymBehaviours.verdicts(episode(listing, ranked, fruitfulProbe)), {
    "ranked-trace": true,
    "trace-before-probe": true,
    "ranked-after-fruitless": null,
    "ranked-before-submit": null,
  });
  assert.deepEqual(swegymBehaviours.verdicts(episode(listing, fruitlessProbe, plain, fruitfulProbe)), {
    "ranked-trace": false,
    "trace-before-probe": false,
    "ranked-after-fruitless": false,
    "ranked-before-submit": null,
  });
  assert.deepEqual(swegymBehaviours.verdicts(episode(plain, fruitlessProbe, ranked)), {
    "ranked-trace": true,
    "trace-before-probe": true,
    "ranked-after-fruitless": true,
    "ranked-before-submit": null,
  });
  assert.deepEqual(swegymBehaviours.verdicts({ steps: [] }), {
    "ranked-trace": null,
    "trace-before-probe": null,
    "ranked-after-fruitless": null,
    "ranked-before-submit": null,
  });
});

it("SWE-Gym behaviours: the ranked trace between the last edit and the submission", () => {
  const edit = ["python3 - <<'HS_EDIT' && nl -ba 'pkg/core.py'", "edited pkg/core.py:3: x -> y"];
  const submit = ["echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached", ""];
  const verdict = (...commands) => swegymBehaviours.verdicts(episode(...commands))["ranked-before-submit"];
  assert.equal(verdict(listing, edit, ranked, submit), true);
  assert.equal(verdict(listing, ranked, edit, submit), false);
  assert.equal(verdict(listing, edit, ranked, edit, submit), false);
  assert.equal(verdict(listing, ranked, submit), null);
  assert.equal(verdict(listing, edit, ranked), null);
});

it("SWE-Gym behaviours: a harness's prelude or follow-up is not the policy's command", () => {
  const withHarnessCall = episode(listing);
  withHarnessCall.steps[0].harnessCalls = [{ call: { name: "bash", arguments: { command: ranked[0] } } }];
  assert.equal(swegymBehaviours.verdicts(withHarnessCall)["ranked-trace"], false);
});

it("SWE-Gym behaviours: each sibling of the committed amendment-2 pool induces its own", async () => {
  const { readFile } = await import("node:fs/promises");
  const file = new URL("../../docs/experiments/swegym-amendment-2-pool.json", import.meta.url);
  const pool = JSON.parse(await readFile(file, "utf8"));
  const induced = Object.fromEntries(
    pool.siblings.map((sibling) => [sibling.direction, swegymBehaviours.behavioursOf(sibling)]),
  );
  assert.deepEqual(induced, {
    context: ["ranked-trace", "trace-before-probe"],
    "error-recovery": ["ranked-after-fruitless"],
  });
});

it("SWE-Gym behaviours: a check that runs the ranked trace induces it before a submission", () => {
  const call = { tool: "bash", arguments: { command: ranked[0] } };
  const sibling = (verification) => ({ config: { verification } });
  assert.deepEqual(swegymBehaviours.behavioursOf(sibling({ enabled: true, calls: { calls: [call] } })), [
    "ranked-before-submit",
  ]);
  assert.deepEqual(swegymBehaviours.behavioursOf(sibling({ enabled: false, calls: { calls: [call] } })), []);
  assert.deepEqual(swegymBehaviours.behavioursOf(sibling({ enabled: true })), []);
});
