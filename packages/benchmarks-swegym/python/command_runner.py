"""The command runner of one SWE-Gym workspace sandbox, started as pid 1 of the sandbox's pid namespace.

It runs one command at a time, each in its own session and process group with its own argv,
environment, working directory, stdin, time limit and output cap. When the command ends (or is cut)
every other process of the sandbox is killed and /tmp, /dev/shm and System V IPC are emptied, so each
command starts as it would in a fresh sandbox. As pid 1 it receives no signal from inside the sandbox
that it has no handler for, so a command cannot kill it.

Requests are JSON lines on stdin: {"id", "argv", "env", "cwd", "input", "timeLimitMs", "maxOutputBytes"}
runs a command, {"kill": id} cuts it. Replies are frames on stdout: one byte kind (R ready, O stdout, E
stderr, X exit), the command id (4 bytes, big-endian), the payload length (4 bytes), the payload; an exit
frame's payload is JSON {"returncode", "timedOut", "outputLimited", "killed"}.
"""

import ctypes
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import threading
import time

CHUNK = 65536


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def frame(kind, ident, payload=b""):
    write_all(1, kind + struct.pack(">II", ident, len(payload)) + payload)


class Requests:
    """JSON lines read from stdin; a kill request seen while a command runs is kept for it."""

    def __init__(self):
        self.buffer = b""
        self.closed = False

    def read_available(self):
        data = os.read(0, CHUNK)
        if not data:
            self.closed = True
        self.buffer += data

    def take(self):
        if b"\n" not in self.buffer:
            return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def next_blocking(self):
        while True:
            request = self.take()
            if request is not None or self.closed:
                return request
            self.read_available()


