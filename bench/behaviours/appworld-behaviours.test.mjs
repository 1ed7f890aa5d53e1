// node --test bench/behaviours/ (after pnpm build: the library's texts are read from its dist)
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { appworldLibrary } from "../../packages/benchmarks-appworld/dist/index.js";
import { appworldBehaviours, policyCells } from "./appworld-behaviours.mjs";

/** A trajectory of the policy's cells, each [code, output], in the shape `hs eval --trajectories` writes. */
function episode(...cells) {
  return {
    steps: cells.map(([code, output], index) => ({
      index,
      parsed: [{ id: `call-${index}`, name: "execute", arguments: { code } }],
      executed: [
        { call: { id: `call-${index}`, name: "execute", arguments: { code } }, result: { content: output } },
      ],
    })),
  };
}
const verdict = (name, ...cells) => appworldBehaviours.verdicts(episode(...cells))[name];

const refused = (message, status = 422) =>
  `Execution failed. Traceback:\n  File "<cell>", line 1, in <module>\nException: Response status code is ${status}:\n{"message": "${message}"}`;
const passwords = [
  "print(apis.supervisor.show_account_passwords())",
  "[{'account_name': 'todo', 'password': 'x'}]\n",
];
const todoLogin = [
  'todo_token = apis.todo.login(username="a@b.c", password="x")["access_token"]',
  "logged in to todo\n",
];
const unauthorized = [
  'todo_show_projects_result = apis.todo.show_projects(access_token="Errands")',
  refused("Invalid or expired access token.", 401),
];
const page = (api, args) =>
  `todo_${api} = []\npage_index = 0\nwhile True:\n    page = apis.todo.${api}(${args}page_index=page_index, page_limit=20)\n    if not page:\n        break\n    todo_${api}.extend(page)\n    page_index += 1\nprint(len(todo_${api}), "items")`;
const emptyFilteredPage = [page("show_tasks", 'access_token=todo_token, query="Errands", '), "0 items\n[]\n"];
const fullPage = [page("show_tasks", "access_token=todo_token, "), "4 items\n[{'task_id': 1}]\n"];
const loop = (condition) =>
  `for item in [item for item in todo_show_tasks if ${condition}]:\n    print(apis.todo.complete_task(access_token=todo_token, task_id=item["task_id"]))`;
const complete = ["apis.supervisor.complete_task()", "{'message': 'Marked the active task complete.'}\n"];
const answer = (condition, printed) => [
  `answer = len([item for item in todo_show_tasks if ${condition}])\nprint(answer)\napis.supervisor.complete_task(answer=answer)`,
  `${printed}\n{'message': 'Marked the active task complete.'}\n`,
];

describe("the policy's cells", () => {
  it("are its execute calls with their own output, not calls the harness made", () => {
    const trajectory = episode(fullPage);
    trajectory.steps[0].executed.unshift({
      call: { id: "prelude-0", name: "execute" },
      result: { content: "[]" },
    });
    assert.deepEqual(policyCells(trajectory), [{ code: fullPage[0], output: fullPage[1], failed: false }]);
  });
});

describe("AppWorld behaviours", () => {
  it("login after an unauthorized reply: the next cell, a passwords read aside, logs in to that app", () => {
    assert.equal(verdict("login-after-unauthorized", unauthorized, passwords, todoLogin), true);
    assert.equal(
      verdict("login-after-unauthorized", unauthorized, [
        "print(apis.api_docs.show_app_descriptions())",
        "[]",
      ]),
      false,
    );
    const missingToken = [
      "apis.todo.show_tasks(access_token=None)",
      refused("todo.show_tasks needs an access_token from todo.login.", 401),
    ];
    assert.equal(verdict("login-after-unauthorized", missingToken, todoLogin), true);
    assert.equal(verdict("login-after-unauthorized", unauthorized), false);
    assert.equal(verdict("login-after-unauthorized", todoLogin, fullPage), null);
  });

  it("the doc after a refused call: the next cell reads that API's doc", () => {
    const refusedCall = [
      "apis.todo.complete_task(access_token=todo_token, task_id=None)",
      refused('Missing required parameter \\"task_id\\".'),
    ];
    const doc = (api) => [
      `print(apis.api_docs.show_api_doc(app_name="todo", api_name="${api}"))`,
      "{'api_name': ...}",
    ];
    assert.equal(verdict("doc-after-refusal", refusedCall, doc("complete_task")), true);
    assert.equal(verdict("doc-after-refusal", refusedCall, doc("show_tasks")), false);
    assert.equal(verdict("doc-after-refusal", unauthorized, doc("show_projects")), null);
  });

  it("after an empty filtered list, the next cell pages the same API with the token alone", () => {
    assert.equal(verdict("unfiltered-after-empty", emptyFilteredPage, fullPage), true);
    assert.equal(verdict("unfiltered-after-empty", emptyFilteredPage, complete), false);
    assert.equal(verdict("unfiltered-after-empty", emptyFilteredPage, emptyFilteredPage), false);
    assert.equal(verdict("unfiltered-after-empty", fullPage, complete), null);
  });

  it("after a missing id, the next cell (a doc read aside) lists the entities or loops over them", () => {
    const missingId = [
      "apis.todo.complete_task(access_token=todo_token, task_id=None)",
      refused('Missing required parameter \\"task_id\\".'),
    ];
    const doc = ['print(apis.api_docs.show_api_doc(app_name="todo", api_name="show_tasks"))', "{}"];
    assert.equal(verdict("list-after-missing-id", missingId, doc, fullPage), true);
    assert.equal(
      verdict("list-after-missing-id", missingId, [loop("True"), "{'message': 'Task completed.'}"]),
      true,
    );
    assert.equal(verdict("list-after-missing-id", missingId, complete), false);
    assert.equal(verdict("list-after-missing-id", fullPage, complete), null);
  });

  it("after a loop ran for no item, the next cell loops with another filter or pages a list", () => {
    const emptyLoop = [
      loop('item["completed"] == True and item["completed"] == False'),
      "Execution successful.\n",
    ];
    const ran = [loop('item["completed"] == False'), "{'message': 'Task completed.'}\n"];
    assert.equal(verdict("retry-after-empty-loop", emptyLoop, ran), true);
    assert.equal(verdict("retry-after-empty-loop", emptyLoop, fullPage), true);
    assert.equal(verdict("retry-after-empty-loop", emptyLoop, complete), false);
    assert.equal(verdict("retry-after-empty-loop", emptyLoop, emptyLoop), false);
    assert.equal(verdict("retry-after-empty-loop", ran, complete), null);
  });

  it("the filter the check would re-run kept items before the completion that ended the episode", () => {
    assert.equal(
      verdict("filter-keeps-before-complete", fullPage, answer('item["completed"] == False', "3")),
      true,
    );
    assert.equal(
      verdict("filter-keeps-before-complete", fullPage, answer('item["completed"] == False', "0")),
      false,
    );
    const emptyLoop = [loop('item["completed"] == True'), "Execution successful.\n"];
    const ran = [loop('item["completed"] == False'), "{'message': 'Task completed.'}\n"];
    assert.equal(verdict("filter-keeps-before-complete", fullPage, emptyLoop, complete), false);
    assert.equal(verdict("filter-keeps-before-complete", fullPage, emptyLoop, ran, complete), true);
    const failedMax = [
      'answer = max(item["due"] for item in [item for item in todo_show_tasks if True])\nprint(answer)\napis.supervisor.complete_task(answer=answer)',
      'Execution failed. Traceback:\n  File "<cell>", line 1, in <module>\nValueError: max() arg is an empty sequence',
    ];
    assert.equal(verdict("filter-keeps-before-complete", failedMax, answer("True", "4")), true);
    assert.equal(verdict("filter-keeps-before-complete", fullPage, complete), null);
    assert.equal(verdict("filter-keeps-before-complete", fullPage), null);
  });

  it("one condition per field, over the filters of two or more conditions", () => {
    const filter = (condition) => [loop(condition), "{'message': 'Task completed.'}\n"];
    assert.equal(
      verdict(
        "one-condition-per-field",
        filter('item["completed"] == False and item["title"] == "Buy milk"'),
      ),
      true,
    );
    assert.equal(
      verdict("one-condition-per-field", filter('item["completed"] == False and item["completed"] == True')),
      false,
    );
    assert.equal(
      verdict("one-condition-per-field", filter('"work" in item["tags"] and "home" in item["tags"]')),
      false,
    );
    assert.equal(verdict("one-condition-per-field", filter('item["completed"] == False')), null);
  });

  it("the first paged list passes the access token alone", () => {
    assert.equal(verdict("page-token-alone", fullPage, emptyFilteredPage), true);
    assert.equal(verdict("page-token-alone", emptyFilteredPage, fullPage), false);
    assert.equal(verdict("page-token-alone", passwords, complete), null);
  });
});

describe("the behaviours a sibling's harness induces", () => {
  const base = { prompt: { hints: [] }, errorRecovery: {}, verification: { enabled: false } };
  const followUps = appworldLibrary.followUps;
  it("every follow-up of the AppWorld library", () => {
    const sibling = { direction: "error-recovery", config: { ...base, errorRecovery: { followUps } } };
    assert.deepEqual(appworldBehaviours.behavioursOf(sibling), [
      "login-after-unauthorized",
      "doc-after-refusal",
      "unfiltered-after-empty",
      "list-after-missing-id",
      "retry-after-empty-loop",
    ]);
  });
  it("the filter check, and the other checks", () => {
    const check = (entry) => ({
      ...base,
      verification: { enabled: true, prompt: entry.prompt, calls: entry.calls },
    });
    const [answerCheck, , filterCheck] = appworldLibrary.checkCalls;
    assert.deepEqual(
      appworldBehaviours.behavioursOf({ direction: "verification", config: check(filterCheck) }),
      ["filter-keeps-before-complete", "retry-after-empty-loop"],
    );
    assert.deepEqual(
      appworldBehaviours.behavioursOf({ direction: "verification", config: check(answerCheck) }),
      ["filter-keeps-before-complete"],
    );
  });
  it("the hint of one condition per field, and hints it does not measure", () => {
    const hinted = (hint) => ({ direction: "guidance", config: { ...base, prompt: { hints: [hint] } } });
    const oneCondition = appworldLibrary.hints.find((hint) => /one condition per field/.test(hint));
    assert.deepEqual(appworldBehaviours.behavioursOf(hinted(oneCondition)), [
      "one-condition-per-field",
      "page-token-alone",
    ]);
    assert.deepEqual(appworldBehaviours.behavioursOf(hinted(appworldLibrary.hints[0])), []);
  });
});
