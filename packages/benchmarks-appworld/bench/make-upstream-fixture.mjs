// Writes the AppWorld-layout dataset the upstream-shaped server's tests use
// (src/upstream-shaped/__fixtures__/appworld-root): tasks of our own, in AppWorld's file layout
// (data/datasets/<name>.txt, data/tasks/<id>/specs.json, ground_truth/{metadata,answer}.json and
// solution.py). Each answer is what the solution gives on the task's seeded world.
// Run after `pnpm --filter @hs/benchmarks-appworld build`: node bench/make-upstream-fixture.mjs
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { callApi, newSession } from "../dist/world/call-api.js";
import { cloneDatabase } from "../dist/world/database.js";
import { diffDatabases } from "../dist/world/database-diff.js";
import { PythonShell } from "../dist/world/python-shell.js";
import { seedWorld, worldDatetime } from "../dist/world/seed-world.js";

const root = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "src",
  "upstream-shaped",
  "__fixtures__",
  "appworld-root",
);

const login = `    me = apis.supervisor.show_profile()
    passwords = {a["account_name"]: a["password"] for a in apis.supervisor.show_account_passwords()}
    token = apis.phone.login(username=me["email"], password=passwords["phone"])["access_token"]`;
const contacts = (relationship) => `    contacts, page = [], 0
    while True:
        batch = apis.phone.show_contacts(access_token=token, page_index=page, page_limit=20${relationship === null ? "" : `, relationship=${JSON.stringify(relationship)}`})
        if not batch:
            break
        contacts.extend(batch)
        page += 1`;
const notesLogin = login.replace(/phone/g, "notes");

const tasks = [
  {
    id: "b7c41d2_1",
    difficulty: 1,
    instruction: "How many contacts are saved in my phone?",
    body: `${login}\n${contacts(null)}\n    apis.supervisor.complete_task(answer=len(contacts))`,
  },
  {
    id: "b7c41d2_2",
    difficulty: 1,
    instruction: 'How many of my phone contacts are saved as "friend"?',
    body: `${login}\n${contacts("friend")}\n    apis.supervisor.complete_task(answer=len(contacts))`,
  },
  {
    id: "e93fa60_1",
    difficulty: 2,
    instruction: 'Create a note titled "Garden plan" with the content "Plant tomatoes in May."',
    body: `${notesLogin}\n    apis.notes.create_note(access_token=token, title="Garden plan", content="Plant tomatoes in May.")\n    apis.supervisor.complete_task()`,
  },
  {
    id: "e93fa60_2",
    difficulty: 2,
    instruction: 'Create a note titled "Reading list" with the content "Dune, Emma, Kindred."',
    body: `${notesLogin}\n    apis.notes.create_note(access_token=token, title="Reading list", content="Dune, Emma, Kindred.")\n    apis.supervisor.complete_task()`,
  },
  {
    id: "5d0c8ab_1",
    difficulty: 3,
    instruction: 'Text "Dinner at 7?" to each of my phone contacts saved as "family".',
    body: `${login}\n${contacts("family")}\n    for contact in contacts:\n        apis.phone.send_text_message(access_token=token, phone_number=contact["phone_number"], message="Dinner at 7?")\n    apis.supervisor.complete_task()`,
  },
  {
    id: "5d0c8ab_2",
    difficulty: 3,
    instruction: 'Text "See you Sunday." to each of my phone contacts saved as "friend".',
    body: `${login}\n${contacts("friend")}\n    for contact in contacts:\n        apis.phone.send_text_message(access_token=token, phone_number=contact["phone_number"], message="See you Sunday.")\n    apis.supervisor.complete_task()`,
  },
];

async function run(taskId, code) {
  const { database: start } = seedWorld(taskId);
  const database = cloneDatabase(start);
  const session = newSession();
  const shell = new PythonShell({ callApi: (app, api, args) => callApi(database, session, app, api, args) });
  await shell.start();
  const output = await shell.execute(`requester = None\n${code}`);
  await shell.close();
  return { start, output, answer: session.answer, diff: diffDatabases(start, database) };
}

for (const task of tasks) {
  const solution = `def solution(apis, requester):\n${task.body}\n`;
  const { start, output, answer, diff } = await run(task.id, `${solution}\nsolution(apis, requester)`);
  if (output.startsWith("Execution failed")) throw new Error(`${task.id}: ${output}`);
  const directory = join(root, "data", "tasks", task.id);
  await mkdir(join(directory, "ground_truth"), { recursive: true });
  const supervisor = start.people[0];
  const specs = { instruction: task.instruction, supervisor, datetime: worldDatetime, db_version: "0.1.0" };
  await writeFile(join(directory, "specs.json"), `${JSON.stringify(specs, null, 2)}\n`);
  await writeFile(
    join(directory, "ground_truth", "metadata.json"),
    `${JSON.stringify({ difficulty: task.difficulty, mode: "full" }, null, 2)}\n`,
  );
  await writeFile(join(directory, "ground_truth", "answer.json"), `${JSON.stringify(answer ?? null)}\n`);
  await writeFile(join(directory, "ground_truth", "solution.py"), solution);
  console.log(task.id, "answer", answer, "changed", Object.keys(diff).join(","));
}
await mkdir(join(root, "data", "datasets"), { recursive: true });
const ids = tasks.map((task) => task.id);
await writeFile(
  join(root, "data", "datasets", "fixture.txt"),
  `${ids.slice(0, -1).join("\n")}\n${ids.at(-1)}:challenge\n`,
);
