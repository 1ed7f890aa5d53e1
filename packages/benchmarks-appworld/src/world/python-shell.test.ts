import { afterEach, describe, expect, it } from "vitest";
import { PythonShell } from "./python-shell.js";

const shells: PythonShell[] = [];
afterEach(async () => {
  await Promise.all(shells.splice(0).map((shell) => shell.close()));
});

function shell(options: Partial<ConstructorParameters<typeof PythonShell>[0]> = {}) {
  const created = new PythonShell({
    callApi: (app, api, args) =>
      app === "echo"
        ? { ok: true, response: { api, args } }
        : { ok: false, status: 404, message: `No app named "${app}".` },
    timeoutSeconds: 2,
    ...options,
  });
  shells.push(created);
  return created;
}

describe("PythonShell (bubblewrap sandbox)", () => {
  it("keeps variables between calls and shows the last expression", async () => {
    const python = shell();
    expect(python.sandbox).toBe("bwrap");
    expect(await python.execute("x = 41")).toBe("Execution successful.");
    expect(await python.execute("x + 1")).toBe("42\n");
    expect(await python.execute("print('a'); print('b')")).toBe("a\nb\n");
  });

  it("reaches the parent's APIs over the pipe and raises on an API error", async () => {
    const python = shell();
    expect(await python.execute("print(apis.echo.ping(n=3))")).toBe("{'api': 'ping', 'args': {'n': 3}}\n");
    const failed = await python.execute("apis.nowhere.ping()");
    expect(failed).toMatch(
      /^Execution failed\. Traceback:\n[\s\S]*Exception: Response status code is 404:\n\{"message": "No app named \\"nowhere\\"\."\}$/,
    );
    expect(await python.execute("apis.echo.ping(1)")).toMatch(
      /TypeError: echo\.ping takes keyword arguments only/,
    );
  });

  it("stops a loop with a timeout and keeps the variables", async () => {
    const python = shell({ timeoutSeconds: 1 });
    await python.execute("kept = 'yes'");
    expect(await python.execute("while True:\n    pass")).toMatch(
      /TimeoutError: the code ran longer than 1 seconds/,
    );
    expect(await python.execute("kept")).toBe("'yes'\n");
  });

  it("kills and restarts a shell whose code swallows the timeout", async () => {
    const python = shell({ timeoutSeconds: 1 });
    await python.execute("lost = 1");
    const output = await python.execute(
      "import time\nwhile True:\n    try:\n        time.sleep(10)\n    except BaseException:\n        pass",
    );
    expect(output).toMatch(/was restarted; variables defined before are lost/);
    expect(await python.execute("lost")).toMatch(/NameError: name 'lost' is not defined/);
  }, 15_000);

  it("cuts megabytes of output", async () => {
    const output = await shell({ maxOutputChars: 1000 }).execute("print('x' * 5_000_000)");
    expect(output.length).toBeLessThan(1200);
    expect(output).toMatch(/\[output truncated: 4999001 more characters not shown\]$/);
  });

  it("keeps the file system read-only and the network unreachable", async () => {
    const python = shell();
    expect(await python.execute("import os\nos.remove('/usr/bin/env')")).toMatch(
      /OSError: \[Errno 30\] Read-only file system/,
    );
    expect(
      await python.execute(
        "import os\nos.system('rm -rf /usr/lib/python3 2>/dev/null'); print(os.path.exists('/usr/lib/python3'))",
      ),
    ).toMatch(/True/);
    expect(await python.execute("open('mine.txt', 'w').write('ok'); print(open('mine.txt').read())")).toBe(
      "ok\n",
    );
    expect(
      await python.execute("import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=1)"),
    ).toMatch(/Execution failed[\s\S]*(unreachable|OSError)/);
  });
});
