import type { EnvironmentV1, Task } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createAppWorld } from "./create-appworld.js";
import { offlineTask } from "./world/offline-tasks.js";

const appworld = createAppWorld({ parallelism: 2, timeoutSeconds: 1, maxOutputChars: 2000 });
afterAll(async () => {
  await appworld.close();
});

async function task(id: string): Promise<Task> {
  const found = (await appworld.loadTasks({ path: await idFile(id) })).tasks[0];
  if (found === undefined) throw new Error(`no task ${id}`);
  return found;
}

async function idFile(id: string): Promise<string> {
  const { writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const file = join(tmpdir(), `appworld-bad-input-${process.pid}-${id}.txt`);
  await writeFile(file, `${id}\n`);
  return file;
}

async function run(environment: EnvironmentV1, code: string) {
  return await environment.step({ id: "x", name: "execute", arguments: { code } });
}

const login =
  "pw = {a['account_name']: a['password'] for a in apis.supervisor.show_account_passwords()}\nme = apis.supervisor.show_profile()\ntoken = apis.notes.login(username=me['email'], password=pw['notes'])['access_token']\n";

describe("bad agent code is an observation, never a crash", () => {
  it("loops, raises, floods output, deletes files, calls unknown APIs, passes wrong types", async () => {
    const environment = await appworld.createEnvironment(await task("notestagdelete_1"), { seed: 0 });
    await environment.reset();
    try {
      const loop = await run(environment, "while True:\n    pass");
      expect(loop).toMatchObject({ isError: true, done: false });
      expect(loop.content).toMatch(/TimeoutError: the code ran longer than 1 seconds/);
      expect((await run(environment, "raise ValueError('boom')")).content).toMatch(/ValueError: boom$/);
      const flood = await run(environment, "print('y' * 3_000_000)");
      expect(flood.content.length).toBeLessThan(2200);
      expect(flood.content).toMatch(/output truncated/);
      const remove = await run(
        environment,
        "import os\nos.system('rm -f /etc/passwd /usr/bin/python3 2>/dev/null')\nos.remove('/etc/passwd')",
      );
      expect(remove.content).toMatch(/Read-only file system/);
      expect((await run(environment, "apis.nosuchapp.anything()")).content).toMatch(
        /404:\n\{"message": "No app named \\"nosuchapp\\"/,
      );
      expect((await run(environment, `${login}apis.notes.fly(access_token=token)`)).content).toMatch(
        /No API named \\"fly\\" in app \\"notes\\"/,
      );
      expect(
        (await run(environment, "apis.notes.show_notes(access_token=token, page_limit='ten')")).content,
      ).toMatch(/422:\n.*Parameter \\"page_limit\\" must be of type integer/);
      expect((await run(environment, "apis.notes.show_notes(access_token=token, colour=3)")).content).toMatch(
        /Unexpected parameter \\"colour\\"/,
      );
      expect((await run(environment, "apis.notes.show_notes(access_token='forged')")).content).toMatch(/401/);
      expect(await environment.step({ id: "y", name: "shell", arguments: { code: "1" } })).toMatchObject({
        isError: true,
        done: false,
      });
      expect(await environment.step({ id: "z", name: "execute", arguments: { code: 42 } })).toMatchObject({
        isError: true,
        content: 'The "code" argument must be a string of Python.',
      });
      expect((await run(environment, "def broken(:\n    pass")).content).toMatch(/SyntaxError/);
      const after = await run(environment, "print(len(apis.notes.show_notes(access_token=token)))");
      expect(after).toMatchObject({ isError: false, done: false });
      expect((await environment.grade()).success).toBe(false);
    } finally {
      await environment.close();
    }
  }, 60_000);

  it("runs two episodes of one task at once without either touching the other's world", async () => {
    const shared = await task("notestagdelete_2");
    const [first, second] = await Promise.all([
      appworld.createEnvironment(shared, { seed: 1 }),
      appworld.createEnvironment(shared, { seed: 2 }),
    ]);
    if (first === undefined || second === undefined) throw new Error("no environments");
    await Promise.all([first.reset(), second.reset()]);
    try {
      const count = `${login}print(len(apis.notes.show_notes(access_token=token, page_limit=20)))`;
      const before = (await run(second, count)).content;
      const wipe = `${login}for n in apis.notes.show_notes(access_token=token, page_limit=20):\n    apis.notes.delete_note(access_token=token, note_id=n['note_id'])\nopen('scratch.txt', 'w').write('mine')`;
      await Promise.all([run(first, wipe), run(second, "import time\ntime.sleep(0.2)")]);
      expect((await run(first, count)).content).toBe("0\n");
      expect((await run(second, count)).content).toBe(before);
      expect((await run(second, "import os\nprint(os.path.exists('scratch.txt'))")).content).toBe("False\n");
      const reference = offlineTask(shared.id)?.solution ?? "";
      expect((await run(second, reference)).done).toBe(true);
      const [firstGrade, secondGrade] = await Promise.all([first.grade(), second.grade()]);
      expect(firstGrade.success).toBe(false);
      expect(secondGrade.success).toBe(true);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);
});
