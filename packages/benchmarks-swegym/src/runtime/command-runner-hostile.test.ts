import { arch } from "node:os";
import { detectBubblewrap } from "@hs/harness/sandbox";
import { afterAll, describe, expect, it } from "vitest";
import { otherProcesses, runnerOf, tinyRequest } from "../__fixtures__/runner-workspace.js";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { createLocalRuntime } from "./local-runtime.js";
import { detectIsolation } from "./sandbox.js";

const fixture = createTinyMirror();
afterAll(() => fixture.remove());
const isolation = detectIsolation();
const request = tinyRequest(fixture);
const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, maxProcesses: 32 });
const others = otherProcesses;
// polls (up to 5 s) instead of a fixed 0.1 s: on a loaded machine the sleeper may start later
const waitForSleeper = "for i in $(seq 100); do pgrep -x sleep >/dev/null && break; sleep 0.05; done";

/** Runs `leave` as one command of a fresh workspace, then `check` as the next one, and closes it. */
async function leaveThenCheck(leave: string, check: string) {
  const workspace = await runtime.createWorkspace(request);
  const left = await workspace.run(leave, { timeLimitMs: 10_000 });
  const runner = runnerOf(workspace);
  const checked = await workspace.run(check, { timeLimitMs: 10_000 });
  const sameRunner = runnerOf(workspace) === runner && runner?.alive === true;
  await workspace.close();
  return { left, checked, sameRunner };
}

describe.skipIf(isolation === "none")("a hostile command leaves nothing for the next one", () => {
  it("kills a double-forked sleeper re-parented to the runner", async () => {
    const run = await leaveThenCheck(
      `(sh -c 'sleep 300 &' &); ${waitForSleeper}; pgrep -c sleep`,
      `${others}; echo end`,
    );
    expect(run.left.output).toBe("1\n");
    expect(run.checked.output).toBe("end\n");
    expect(run.sameRunner).toBe(true);
  });

  it("kills a setsid + nohup process that ignores SIGTERM, SIGHUP and SIGINT", async () => {
    const run = await leaveThenCheck(
      `setsid nohup sh -c 'trap "" TERM HUP INT; exec sleep 300' >/dev/null 2>&1 < /dev/null & ${waitForSleeper}; pgrep -c sleep`,
      `${others}; echo end`,
    );
    expect(run.left.output).toBe("1\n");
    expect(run.checked.output).toBe("end\n");
  });

  it("kills a fork loop still forking when the command ends, bounded by the process limit", async () => {
    // the shell itself cannot fork once the limit is reached, so it waits in a process it execs; its
    // stderr is closed first, since a loop may reach the limit before the shell has forked all three
    // (bash then prints "fork: retry" before forking the next)
    const loop = "exec 2>/dev/null; f() { while :; do (sleep 300 &) 2>/dev/null; done; }; f & f & f &";
    const run = await leaveThenCheck(
      `${loop} exec python3 -c "import time; time.sleep(0.5); print('waited')"`,
      `${others}; echo end`,
    );
    expect(run.left).toMatchObject({ output: "waited\n", returncode: 0 });
    expect(run.checked.output).toBe("end\n");
    expect(run.sameRunner).toBe(true);
  }, 20_000);

  it("empties /tmp, /dev/shm and System V IPC left behind", async () => {
    const leave = [
      "mkdir -p /tmp/d/e && touch /tmp/d/e/f /tmp/.hidden /dev/shm/segment",
      `python3 -c "import ctypes; libc = ctypes.CDLL(None); print(libc.shmget(0x1234, 4096, 0o1666) >= 0, libc.msgget(0x1235, 0o1666) >= 0, libc.semget(0x1236, 1, 0o1666) >= 0)"`,
      "tail -n +2 /proc/sysvipc/shm /proc/sysvipc/msg /proc/sysvipc/sem | grep -c '^ *[0-9]'",
    ].join("; ");
    // the episode directory is bound under /tmp when it lies there on the host: it stays
    const check = "ls -A /tmp /dev/shm | grep -v '^hs-swegym-'; tail -qn +2 /proc/sysvipc/*; echo end";
    const run = await leaveThenCheck(leave, check);
    expect(run.left.output).toBe("True True True\n3\n");
    expect(run.checked.output).toBe("/dev/shm:\n\n/tmp:\nend\n");
  });

  // the user keyrings are the sandbox's own only in a user namespace; the syscall numbers are x86-64's
  const ownKeyrings = detectBubblewrap() !== "capabilities-dropped" && arch() === "x64";
  it.skipIf(!ownKeyrings)("empties the user keyrings a command added a key to", async () => {
    const keyctl = (call: string) =>
      `python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True); print(libc.syscall(${call}) > 0, ctypes.get_errno())"`;
    const add = `${keyctl("248, b'user', b'hs-left', b'secret', 6, -4")}; ${keyctl("248, b'user', b'hs-left', b'secret', 6, -5")}`;
    const search = `${keyctl("250, 10, -4, b'user', b'hs-left', 0")}; ${keyctl("250, 10, -5, b'user', b'hs-left', 0")}`;
    const run = await leaveThenCheck(add, search);
    expect(run.left.output).toBe("True 0\nTrue 0\n");
    // ENOKEY (126): not found
    expect(run.checked.output).toBe("False 126\nFalse 126\n");
  });

  it("keeps the runner alive through every signal a command sends it", async () => {
    const signals =
      "HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS KILL";
    const run = await leaveThenCheck(
      `for s in ${signals}; do kill -s $s 1 2>/dev/null; done; sleep 0.2; echo sent`,
      `${others}; echo end`,
    );
    expect(run.left).toMatchObject({ output: "sent\n", returncode: 0 });
    expect(run.checked.output).toBe("end\n");
    expect(run.sameRunner).toBe(true);
  });
});
