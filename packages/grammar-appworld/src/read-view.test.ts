import { renderHarnessCall } from "@hs/harness";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { episode } from "./__fixtures__/episode-views.js";
import { readView } from "./read-view.js";

describe("readView", () => {
  it("reads the task, the supervisor and what each cell of a real react episode showed", () => {
    const view = episode("contactrelcount_1").views.at(-1) as PolicyView;
    const read = readView(view);
    expect(read.format).toBe("python-block");
    expect(read.instruction).toBe('How many of my phone contacts are saved as "family"?');
    expect(read.supervisor.email).toMatch(/^[a-z]+\.[a-z]+@/);
    expect(read.supervisor.phone).toMatch(/^\d{7,}$/);
    expect(read.apps).toContain("phone");
    expect(read.apisByApp.get("phone")?.map((api) => api.name)).toContain("show_contacts");
    expect(read.docs.get("phone.show_contacts")?.parameters.map((parameter) => parameter.name)).toContain(
      "relationship",
    );
    expect(read.passwords.get("phone")).toMatch(/^\w+$/);
    expect(read.tokens.get("phone")).toBe("phone_token");
    const list = read.lists.get("phone_show_contacts");
    expect(list?.items.length).toBeGreaterThan(0);
    expect(list?.items[0]).toHaveProperty("contact_id");
  });

  it("does not take the worked example's task for the real one", () => {
    const view = episode("todoadd_1").views[0] as PolicyView;
    const read = readView(view);
    expect(read.instruction).toMatch(/^Add a task "/);
    expect(read.cells).toEqual([]);
  });

  it("reads verl-agent's <think>/<code> format and its code cells", () => {
    const view = episode("notestagdelete_1").views[3] as PolicyView;
    const read = readView(view);
    expect(read.format).toBe("think-code");
    expect(read.cells.length).toBe(3);
    expect(read.cells[0]?.code).toBe("print(apis.api_docs.show_app_descriptions())");
  });

  it("reads a failed cell as failed and keeps nothing from it", () => {
    const view: PolicyView = {
      actionFormat: "text",
      tools: [],
      messages: [
        {
          role: "user",
          content: "My name is: A B. My personal email is a@b.c and phone number is 555.\nTask: Do it.",
        },
        {
          role: "assistant",
          content: "```python\nx_token = apis.notes.login(username='a', password='b')['access_token']\n```",
        },
        {
          role: "user",
          content:
            'Execution failed. Traceback:\nException: Response status code is 401:\n{"message": "Invalid credentials."}',
        },
      ],
    };
    const read = readView(view);
    expect(read.cells[0]?.failed).toBe(true);
    expect(read.tokens.size).toBe(0);
  });

  it("reads show_api_descriptions as AppWorld returns it: a list of {name, description} records", () => {
    const view: PolicyView = {
      actionFormat: "text",
      tools: [],
      messages: [
        {
          role: "user",
          content: "My name is: A B. My personal email is a@b.c and phone number is 555.\nTask: Do it.",
        },
        {
          role: "assistant",
          content: "```python\nprint(apis.api_docs.show_api_descriptions(app_name='notes'))\n```",
        },
        {
          role: "user",
          content:
            "[{'name': 'login', 'description': 'Log in to your account.'}, {'name': 'show_notes', 'description': 'List your notes.'}]",
        },
      ],
    };
    expect(readView(view).apisByApp.get("notes")).toEqual([
      { name: "login", description: "Log in to your account." },
      { name: "show_notes", description: "List your notes." },
    ]);
  });

  it("reads tokens from a harness login loop, a list the harness paged, and the instruction without hints", () => {
    const first = episode("contactrelcount_1").views[0] as PolicyView;
    const task = first.messages.at(-1);
    if (task === undefined) throw new Error("no task message");
    const loop = "for _account in apis.supervisor.show_account_passwords():\n    ...";
    const pages =
      "phone_show_contacts = []\npage_index = 0\nwhile True:\n    page = apis.phone.show_contacts(access_token=phone_token, page_index=page_index, page_limit=20)\n    if not page:\n        break\n    phone_show_contacts.extend(page)\n    page_index += 1\nprint(len(phone_show_contacts), 'items')\nprint(phone_show_contacts)";
    const view: PolicyView = {
      ...first,
      messages: [
        ...first.messages.slice(0, -1),
        { ...task, content: `${task.content}\n\nHints:\n- List APIs return one page at a time.` },
        {
          role: "user",
          content: `Before you start, the harness logged in to each app:\n\n${renderHarnessCall("execute", { code: loop }, "logged in to phone: the access token is in phone_token\nlogged in to notes: the access token is in notes_token")}`,
        },
        {
          role: "assistant",
          content:
            "I page the contacts.\n```python\nprint(apis.phone.show_contacts(access_token=phone_token, relationship='Family', page_index=0))\n```",
        },
        {
          role: "user",
          content: `[]\n\nNo items with those filters. The harness paged it unfiltered:\n\n${renderHarnessCall("execute", { code: pages }, "2 items\n[{'contact_id': 1, 'relationship': 'family'}, {'contact_id': 2, 'relationship': 'friend'}]")}`,
        },
      ],
    };
    const read = readView(view);
    expect(read.instruction).toBe('How many of my phone contacts are saved as "family"?');
    expect(read.tokens.get("phone")).toBe("phone_token");
    expect(read.tokens.get("notes")).toBe("notes_token");
    expect(read.cells).toHaveLength(1);
    expect(read.lists.get("phone_show_contacts")?.items.map((item) => item.contact_id)).toEqual([1, 2]);
  });
});
