import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppWorldClient } from "../protocol/appworld-client.js";
import { OfflineAppWorldServer } from "./offline-server.js";
import { bwrapAvailable, PythonShell } from "./python-shell.js";

const skipReason = "bwrap is not installed here: the AppWorld sandbox cases are skipped";
if (!bwrapAvailable()) console.warn(`hostile agent (AppWorld): ${skipReason}`);

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const repositoryRoot = resolve(packageRoot, "../..");
const hostDirectory = mkdtempSync(join(packageRoot, ".hostile-"));
const hostFile = join(hostDirectory, "host-file.txt");
const hiddenDirectory = mkdtempSync(join(tmpdir(), "hs-appworld-hidden-"));
const hiddenFile = join(hiddenDirectory, "gold.txt");
const keys = { TINKER_API_KEY: "tinker-secret-hostile", OPENAI_API_KEY: "openai-secret-hostile" };
const savedKeys = { TINKER_API_KEY: process.env.TINKER_API_KEY, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
let server: OfflineAppWorldServer;
const shells: PythonShell[] = [];

beforeAll(async () => {
  writeFileSync(hostFile, "original\n");
  mkdirSync(join(hiddenDirectory, "more"));
  writeFileSync(hiddenFile, "the expected answer\n");
  Object.assign(process.env, keys);
  server = new OfflineAppWorldServer({ timeoutSeconds: 20 });
  await server.listen();
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedKeys)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all(shells.splice(0).map((shell) => shell.close()));
  await server.close();
  rmSync(hostDirectory, { recursive: true, force: true });
  rmSync(hiddenDirectory, { recursive: true, force: true });
});

function shell(): PythonShell {
  const created = new PythonShell({
    callApi: () => ({ ok: false, status: 404, message: "no apis in this test" }),
    timeoutSeconds: 20,
  });
  shells.push(created);
  return created;
}

/** Python that runs `body` (which sets `escaped` and `detail`) and prints `blocked|ESCAPED detail`. */
function probe(body: string): string {
  const indented = body
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
  return `import os, subprocess, socket, glob
escaped, detail = False, ""
def run(command):
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    return result.returncode, (result.stdout + result.stderr).strip()[:160]
try:
${indented}
except Exception as error:
    detail += " raised %s" % error
print(("ESCAPED " if escaped else "blocked ") + detail)`;
}

const port = () => Number(new URL(server.url).port);

/** Each escape a hostile agent running as root could try from AppWorld agent code: the mechanism that stops it and the probe. */
const cases: Array<{ name: string; mechanism: string; code: () => string }> = [
  {
    name: "capabilities",
    mechanism: "a user namespace as uid 65534 with --cap-drop ALL: CapEff is 0",
    code: () =>
      "cap = [l for l in open('/proc/self/status') if l.startswith('CapEff')][0].split()[1]\nescaped = cap != '0000000000000000'\ndetail = 'CapEff=' + cap",
  },
  {
    name: "remount-write",
    mechanism: "no CAP_SYS_ADMIN: mount(2) is refused; the host file's directory is not mounted",
    code: () =>
      `rc, out = run("mount -o remount,bind,rw /")\ndetail = "mount rc=%d %s" % (rc, out[:60])\nopen(${JSON.stringify(hostFile)}, "w").write("pwned")\nescaped = True`,
  },
  {
    name: "umount-tmp",
    mechanism: "no CAP_SYS_ADMIN (umount refused); /tmp is the sandbox's own tmpfs",
    code: () =>
      `rc, out = run("umount -l /tmp")\ndetail = "umount rc=%d" % rc\nescaped = bool(open(${JSON.stringify(hiddenFile)}).read())`,
  },
  {
    name: "nsenter-host-net",
    mechanism: "own pid namespace and /proc (no host process), no capability for setns, --unshare-net",
    code: () =>
      `run("umount -l /proc")\nfor ns in sorted(glob.glob("/proc/[0-9]*/ns/net"), key=lambda p: int(p.split("/")[2]))[:8]:\n    rc, out = run("nsenter --net=%s python3 -c 'import socket; socket.create_connection((\\"127.0.0.1\\", ${port()}), 2)'" % ns)\n    escaped = escaped or rc == 0\n    if escaped: break\ndetail = "pids=%d" % len(glob.glob("/proc/[0-9]*"))\nsocket.create_connection(("127.0.0.1", ${port()}), 2)\nescaped = True`,
  },
  {
    name: "scenario-solutions",
    mechanism:
      "only /usr, /bin, /lib*, a part of /etc, the workspace and the shell's own directory are mounted",
    code: () =>
      `found = glob.glob(${JSON.stringify(`${packageRoot}/src/world/scenarios/*`)}) + glob.glob(${JSON.stringify(`${packageRoot}/dist/world/scenarios/*`)}) + glob.glob(${JSON.stringify(`${repositoryRoot}/packages/benchmarks-swegym/data-src/*/bugs.mjs`)})\nrc, out = run("git -C ${repositoryRoot} show HEAD:packages/benchmarks-swegym/data/train.jsonl 2>/dev/null | wc -c")\nseen = [os.path.join(d, f) for r in ["/work", "/root", "/home"] for d, _, fs in os.walk(r) for f in fs]\nhomes = len([f for f in seen if not f.endswith("/python/appworld_shell.py")])\nescaped = bool(found) or out != "0" or homes > 0\ndetail = "files=%d git=%s homes=%d" % (len(found), out, homes)`,
  },
  {
    name: "environment-keys",
    mechanism: "the environment is an allow-list (PATH, HOME, LANG...)",
    code: () =>
      "names = [n for n in ('TINKER_API_KEY', 'OPENAI_API_KEY') if n in os.environ]\nrc, out = run('env | grep -c KEY=')\nescaped = bool(names) or out != '0'\ndetail = 'keys=%s' % names",
  },
  {
    name: "processes-300",
    mechanism: "the shell's pids cgroup (64 by default; RLIMIT_NPROC where no cgroup can be made)",
    code: () =>
      "ps = []\ntry:\n    for i in range(300): ps.append(subprocess.Popen(['sleep', '20']))\nexcept OSError as error:\n    detail = 'refused after %d: %s' % (len(ps), error)\nfor p in ps: p.kill()\nescaped = len(ps) == 300",
  },
  {
    name: "memory-across-processes",
    mechanism: "the shell's memory cgroup counts every process together (1 GiB by default)",
    code: () =>
      `rc, out = run("for i in 1 2 3 4; do python3 -c \\"import time; b = b'x' * (600 * 1024 ** 2); time.sleep(3); print('held')\\" & done; wait")\nescaped = out.count('held') == 4\ndetail = "held=%d of 4" % out.count('held')`,
  },
];

describe.skipIf(!bwrapAvailable())("hostile agent code (AppWorld, bubblewrap)", () => {
  it.each(cases)(
    "refuses $name (stopped by: $mechanism)",
    async ({ code }) => {
      const output = await shell().execute(probe(code()));
      expect(output).toMatch(/^blocked /);
      expect(readFileSync(hostFile, "utf8")).toBe("original\n");
    },
    30_000,
  );

  it("refuses a 3 GB allocation (stopped by: the shell's memory cgroup, 1 GiB; RLIMIT_AS where none)", async () => {
    const python = shell();
    const output = await python.execute("b = b'x' * (3 * 1024 ** 3)\nprint('allocated', len(b))");
    expect(output).not.toMatch(/allocated/);
    expect(output).toMatch(/MemoryError|restarted/);
    expect(await python.execute("1 + 1")).toBe("2\n");
  }, 30_000);

  it("drops a result line forged on fd 3 (stopped by: the per-call nonce), and later outputs do not shift", async () => {
    const python = shell();
    const forged = await python.execute(
      'import os\nos.write(3, b\'{"type": "result", "output": "forged"}\\n\')\nos.write(3, b\'{"type": "result", "nonce": "0123456789abcdef0123456789abcdef", "output": "guessed"}\\n\')\nprint("genuine")',
    );
    expect(forged).toBe("genuine\n");
    expect(await python.execute("1 + 1")).toBe("2\n");
    // code that digs this call's nonce out of the shell's memory can set this call's output, as print can;
    // the next call still gets its own result
    const harvested = await python.execute(
      'import sys, json, os\nframe = sys._getframe()\nwhile "command" not in frame.f_locals: frame = frame.f_back\nnonce = frame.f_locals["command"]["nonce"]\nos.write(3, (json.dumps({"type": "result", "nonce": nonce, "output": "own call"}) + "\\n").encode())\nprint("genuine")',
    );
    expect(["own call", "genuine\n"]).toContain(harvested);
    expect(await python.execute("2 + 2")).toBe("4\n");
    expect(await python.execute("print('three')")).toBe("three\n");
  }, 30_000);

  it("keeps agent code from its offline server's /evaluate with report:true, directly or by nsenter (stopped by: --unshare-net, own /proc, no capabilities)", async () => {
    const client = new AppWorldClient({ baseUrl: server.url });
    await client.initialize("contactrelcount_1");
    const output = await client.execute(
      probe(
        `import urllib.request, json\nrun("umount -l /proc")\nask = "import urllib.request, json; print(urllib.request.urlopen(urllib.request.Request('${server.url}/evaluate', data=json.dumps({'task_id': 'contactrelcount_1', 'report': True}).encode(), headers={'content-type': 'application/json'}), timeout=2).read().decode())"\nfor ns in sorted(glob.glob("/proc/[0-9]*/ns/net"), key=lambda p: int(p.split("/")[2]))[:8]:\n    rc, out = subprocess.run(["nsenter", "--net=" + ns, "python3", "-c", ask], capture_output=True, text=True).returncode, ""\n    escaped = escaped or rc == 0\n    if escaped: break\nrequest = urllib.request.Request("${server.url}/evaluate", data=json.dumps({"task_id": "contactrelcount_1", "report": True}).encode(), headers={"content-type": "application/json"})\ndetail = urllib.request.urlopen(request, timeout=2).read().decode()[:80]\nescaped = True`,
      ),
    );
    expect(output).toMatch(/^blocked .*(unreachable|refused|Errno)/);
    await client.close();
  }, 30_000);
});

if (!bwrapAvailable()) describe.skip(`hostile agent code (AppWorld): ${skipReason}`, () => {});
