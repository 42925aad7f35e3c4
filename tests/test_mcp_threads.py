"""`mytool --mcp` and its threads: calls run on the reading thread, and a watchdog takes over
reading stdin while one runs long. These tests drive the hand-overs and the ways they can end:
end of input, Ctrl-C, a stdin that fails, a handler that raises KeyboardInterrupt."""

from __future__ import annotations

import json
import os
import platform
import pty
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import generate
from tests.mcp_tool import HANDLERS
from tests.mcp_wire import INIT, Server, exchange, line

#: Slow: MCP servers under load, timed (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

#: Two handlers that misbehave on purpose, added to the MCP test tool.
EXTRA = """

import threading


@command(effects="read_only")
def leak(ctx: Context = None) -> int:
    \"\"\"Return at once, leaving a thread that reports progress later.\"\"\"

    def later() -> None:
        time.sleep(0.3)
        ctx.progress(50, 100, "late")

    threading.Thread(target=later, daemon=True).start()
    return 1


@command(effects="read_only")
def interrupt(delay: float = 0.05) -> int:
    \"\"\"Raise KeyboardInterrupt, as `_thread.interrupt_main()` or a library might.\"\"\"
    time.sleep(delay)
    raise KeyboardInterrupt


@command(effects="read_only")
def swallow() -> str:
    \"\"\"Catch a real Ctrl-C (sent to this very process) and go on.\"\"\"
    import os
    import signal

    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt:
        return "swallowed"
    return "not interrupted"


@command(effects="read_only")
def csleep(micros: int = 150000) -> dict:
    \"\"\"Sleep in C (usleep, never restarted): a signal would cut it short.\"\"\"
    import ctypes
    import signal

    libc = ctypes.CDLL(None, use_errno=True)
    started = time.monotonic()
    done = libc.usleep(micros)
    return {
        "rc": done,
        "errno": ctypes.get_errno(),
        "slept": time.monotonic() - started,
        "timer": signal.getitimer(signal.ITIMER_REAL)[0],
    }
"""


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("threads"), HANDLERS + EXTRA)


