"""A persistent Python shell for one episode of the offline AppWorld world (Harness-S).

Commands arrive as JSON lines on file descriptor 3 and answers leave on it. Agent code runs in one
globals dictionary kept between `execute` commands (as AppWorld's shell keeps variables); its `apis`
object reaches the world only through this channel: each call is a JSON line to the parent, which
runs the API against the episode's database and answers with the result.
"""

import ast
import io
import json
import os
import resource
import signal
import sys
import traceback

CHANNEL_IN = os.fdopen(3, "r", encoding="utf-8", buffering=1)
CHANNEL_OUT = os.fdopen(os.dup(3), "w", encoding="utf-8", buffering=1)
CALL_COUNTER = [0]


class ExecutionTimeout(BaseException):
    """Raised by the timer inside agent code; a BaseException so `except Exception` does not swallow it."""


class LimitedWriter(io.TextIOBase):
    """Keeps the first `limit` characters written and counts the rest."""

    def __init__(self, limit):
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.dropped = 0

    def write(self, text):
        text = str(text)
        room = self.limit - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def text(self):
        shown = "".join(self.parts)
        if self.dropped:
            shown += "\n[output truncated: %d more characters not shown]" % self.dropped
        return shown


def send(message):
    CHANNEL_OUT.write(json.dumps(message) + "\n")
    CHANNEL_OUT.flush()


def request_api(app, api, arguments):
    CALL_COUNTER[0] += 1
    call_id = CALL_COUNTER[0]
    try:
        json.dumps(arguments)
    except (TypeError, ValueError) as error:
        raise TypeError("API arguments must be JSON values (str, int, float, bool, None, list, dict): %s" % error)
    send({"type": "api", "id": call_id, "app": app, "api": api, "arguments": arguments})
    while True:
        line = CHANNEL_IN.readline()
        if not line:
            raise SystemExit(0)
        reply = json.loads(line)
        if reply.get("type") == "api_result" and reply.get("id") == call_id:
            break
    if reply["ok"]:
        return reply["response"]
    raise Exception("Response status code is %d:\n%s" % (reply["status"], json.dumps({"message": reply["message"]})))


class AppApis:
    def __init__(self, app):
        self._app = app

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        app = self._app

        def call(*args, **kwargs):
            if args:
                raise TypeError("%s.%s takes keyword arguments only, e.g. apis.%s.%s(name=value)" % (app, name, app, name))
            return request_api(app, name, kwargs)

        call.__name__ = name
        return call


class Apis:
    def __getattr__(self, app):
        if app.startswith("_"):
            raise AttributeError(app)
        return AppApis(app)


def on_timer(signum, frame):
    raise ExecutionTimeout()


def failure_text(error):
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == "<cell>"]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
    return "Execution failed. Traceback:\n" + "".join(lines).rstrip("\n")


def run_cell(code, namespace):
    tree = ast.parse(code, filename="<cell>", mode="exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is not None:
        value = eval(compile(last, "<cell>", "eval"), namespace)
        if value is not None:
            print(repr(value))


def execute(command, namespace):
    writer = LimitedWriter(int(command.get("max_output_chars", 50000)))
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = writer
    timeout = float(command.get("timeout_seconds", 10))
    failure = None
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        run_cell(command["code"], namespace)
    except ExecutionTimeout:
        failure = "Execution failed. Traceback:\nTimeoutError: the code ran longer than %g seconds and was stopped." % timeout
    except SystemExit as error:
        failure = "Execution failed. Traceback:\nSystemExit: %s (exiting the shell is not allowed)" % error.code
    except BaseException as error:
        failure = failure_text(error)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = saved
    output = writer.text()
    if failure is not None:
        return (output + "\n" if output else "") + failure
    return output if output.strip() else "Execution successful."


def main():
    # rlimits only where the parent could not make a cgroup for the shell (it then passes these)
    memory = os.environ.pop("APPWORLD_SHELL_MEMORY_BYTES", None)
    if memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
    processes = os.environ.pop("APPWORLD_SHELL_MAX_PROCESSES", None)
    if processes is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (int(processes), int(processes)))
    signal.signal(signal.SIGALRM, on_timer)
    namespace = {"__name__": "__main__", "apis": Apis()}
    send({"type": "ready"})
    for line in CHANNEL_IN:
        command = json.loads(line)
        if command.get("type") == "execute":
            try:
                output = execute(command, namespace)
            except ExecutionTimeout:
                output = "Execution failed. Traceback:\nTimeoutError: the code ran too long and was stopped."
            send({"type": "result", "nonce": command.get("nonce"), "output": output})


if __name__ == "__main__":
    main()
