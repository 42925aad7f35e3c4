"""A minimal MCP stdio client on raw subprocess pipes (no SDK on the client side).

One session: spawn the server, time the `initialize` answer, send `notifications/initialized`
and `tools/list` and time that answer, then run `tools/call greet` lock-step (write one, read
its answer) and pipelined (a thread writes them all while the main thread reads the answers),
and finally close stdin and time the exit. Every answer is parsed with `json.loads`; every
97th greeting is checked.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

PROTOCOL_VERSION = "2025-11-25"
CHECK_EVERY = 97


class McpError(RuntimeError):
    """The server did not answer as an MCP server should."""


def _line(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg, separators=(",", ":")).encode() + b"\n"


def initialize_request(msg_id: int = 0) -> bytes:
    params = {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "burgee-bench", "version": "1.0.0"},
    }
    return _line({"jsonrpc": "2.0", "id": msg_id, "method": "initialize", "params": params})


INITIALIZED = _line({"jsonrpc": "2.0", "method": "notifications/initialized"})


def call_request(msg_id: int, name: str) -> bytes:
    params = {"name": "greet", "arguments": {"name": name}}
    return _line({"jsonrpc": "2.0", "id": msg_id, "method": "tools/call", "params": params})


@dataclass
class SessionResult:
    init_ms: float
    list_ms: float
    first_call_ms: float
    lockstep_per_s: float
    pipelined_per_s: float
    exit_ms: float
    latencies_us: list[float] = field(default_factory=list)


class Session:
    """One spawned server and its pipes, killed by a watchdog if it hangs."""

    def __init__(
        self, argv: Sequence[str], env: dict[str, str], timeout: float, echo: bool = False
    ) -> None:
        self.echo = echo  # the "server" echoes each request back (the IPC floor row)
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        self.watchdog = threading.Timer(timeout, self.proc.kill)
        self.watchdog.daemon = True
        self.watchdog.start()

    def send(self, data: bytes) -> None:
        self.stdin.write(data)
        self.stdin.flush()

    def next_answer(self) -> tuple[dict[str, Any], bytes]:
        """Read messages until one that answers a request (has an id, and no method)."""
        while True:
            raw = self.stdout.readline()
            if not raw:
                try:
                    code = f"exit code {self.proc.wait(timeout=5)}"
                except subprocess.TimeoutExpired:
                    code = "still running"
                raise McpError(f"server closed stdout before answering ({code})")
            msg = json.loads(raw)
            if isinstance(msg, dict) and "id" in msg and (self.echo or "method" not in msg):
                return msg, raw

    def answer(self, msg_id: int) -> tuple[dict[str, Any], bytes]:
        """The answer to msg_id, the only request outstanding."""
        msg, raw = self.next_answer()
        if msg["id"] != msg_id:
            raise McpError(f"expected the answer to id {msg_id}, got {raw[:200]!r}")
        return msg, raw

    def close(self) -> float:
        """Close stdin and return how long the server took to exit, in ms."""
        start = time.perf_counter()
        try:
            self.stdin.close()
        except BrokenPipeError:
            pass
        self.proc.wait()
        exit_ms = (time.perf_counter() - start) * 1e3
        self.watchdog.cancel()
        self.stdout.close()
        return exit_ms

    def kill(self) -> None:
        self.watchdog.cancel()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _check_call(msg: dict[str, Any], raw: bytes, name: str | None) -> None:
    result = msg.get("result")
    if not isinstance(result, dict) or result.get("isError"):
        raise McpError(f"tools/call failed: {raw[:300]!r}")
    if name is not None and f"Hello, {name}!".encode() not in raw:
        raise McpError(f"tools/call answer lacks the greeting for {name!r}: {raw[:300]!r}")


def run_session(
    argv: Sequence[str],
    env: dict[str, str],
    calls: int,
    *,
    echo: bool = False,
    timeout: float = 300.0,
) -> SessionResult:
    """One full session against a server; see the module docstring.

    With `echo`, the "server" is `/bin/cat`: each request comes back as its own answer, and
    nothing is checked. That row is the floor set by the pipes and by this client.
    """
    session = Session(argv, env, timeout, echo)
    check = not echo
    try:
        session.send(initialize_request(0))
        init, raw = session.answer(0)
        init_ms = (time.perf_counter() - session.started) * 1e3
        if check and "result" not in init:
            raise McpError(f"initialize failed: {raw[:300]!r}")
        session.send(INITIALIZED + _line({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        _, raw = session.answer(1)
        list_ms = (time.perf_counter() - session.started) * 1e3
        if check and b'"greet"' not in raw:
            raise McpError(f"tools/list lacks greet: {raw[:300]!r}")
        session.send(call_request(2, "first"))
        msg, raw = session.answer(2)
        first_call_ms = (time.perf_counter() - session.started) * 1e3
        if check:
            _check_call(msg, raw, "first")

        base = 10
        requests = [call_request(base + i, f"u{i}") for i in range(calls)]
        latencies: list[float] = []
        start = time.perf_counter()
        for i, request in enumerate(requests):
            sent = time.perf_counter_ns()
            session.send(request)
            msg, raw = session.answer(base + i)
            latencies.append((time.perf_counter_ns() - sent) / 1e3)
            if check:
                _check_call(msg, raw, f"u{i}" if i % CHECK_EVERY == 0 else None)
        lockstep = calls / (time.perf_counter() - start)

        base += calls
        requests = [call_request(base + i, f"p{i}") for i in range(calls)]
        blob = b"".join(requests)
        writer = threading.Thread(target=session.send, args=(blob,), daemon=True)
        start = time.perf_counter()
        writer.start()
        pending = set(range(base, base + calls))
        while pending:  # answers may come in any order: match them by id
            msg, raw = session.next_answer()
            msg_id = msg["id"]
            pending.remove(msg_id)
            if check:
                i = msg_id - base
                _check_call(msg, raw, f"p{i}" if i % CHECK_EVERY == 0 else None)
        pipelined = calls / (time.perf_counter() - start)
        writer.join()
        exit_ms = session.close()
    finally:
        session.kill()
    return SessionResult(init_ms, list_ms, first_call_ms, lockstep, pipelined, exit_ms, latencies)


def probe(argv: Sequence[str], env: dict[str, str], timeout: float = 20.0) -> str | None:
    """None if the server answers initialize, tools/list and one greet call; else why not."""
    try:
        run_session(argv, env, calls=1, timeout=timeout)
    except (McpError, OSError, ValueError) as exc:
        return str(exc)[:300]
    return None


def median_or_nan(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")