def _call(ident: Any, tool_name: str, **arguments: Any) -> dict[str, Any]:
    params = {"name": tool_name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


def _cancel(ident: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": ident}}


def _greeting(answer: dict[str, Any]) -> str:
    return str(answer["result"]["structuredContent"]["greeting"])


@pytest.mark.skipif(sys.platform != "linux", reason="libc's usleep through ctypes")
def test_a_call_gets_no_signal_from_the_server(tool: Path) -> None:
    """The server sends a call's handler no signal of its own (a timer's SIGALRM, say): C code
    that waits in a system call no SA_RESTART restarts (usleep, poll) would see EINTR, and a
    signal reaches a handler only when the main thread is back in Python."""
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    server.send(_call("c", "csleep", micros=150000))
    found = server.read()["result"]["structuredContent"]
    assert (found["rc"], found["errno"], found["timer"]) == (0, 0, 0.0), found
    assert found["slept"] >= 0.14, found


def test_reading_moves_between_threads_and_back(tool: Path) -> None:
    """Short calls run on the reading thread; a long one hands reading to the watchdog, which
    serves what arrives meanwhile and gives reading back afterwards, as often as needed."""
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    for cycle in range(3):
        # A long call holds the main thread; a greeting sent meanwhile is answered first.
        server.send(_call(f"slow{cycle}", "slow", steps=4, delay=0.1))
        time.sleep(0.05)
        server.send(_call(f"hi{cycle}", "greet", name=f"n{cycle}"))
        first = server.read()
        assert first["id"] == f"hi{cycle}", first
        assert _greeting(first) == f"Hello, n{cycle}!"
        assert first["result"]["content"][1]["text"] == f"greeting n{cycle}\n"
        assert server.read()["result"]["structuredContent"] == {"result": 4}
        # Lock-step short calls after it: the first line goes back to the main thread.
        for i in range(20):
            server.send(_call(i, "greet", name=f"u{i}"))
            assert _greeting(server.read()) == f"Hello, u{i}!"
    # After a quiet second and more, the watchdog is parked; a long call must still be
    # cancellable, which needs someone reading stdin while it runs.
    time.sleep(1.5)
    server.send(_call("long", "slow", steps=200, delay=0.05))
    time.sleep(0.2)
    server.send(_cancel("long"))
    server.send({"jsonrpc": "2.0", "id": "after", "method": "ping"})
    assert server.read() == {"jsonrpc": "2.0", "id": "after", "result": {}}
    # End of input while a call runs on the main thread: it is answered, then the server exits.
    server.send(_call("last", "slow", steps=3, delay=0.1))
    time.sleep(0.1)
    out, stderr, code = server.close()
    answers = [json.loads(raw) for raw in out.splitlines()]
    assert [a["id"] for a in answers] == ["last"], answers
    assert answers[0]["result"]["structuredContent"] == {"result": 3}
    assert code == 0
    assert stderr.count("slow: cancelled") == 1


def test_a_busy_handler_does_not_stop_reading(tool: Path) -> None:
    """A handler that never blocks (pure Python on the main thread) still gets its
    cancellation, and other calls are answered while it runs."""
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    start = time.perf_counter()
    server.send(_call("spin", "spin", seconds=30))
    time.sleep(0.2)
    server.send(_call("hi", "greet", name="x"))
    assert _greeting(server.read()) == "Hello, x!"
    server.send(_cancel("spin"))
    out, stderr, code = server.close()
    assert (out, code) == (b"", 0)
    assert "spin: stopped" in stderr
    assert time.perf_counter() - start < 15


@pytest.mark.parametrize("busy", [0, 1, 2])
@pytest.mark.parametrize(("sent", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signals_stop_the_server(tool: Path, busy: int, sent: int, code: int) -> None:
    """Ctrl-C (130) and SIGTERM (143) end the server with no traceback: idle, in the middle of
    a call on the main thread, or with one more on a worker; each call's on_exit runs first."""
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    for ident in range(busy):
        server.send(_call(ident + 1, "slow", steps=100, delay=0.05))
        time.sleep(0.3)
    server.proc.send_signal(sent)
    out, stderr, exit_code = server.close()
    assert exit_code == code, stderr
    assert out == b""
    assert "Traceback" not in stderr
    assert stderr.count("slow: on_exit ran") == busy, stderr


def test_end_of_input_during_a_busy_call(tool: Path) -> None:
    """Input ends while a handler that never blocks runs: it is answered, and the process ends
    cleanly (the watchdog must not go back to reading a stdin that has ended)."""
    data = line(INIT) + line(_call(1, "spin", seconds=0.3))
    for _ in range(8):
        proc = subprocess.run(
            [sys.executable, str(tool), "--mcp"],
            input=data,
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-600:]
        assert [json.loads(raw)["id"] for raw in proc.stdout.splitlines()] == [0, 1]


def test_keyboard_interrupt_from_a_handler_on_a_worker(tool: Path) -> None:
    """A handler raising KeyboardInterrupt on a worker gets an error result; the server goes on."""
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    server.send(_call("long", "slow", steps=4, delay=0.1))
    time.sleep(0.1)
    server.send(_call("kbi", "interrupt"))
    out, stderr, code = server.close()
    answers = {a["id"]: a["result"] for a in map(json.loads, out.splitlines())}
    assert code == 0, stderr
    assert answers["kbi"]["isError"] is True
    assert "KeyboardInterrupt" in answers["kbi"]["content"][0]["text"]
    assert answers["long"]["structuredContent"] == {"result": 4}


def test_no_progress_after_the_answer_even_when_the_id_comes_back(tool: Path) -> None:
    server = Server(tool)
    server.send(INIT)
    assert server.read()["id"] == 0
    leak = _call(1, "leak")
    leak["params"]["_meta"] = {"progressToken": "old"}
    server.send(leak)
    assert server.read()["result"]["structuredContent"] == {"result": 1}
    again = _call(1, "slow", steps=10, delay=0.05)
    again["params"]["_meta"] = {"progressToken": "new"}
    server.send(again)
    out, stderr, code = server.close()
    messages = [json.loads(raw) for raw in out.splitlines()]
    tokens = {m["params"]["progressToken"] for m in messages if "method" in m}
    assert code == 0, stderr
    assert tokens == {"new"}
    assert [m["id"] for m in messages if "id" in m] == [1]


#: The number of the read(2) system call, as /proc/<pid>/task/<tid>/syscall shows it.
_READ_SYSCALL = {"x86_64": "0", "amd64": "0", "aarch64": "63", "arm64": "63"}.get(
    platform.machine().lower()
)


def _wait_until_reading_stdin(pid: int, *, main_thread: bool) -> None:
    """Wait until a thread of `pid` (its main thread, or else any other) is blocked in read(2)
    (of the requests: the server's own duplicate of fd 0, which is the null device while it
    serves). This matters for a terminal: a read already waiting when the other side closes
    fails with EIO, but a read that starts after the hang-up just returns b"" (an end of file)."""
    tasks = Path(f"/proc/{pid}/task")
    if _READ_SYSCALL is None or not tasks.is_dir():
        time.sleep(0.5)  # NOTE: no /proc to look at; best effort.
        return
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for task in tasks.iterdir():
            if (task.name == str(pid)) != main_thread:
                continue
            try:
                fields = (task / "syscall").read_text().split()
            except OSError:
                continue
            if fields[:1] == [_READ_SYSCALL]:
                return
        time.sleep(0.01)
    pytest.fail(f"no {'main' if main_thread else 'other'} thread of {pid} came to read stdin")


@pytest.mark.parametrize("busy", [False, True])
def test_a_terminal_that_goes_away_ends_the_input(tool: Path, busy: bool) -> None:
    """Reading a terminal that has gone fails (EIO); whichever thread reads, that ends the input
    like an end of file: the running call is answered and the server exits 0."""
    main, other = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, str(tool), "--mcp"],
        stdin=other,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(other)
    assert proc.stdout is not None
    os.write(main, line(INIT))
    assert json.loads(proc.stdout.readline())["id"] == 0
    if busy:
        os.write(main, line(_call(1, "slow", steps=6, delay=0.1)))
    # NOTE: the EIO path is only taken by a read that is waiting when the terminal goes: the
    # main thread when idle, the watchdog while the slow call runs (it keeps reading after).
    _wait_until_reading_stdin(proc.pid, main_thread=not busy)
    os.close(main)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-600:]
    assert [json.loads(raw)["id"] for raw in out.splitlines()] == ([1] if busy else [])
    assert b"cannot read stdin" in err


def test_a_swallowed_ctrl_c_does_not_make_a_later_keyboard_interrupt_stop_the_server(
    tool: Path,
) -> None:
    """A handler that caught a real Ctrl-C went on; the next handler's own KeyboardInterrupt is
    still that call's error, not the server's end."""
    calls = [_call(1, "swallow"), _call("kbi", "interrupt"), _call(2, "slow", steps=1)]
    messages, _, stderr, code = exchange(tool, line(INIT) + b"".join(map(line, calls)))
    assert code == 0, stderr
    answers = {m["id"]: m["result"] for m in messages}
    assert answers[1]["structuredContent"] == {"result": "swallowed"}
    assert answers["kbi"]["isError"] is True
    assert answers[2]["structuredContent"] == {"result": 1}


def test_keyboard_interrupt_from_a_handler_on_the_main_thread(tool: Path) -> None:
    """No Ctrl-C came: the call's error, and the server goes on (a real Ctrl-C stops it,
    `test_signals_stop_the_server`)."""
    data = line(INIT) + line(_call("kbi", "interrupt")) + line(_call(2, "slow", steps=1))
    messages, _, stderr, code = exchange(tool, data)
    assert code == 0, stderr
    answers = {m["id"]: m["result"] for m in messages}
    assert answers["kbi"]["isError"] is True
    assert "KeyboardInterrupt" in answers["kbi"]["content"][0]["text"]
    assert answers[2]["structuredContent"] == {"result": 1}


#: A tool that imports no `threading` of its own: the server's threads are all there is.
QUIET = """
\"\"\"Sleepers.\"\"\"

import time

from burgee import command, program

program(name="sleepers", version="1.0.0")


@command(effects="read_only")
def nap(seconds: float = 0.3) -> int:
    \"\"\"Sleep, never looking at the context.\"\"\"
    time.sleep(seconds)
    return 1


@command(effects="read_only")
def linger() -> int:
    \"\"\"Leave a thread, not a daemon, that Python waits for at exit.\"\"\"
    import threading

    threading.Thread(target=time.sleep, args=(60,)).start()
    return 1
"""


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("quiet"), QUIET)


def _pythons() -> list[str]:
    """This Python and, where one is installed, a 3.12: the first import of `threading` on a
    thread other than the main one made 3.12's exit wait for that thread."""
    found = [sys.executable]
    for candidate in [
        shutil.which("python3.12"),
        *map(str, Path.home().glob(".pyenv/versions/3.12*/bin/python3.12")),
    ]:
        if candidate is None or candidate in found:
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.stdout.strip() == "(3, 12)":
            found.append(candidate)
            break
    return found


@pytest.mark.parametrize("python", _pythons())
def test_a_client_that_cancels_and_closes_leaves_no_process(quiet: Path, python: str) -> None:
    """A call cancelled while it runs (the cancellation read by the watchdog), then the end of
    input: the server exits 0 every time (it hung in 2-7 runs of 12, in 4 of 4 on 3.12)."""
    for _ in range(6):
        server = Server(quiet, python=python)
        server.send(INIT)
        assert server.read()["id"] == 0
        server.send(_call(1, "nap", seconds=0.3))
        time.sleep(0.1)
        server.send(_cancel(1))
        assert server.proc.stdin is not None
        server.proc.stdin.close()
        try:
            code = server.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait()
            pytest.fail(f"{python}: the server did not exit after the end of its input")
        assert code == 0, server.close()[1]


def test_sigterm_while_python_waits_for_a_handlers_thread(quiet: Path) -> None:
    """After the end of input Python waits for a handler's non-daemon thread; SIGTERM then ends
    the process as it ends a serving one: 143, no traceback (it was 0 and "Exception ignored")."""
    server = Server(quiet)
    server.send(INIT)
    assert server.read()["id"] == 0
    server.send(_call(1, "linger"))
    assert server.read()["result"]["structuredContent"] == {"result": 1}
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    time.sleep(0.5)
    assert server.proc.poll() is None
    server.proc.send_signal(signal.SIGTERM)
    _, stderr, code = server.close()
    assert code == 143, stderr
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr
