import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppWorldClient } from "../protocol/appworld-client.js";
import { OfflineAppWorldServer } from "./offline-server.js";

let server: OfflineAppWorldServer;
let logs: string;
beforeAll(async () => {
  logs = await mkdtemp(join(tmpdir(), "appworld-logs-"));
  server = new OfflineAppWorldServer({ logsDirectory: logs, timeoutSeconds: 2 });
  await server.listen();
});
afterAll(async () => {
  await server.close();
});

describe("the offline world over AppWorld's protocol", () => {
  it("serves api docs, task descriptions, an episode and its logs through the same client", async () => {
    const client = new AppWorldClient({ baseUrl: server.url });
    const docs = await client.apiDocs();
    expect(Object.keys(docs)).toEqual(
      expect.arrayContaining(["supervisor", "music", "payments", "email", "notes", "todo", "phone", "files"]),
    );
    expect(String(docs.notes?.login?.response_schemas.success)).toMatch(/^```json\n/);
    const info = await client.initialize("contactrelcount_1", { experiment_name: "protocol-test" });
    expect((await client.getTask("contactrelcount_1")).instruction).toBe(info.instruction);
    expect(await client.execute("print(apis.api_docs.show_api_descriptions(app_name='supervisor'))")).toMatch(
      /\{'name': 'complete_task', 'description': 'Mark the active task as complete/,
    );
    expect(await client.taskCompleted()).toBe(false);
    expect(await client.execute("x = apis.supervisor.complete_task(answer=0)")).toBe("Execution successful.");
    expect(await client.taskCompleted()).toBe(true);
    expect(await client.evaluationReport()).toMatch(/Num Total {2}Tests : 2/);
    const file = await client.saveLogs();
    expect(JSON.parse(await readFile(String(file), "utf8"))).toMatchObject({
      task_id: "contactrelcount_1",
      steps: [{ output: expect.stringContaining("complete_task") }, {}],
    });
    await client.close();
  }, 30_000);

  it("answers an unknown task with 404 and another task id with 400, as AppWorld's server does", async () => {
    const client = new AppWorldClient({ baseUrl: server.url, retries: 0 });
    await expect(client.initialize("nosuch_1")).rejects.toThrow(
      /answered 404: "there is no task \\"nosuch_1\\"/,
    );
    await client.initialize("notestagdelete_1");
    const other = new AppWorldClient({ baseUrl: server.url, retries: 0 });
    await other.initialize("notestagdelete_2");
    await expect(client.execute("1")).rejects.toThrow(/400: "The active task world is notestagdelete_2/);
    await other.close();
  }, 30_000);
});
