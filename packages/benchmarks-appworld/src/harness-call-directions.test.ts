import { parseHarnessConfig, runEpisode } from "@hs/harness";
import type { HarnessConfig, Task } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedPolicy } from "./__fixtures__/scripted-policy.js";
import { createAppWorld } from "./create-appworld.js";
import { appworldLibrary } from "./evolution-library.js";
import { appworldHarnessCallLibrary } from "./harness-call-directions.js";
import { appworldPresets } from "./presets.js";

const appworld = createAppWorld({ parallelism: 1, timeoutSeconds: 5 });
afterAll(async () => {
  await appworld.close();
});
const task = (await appworld.loadTasks({ split: "train" })).tasks[0] as Task;
const notesLogin =
  "notes_token = apis.notes.login(username=apis.supervisor.show_profile()['email'], password=next(a['password'] for a in apis.supervisor.show_account_passwords() if a['account_name'] == 'notes'))['access_token']";
const code = (text: string) => `Let me run this.\n\`\`\`python\n${text}\n\`\`\``;

function sibling(patch: (config: HarnessConfig) => void): HarnessConfig {
  const config = structuredClone(appworldPresets.react as HarnessConfig);
  patch(config);
  return parseHarnessConfig(config);
}

describe("AppWorld harness-call directions", () => {
  it("the library offers them to the operators", () => {
    expect(appworldLibrary.followUps).toBe(appworldHarnessCallLibrary.followUps);
    expect(appworldLibrary.macros.map((macro) => macro.name)).toContain("list_all_pages");
  });

  it("after a 401 the harness names the cause and logs in; after a 422 it shows the API's doc", {
    timeout: 60_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = appworldHarnessCallLibrary.followUps;
    });
    const policy = scriptedPolicy([
      code("print(apis.notes.show_account())"),
      code("print(apis.notes.show_profile(no_such_argument=1))"),
      code("print(apis.notes.show_notes(access_token='x'))"),
      code("apis.supervisor.complete_task()"),
    ]);
    const trajectory = await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    const first = policy.views[1]?.messages.at(-1)?.content ?? "";
    expect(first).toMatch(/^Execution failed[\s\S]*needs an access_token from notes\.login/);
    expect(first).toContain("Not logged in to notes: its APIs need access_token from apis.notes.login(");
    expect(first).toMatch(
      /\[harness ran execute: notes_token = apis\.notes\.login\([^\n]*\]\nlogged in to notes: the access token is in notes_token/,
    );
    const second = policy.views[2]?.messages.at(-1)?.content ?? "";
    expect(second).toContain("The call of apis.notes.show_profile was refused");
    expect(second).toMatch(/"api_name": "show_profile"|'api_name': 'show_profile'/);
    expect(policy.views[3]?.messages.at(-1)?.content).toContain(
      "The access_token given to apis.notes.show_notes is not a valid notes token",
    );
    expect(trajectory.steps[0]?.harnessCalls).toHaveLength(1);
    expect(trajectory.steps[0]?.executed).toHaveLength(1);
  });

  it("the check holds complete_task in code, prints the answer it gives, and accepts the next", {
    timeout: 60_000,
  }, async () => {
    const check = appworldHarnessCallLibrary.checkCalls[0]!;
    const config = sibling((draft) => {
      draft.verification = {
        enabled: true,
        prompt: check.prompt,
        maxChecks: 1,
        calls: check.calls,
        ...(check.submitMatch === undefined ? {} : { submitMatch: check.submitMatch }),
      };
    });
    const submit = code("answer = 6 * 7\napis.supervisor.complete_task(answer=answer)");
    const policy = scriptedPolicy([code("answer = 6 * 7"), submit, submit]);
    const trajectory = await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    expect(policy.views[2]?.messages.at(-1)?.content).toMatch(
      /^Before the task is completed, the harness printed[\s\S]*\[harness ran execute: print\(repr\(answer\)\)\]\n42/,
    );
    expect(trajectory.steps[1]?.executed).toEqual([]);
    expect(trajectory.endReason).toBe("submitted");
  });

  it("the prelude logs in to every app and says where each token is; the policy's call with it works", {
    timeout: 60_000,
  }, async () => {
    const prelude = appworldHarnessCallLibrary.preludes[1];
    const config = sibling((draft) => {
      draft.context.prelude = prelude ?? null;
    });
    const policy = scriptedPolicy([
      code("print(apis.notes.show_notes(access_token=notes_token, page_index=0))"),
      code("apis.supervisor.complete_task()"),
    ]);
    await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    const shown = policy.views[0]?.messages.map((message) => message.content).join("\n") ?? "";
    expect(shown).toMatch(/^logged in to notes: the access token is in notes_token$/m);
    expect(shown).toMatch(/^logged in to phone: the access token is in phone_token$/m);
    expect(policy.views[1]?.messages.at(-1)?.content).toMatch(/'note_id': \d+/);
  });

  it("after a filtered list comes back empty the harness names the cause and pages it unfiltered", {
    timeout: 60_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = appworldHarnessCallLibrary.followUps;
    });
    const login =
      "notes_token = apis.notes.login(username=apis.supervisor.show_profile()['email'], password=next(a['password'] for a in apis.supervisor.show_account_passwords() if a['account_name'] == 'notes'))['access_token']";
    const policy = scriptedPolicy([
      code(login),
      code("print(apis.notes.show_notes(access_token=notes_token, query='no note says this', page_index=0))"),
      code("print(apis.notes.show_notes(access_token=notes_token, page_index=0))"),
      code("apis.supervisor.complete_task()"),
    ]);
    const trajectory = await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    const refilled = policy.views[2]?.messages.at(-1)?.content ?? "";
    expect(refilled).toMatch(/^\[\]\n/);
    expect(refilled).toContain("apis.notes.show_notes gave no items with those filter arguments");
    expect(refilled).toMatch(
      /\[harness ran execute: notes_show_notes = \[\] [^\n]*\]\n[1-9]\d* items\n\[\{'note_id'/,
    );
    // a list the policy paged without filters is not followed up
    expect(policy.views[3]?.messages.at(-1)?.content).not.toContain("[harness ran");
    expect(trajectory.steps[1]?.harnessCalls).toHaveLength(1);
  });

  it("the second check holds only a complete_task without an answer and shows the lists collected", {
    timeout: 60_000,
  }, async () => {
    const check = appworldHarnessCallLibrary.checkCalls[1]!;
    const config = sibling((draft) => {
      draft.verification = {
        enabled: true,
        prompt: check.prompt,
        maxChecks: 1,
        calls: check.calls,
        ...(check.submitMatch === undefined ? {} : { submitMatch: check.submitMatch }),
      };
    });
    const policy = scriptedPolicy([
      code("found = [1, 2, 3]"),
      code("apis.supervisor.complete_task()"),
      code("apis.supervisor.complete_task(answer=len(found))"),
    ]);
    const trajectory = await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    expect(policy.views[2]?.messages.at(-1)?.content).toMatch(
      /^The harness held this complete_task call: it passes no answer[\s\S]*\[harness ran execute: [^\n]*\]\n\{'found': 3\}/,
    );
    expect(trajectory.endReason).toBe("submitted");
    expect(trajectory.steps).toHaveLength(3);
  });

  it("after a call that lacks an item's id the harness names the cause and pages that item's list", {
    timeout: 60_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = appworldHarnessCallLibrary.followUps;
    });
    const policy = scriptedPolicy([
      code(notesLogin),
      code("print(apis.notes.delete_note(access_token=notes_token, note_id=None))"),
      code("apis.supervisor.complete_task()"),
    ]);
    const trajectory = await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    const shown = policy.views[2]?.messages.at(-1)?.content ?? "";
    expect(shown).toMatch(/^Execution failed[\s\S]*Missing required parameter/);
    expect(shown).toContain("apis.notes.delete_note needs note_id, the id of one note");
    expect(shown).toMatch(
      /\[harness ran execute: notes_show_notes = \[\] [^\n]*apis\.notes\.show_notes\(access_token=notes_token, page_index[^\n]*\]\n[1-9]\d* items\n\[\{'note_id'/,
    );
    // the doc follow-up after a 422 runs too; both are harness calls, never policy actions
    const made = trajectory.steps[1]?.harnessCalls?.map((entry) => String(entry.call.arguments.code));
    expect(made).toEqual([
      expect.stringContaining("show_api_doc"),
      expect.stringMatching(/^notes_show_notes = \[\]/),
    ]);
    expect(trajectory.steps[1]?.executed).toHaveLength(1);
  });

  it("the filter check re-runs the filter of the held answer or of the last loop and counts what it keeps", {
    timeout: 60_000,
  }, async () => {
    const check = appworldHarnessCallLibrary.checkCalls[2]!;
    const config = sibling((draft) => {
      draft.verification = {
        enabled: true,
        prompt: check.prompt,
        maxChecks: 2,
        calls: check.calls,
        ...(check.submitMatch === undefined ? {} : { submitMatch: check.submitMatch }),
      };
    });
    const answer = (condition: string) =>
      code(
        `answer = len([item for item in notes_show_notes if ${condition}])\nprint(answer)\napis.supervisor.complete_task(answer=answer)`,
      );
    const policy = scriptedPolicy([
      code(`${notesLogin}\nnotes_show_notes = apis.notes.show_notes(access_token=notes_token, page_index=0)`),
      answer('item["title"] == "no note is called this"'),
      code(
        'for item in [item for item in notes_show_notes if item["note_id"] > 0]:\n    print(item["note_id"])',
      ),
      code("apis.supervisor.complete_task()"),
      code("apis.supervisor.complete_task()"),
    ]);
    const trajectory = await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    const first = policy.views[2]?.messages.at(-1)?.content ?? "";
    expect(first).toMatch(/^The harness held this complete_task call and re-ran the filter/);
    expect(first).toMatch(/^harness check: your filter on notes_show_notes keeps 0 of [1-9]\d* items$/m);
    const second = policy.views[4]?.messages.at(-1)?.content ?? "";
    expect(second).toMatch(/^harness check: your filter on notes_show_notes keeps ([1-9]\d*) of \1 items$/m);
    expect(trajectory.endReason).toBe("submitted");
  });

  it("after a loop that ran for no item the harness names the cause and counts what its filter keeps", {
    timeout: 60_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = appworldHarnessCallLibrary.followUps;
    });
    const loop = (condition: string) =>
      code(`for item in [item for item in notes_show_notes if ${condition}]:\n    print(item["note_id"])`);
    const policy = scriptedPolicy([
      code(`${notesLogin}\nnotes_show_notes = apis.notes.show_notes(access_token=notes_token, page_index=0)`),
      loop('item["note_id"] > 0 and item["note_id"] < 0'),
      loop('item["note_id"] > 0'),
      code("apis.supervisor.complete_task()"),
    ]);
    await runEpisode({ task, benchmark: appworld, harness: config, policy, seed: 1 });
    const emptied = policy.views[2]?.messages.at(-1)?.content ?? "";
    expect(emptied).toMatch(/^Execution successful\.\s*\n\nThe loop over notes_show_notes printed nothing/);
    expect(emptied).toMatch(/^harness check: your filter on notes_show_notes keeps 0 of [1-9]\d* items$/m);
    expect(policy.views[3]?.messages.at(-1)?.content).not.toContain("[harness ran");
  });

  it("no harness-made call reads grading, gold or hidden state", () => {
    const library = appworldHarnessCallLibrary;
    const calls = [
      ...library.preludes.flatMap((prelude) => prelude.calls),
      ...library.followUps.flatMap((followUp) => followUp.calls),
      ...library.checkCalls.flatMap((check) => check.calls.calls),
      ...library.macros.flatMap((macro) => macro.steps),
    ];
    for (const call of calls) {
      expect(call.tool).toBe("execute");
      const text = JSON.stringify(call.arguments);
      expect(text).not.toMatch(/evaluate|ground_truth|solution|answer\.json|expected|_world|__/);
      for (const [, app] of text.matchAll(/apis\.(\w+)\./g))
        expect(["api_docs", "supervisor", "{app}"]).toContain(app);
    }
  });
});