def reap(exited):
    """Collects every exited child's status (orphans of the sandbox come to pid 1)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        exited[pid] = status


def sweep(exited):
    """Kills every process of the sandbox but this one and waits until all are gone."""
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if not reap(exited):
            return
        time.sleep(0.001)


def mount_points():
    """Every mount point of the sandbox (the workspace is bound inside /tmp when it lies there)."""
    points = set()
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            point = line.split(" ")[4]
            points.add(re.sub(r"\\([0-7]{3})", lambda match: chr(int(match.group(1), 8)), point))
    return points


def empty(directory, mounts):
    """Removes what is in `directory`, never a mount point or what is under one."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        if path in mounts:
            continue
        if any(point.startswith(path + "/") for point in mounts):
            empty(path, mounts)
        elif os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def clear_ipc():
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as listing:
                if len(listing.readlines()) > 1:
                    subprocess.run(["ipcrm", "--all"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    return
        except OSError:
            pass


KEYCTL = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine)


def in_own_user_namespace():
    with open("/proc/self/uid_map") as mapping:
        return mapping.read().split() != ["0", "0", "4294967295"]


def clear_user_keyrings(libc):
    """Unlinks every key a command added to the user keyrings, which the next command would see (they
    belong to the sandbox's user namespace, so a fresh sandbox has them empty); never the host's."""
    KEYCTL_CLEAR = 7
    for keyring in (-4, -5):  # KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING
        libc.syscall(KEYCTL, KEYCTL_CLEAR, keyring)


def feed(fd, data):
    try:
        write_all(fd, data)
    except OSError:
        pass
    finally:
        os.close(fd)


def exit_code(status):
    if status is None:
        return None
    code = os.waitstatus_to_exitcode(status)
    # what bubblewrap itself returns for a command killed by a signal
    return 128 - code if code < 0 else code


class Command:
    """One running command: its pipes, limits and what happened to it."""

    def __init__(self, request, wakeup):
        self.ident = request["id"]
        self.deadline = time.monotonic() + request["timeLimitMs"] / 1000
        self.room = request["maxOutputBytes"]
        self.wakeup = wakeup
        self.exited = {}
        self.status = None
        self.cut = False
        self.flags = {"timedOut": False, "outputLimited": False, "killed": False}
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        in_read, in_write = os.pipe()
        try:
            self.child = subprocess.Popen(
                request["argv"],
                stdin=in_read,
                stdout=out_write,
                stderr=err_write,
                cwd=request["cwd"],
                env=request["env"],
                start_new_session=True,
            )
        finally:
            for fd in (in_read, out_write, err_write):
                os.close(fd)
        self.streams = {out_read: b"O", err_read: b"E"}
        threading.Thread(target=feed, args=(in_write, request["input"].encode()), daemon=True).start()

    def stop(self, reason):
        if reason is not None:
            self.flags[reason] = True
        if not self.cut:
            self.cut = True
            sweep(self.exited)

    def forward(self, fd):
        data = os.read(fd, CHUNK)
        if not data:
            os.close(fd)
            del self.streams[fd]
            return
        if self.flags["outputLimited"]:
            return
        frame(self.streams[fd], self.ident, data[: self.room])
        if len(data) > self.room:
            self.stop("outputLimited")
        self.room -= min(len(data), self.room)

    def on_request(self, requests):
        requests.read_available()
        while (request := requests.take()) is not None:
            if request.get("kill") == self.ident:
                self.stop("killed")
        if requests.closed:
            self.stop("killed")

    def step(self, requests):
        if self.status is None:
            reap(self.exited)
            self.status = self.exited.get(self.child.pid)
            if self.status is not None:
                self.stop(None)
        if self.status is not None and not self.streams:
            return
        remaining = self.deadline - time.monotonic()
        if self.status is None and remaining <= 0:
            self.stop("timedOut")
            return
        watched = list(self.streams) + [self.wakeup] + ([] if requests.closed else [0])
        timeout = None if self.cut else max(0.0, remaining)
        for fd in select.select(watched, [], [], timeout)[0]:
            if fd == self.wakeup:
                os.read(self.wakeup, CHUNK)
            elif fd == 0:
                self.on_request(requests)
            elif fd in self.streams:
                self.forward(fd)

    def run(self, requests):
        while self.streams or self.status is None:
            self.step(requests)
            if self.cut and self.status is None:
                self.status = self.exited.get(self.child.pid)
        cut = self.flags["timedOut"] or self.flags["outputLimited"] or self.flags["killed"]
        reply = {"returncode": None if cut else exit_code(self.status), **self.flags}
        frame(b"X", self.ident, json.dumps(reply).encode())


def run_one(request, requests, wakeup, mounts, libc):
    try:
        command = Command(request, wakeup)
    except OSError as error:
        frame(b"E", request["id"], f"{error}\n".encode())
        frame(b"X", request["id"], json.dumps({"returncode": 127}).encode())
        return
    command.run(requests)
    for directory in ("/tmp", "/dev/shm"):
        empty(directory, mounts)
    clear_ipc()
    if libc is not None:
        clear_user_keyrings(libc)


def not_dumpable(libc):
    """No command may trace this process or open its /proc files (its pipes, memory, environment): the
    kernel allows both to a process of the same uid only while the target is dumpable, and bubblewrap
    has dropped every capability that would allow them otherwise. Commands start dumpable again (exec)."""
    PR_SET_DUMPABLE = 4
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")


def main():
    libc = ctypes.CDLL(None, use_errno=True)
    not_dumpable(libc)
    wakeup, wakeup_write = os.pipe()
    os.set_blocking(wakeup, False)
    os.set_blocking(wakeup_write, False)
    signal.set_wakeup_fd(wakeup_write)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    # Python's own SIGINT handler would let a command's `kill -INT 1` end the runner (KeyboardInterrupt);
    # a handler, unlike SIG_IGN, is not inherited by the commands
    signal.signal(signal.SIGINT, lambda number, frame: None)
    requests = Requests()
    mounts = mount_points()
    keyrings = libc if KEYCTL is not None and in_own_user_namespace() else None
    frame(b"R", 0)
    while True:
        request = requests.next_blocking()
        if request is None:
            sweep({})
            return
        if "argv" in request:
            run_one(request, requests, wakeup, mounts, keyrings)


main()
