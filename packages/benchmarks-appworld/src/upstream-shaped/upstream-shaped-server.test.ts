import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppWorldClient } from "../protocol/appworld-client.js";
import { UpstreamShapedServer } from "./upstream-shaped-server.js";

const root = fileURLToPath(new URL("./__fixtures__/appworld-root", import.meta.url));
let server: UpstreamShapedServer;
beforeAll(async () => {
  server = new UpstreamShapedServer({ root });
  await server.listen();
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body?: unknown): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

describe("the upstream-shaped AppWorld server", () => {
  it("answers GET /api_docs with the bare object and the other routes inside output", async () => {
    const docs = (await (await fetch(`${server.url}/api_docs`)).json()) as Record<string, unknown>;
    expect(docs).not.toHaveProperty("output");
    expect(Object.keys(docs)).toContain("notes");
    const task = (await (await fetch(`${server.url}/tasks/e93fa60_1`)).json()) as {
      output: { task_id: string };
    };
    expect(task.output.task_id).toBe("e93fa60_1");
  });

  it("gives FastAPI's 400 detail, 422 detail list and plain-text 500", async () => {
    await post("/close_all");
    expect(await post("/execute", { task_id: "e93fa60_1", code: "1" })).toMatchObject({
      status: 400,
      text: JSON.stringify({ detail: "AppWorld has not been initialized." }),
    });
    const invalid = await post("/initialize", { experiment_name: "x" });
    expect(invalid.status).toBe(422);
    expect(JSON.parse(invalid.text).detail).toEqual([
      { type: "missing", loc: ["body", "task_id"], msg: "Field required", input: null },
    ]);
    expect(await post("/initialize", { task_id: "nosuch_1" })).toMatchObject({
      status: 500,
      type: expect.stringMatching(/^text\/plain/),
      text: "Internal Server Error",
    });
  });

  it("reaches the client as a 422 naming the field, not retried, and a plain-text 500 with its status", async () => {
    const client = new AppWorldClient({ baseUrl: server.url, retries: 2, retryDelayMs: 5 });
    const invalid = await client
      .initialize("b7c41d2_1", { max_interactions: "many" as unknown as number })
      .catch((error: unknown) => error);
    expect(String(invalid)).toMatch(/answered 422: body\.max_interactions: Input should be a valid integer/);
    expect(invalid).toMatchObject({ status: 422, isRetryable: false });
    const before = server.initializations.length;
    const unknown = await client.initialize("nosuch_2").catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 500, isRetryable: true });
    expect(String(unknown)).toMatch(/answered 500: Internal Server Error/);
    expect(server.initializations.length - before).toBe(3);
  });

  it("runs a world: show_api_descriptions records, save_state and load_state, evaluate, evaluate_all", async () => {
    const client = new AppWorldClient({ baseUrl: server.url, retries: 0 });
    await client.initialize("e93fa60_1", { experiment_name: "shapes" });
    expect(await client.execute("print(apis.api_docs.show_api_descriptions(app_name='notes')[0])")).toMatch(
      /^\{'name': 'login', 'description': /,
    );
    expect(await client.saveState("before")).toBe("before");
    const solve =
      "me = apis.supervisor.show_profile()\n" +
      "p = {a['account_name']: a['password'] for a in apis.supervisor.show_account_passwords()}\n" +
      "t = apis.notes.login(username=me['email'], password=p['notes'])['access_token']\n" +
      "_ = apis.notes.create_note(access_token=t, title='Garden plan', content='Plant tomatoes in May.')";
    expect(await client.execute(solve)).toBe("Execution successful.");
    expect((await client.evaluate()).success).toBe(true);
    await client.loadState("before");
    expect((await client.evaluate()).success).toBe(false);
    await client.execute(solve);
    await expect(client.evaluateAll(["e93fa60_1"], "shapes")).rejects.toThrow(
      /answered 500: Internal Server Error/,
    );
    await client.close();
    const all = await client.evaluateAll(["e93fa60_1"], "shapes");
    expect(all.aggregate).toEqual({ task_goal_completion: 100, scenario_goal_completion: 100 });
    expect(all.individual.e93fa60_1).toMatchObject({ success: true, difficulty: 2 });
  }, 60_000);

  it("replaces the code past max_interactions with AppWorld's error, and empty code with its message", async () => {
    const client = new AppWorldClient({ baseUrl: server.url, retries: 0 });
    await client.initialize("b7c41d2_1", { max_interactions: 1, timeout_seconds: 5 });
    expect(await client.execute("   ")).toBe("No code available to execute.");
    expect(await client.execute("print(1)")).toBe("1\n");
    expect(await client.execute("print(2)")).toMatch(/Maximum number of executions \(1\) reached/);
    await client.close();
  }, 30_000);
});
