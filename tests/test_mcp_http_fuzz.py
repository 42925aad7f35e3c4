"""`mytool --mcp --http` against a seeded random stream of raw requests, on loopback, several at
once, for a bounded time: malformed request lines, headers and lengths, chunked bodies, slow
senders, crowds of connections, invalid bodies inside and outside sessions, Host, Origin and
bearer variants. Invariants: every request is answered or its connection closed within its
deadlines, an answer is HTTP with an expected status, nothing reaches stdout, nothing is
reported failed on stderr (no traceback), and a well-behaved client is served meanwhile.

`BURGEE_HTTP_FUZZ_SECONDS` (default 12) sets how long; `BURGEE_HTTP_FUZZ_SEED` the seed (a
failure names its own)."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from tests.mcp_wire import MODERN_META
from tests.node_clients import HttpServer
from tests.test_mcp_http import INIT
from tests.test_mcp_http_limits import DEADLINE, quick_pantry

#: Slow: a fuzzer (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

SECONDS = float(os.environ.get("BURGEE_HTTP_FUZZ_SECONDS", "12"))
SEED = int(os.environ.get("BURGEE_HTTP_FUZZ_SEED", str(random.SystemRandom().randrange(2**32))))
TOKEN = "s3cret"
WORKERS = 6
#: How long a case may take, from its first byte: its head's and its body's deadlines, and a
#: loaded machine's delay.
PATIENCE = 2 * DEADLINE + 4
#: The statuses the endpoint answers with (never 500: that would be an error of its own).
STATUSES = {200, 202, 400, 401, 403, 404, 405, 406, 408, 411, 413, 414, 415, 431, 501, 503, 505}

#: A well-behaved client's.
HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}
HEADERS["Authorization"] = f"Bearer {TOKEN}"
CALL = {"name": "stock", "arguments": {"name": "flour"}}
BODIES: list[object] = [
    INIT,
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": CALL},
    {"jsonrpc": "2.0", "id": "x", "method": "tools/call", "params": {**CALL, "_meta": MODERN_META}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}},
    {"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {"_meta": MODERN_META}},
    None,
    [],
    5,
    "text",
    {},
    {"jsonrpc": "2.0"},
    {"jsonrpc": "2.0", "id": 4},
    {"jsonrpc": "2.0", "id": True, "method": "ping"},
    {"jsonrpc": "1.0", "id": 5, "method": "ping"},
    [{"jsonrpc": "2.0", "id": 6, "method": "ping"}, 7],
    {"jsonrpc": "2.0", "params": {"_meta": MODERN_META}},
    {"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"x": 1e400}},
]
RAW_BODIES = [b"{", b"\xff\xfe", b"[" * 100_000, b"{}" * 3, b"", b"\x00", b'{"a": "\\ud800"}']
#: Requests refused as a value, their ids readable (answered under them: test_mcp_protocol).
RAW_BODIES += [
    b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"x": ' + b"9" * 4400 + b"}}",
    b'{"jsonrpc": "2.0", "id": 10, "method": "ping", "params": ' + b"[" * 5000 + b"]" * 5000 + b"}",
]


class Case:
    """One connection's bytes, sent in pieces with pauses, and what to expect back."""

    def __init__(self, pieces: list[bytes], pauses: list[float], lines: list[bytes]) -> None:
        self.pieces, self.pauses = pieces, pauses
        #: Answers to HEAD have no body.
        self.heads = [line.startswith(b"HEAD ") for line in lines]
        self.reset = False

    def __repr__(self) -> str:
        data = b"".join(self.pieces)
        return f"Case({data[:600]!r}{'...' if len(data) > 600 else ''}, pauses={self.pauses})"


def _body(rng: random.Random) -> bytes:
    if rng.random() < 0.2:
        return rng.choice(RAW_BODIES)
    if rng.random() < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    return json.dumps(rng.choice(BODIES)).encode()


def _request(rng: random.Random, port: int, sessions: list[str]) -> tuple[bytes, bytes]:
    """One request, valid or broken in a few places, and its request line."""
    body = _body(rng)
    pick = rng.choice
    line = pick(
        [b"POST /mcp HTTP/1.1"] * 8
        + [b"GET /mcp HTTP/1.1", b"DELETE /mcp HTTP/1.1", b"HEAD /mcp HTTP/1.1"]
        + [b"POST /other HTTP/1.1", b"POST /mcp?x=1 HTTP/1.1", b"PUT /mcp HTTP/1.1"]
        + [b"POST /mcp HTTP/2.0", b"POST /mcp HTTP/1.0", b"post /mcp HTTP/1.1", b"POST /mcp"]
        + [b"POST /mcp HTTP/1.1 x", b"\x00\xff\r", b"POST " + b"a" * 70_000 + b" HTTP/1.1"]
        + [b"BREW /mcp HTTP/1.1", b" POST /mcp HTTP/1.1", b"POST /mcp HTTP/1.1\n"]
    )
    headers: list[bytes] = []
    host = pick(
        [b"127.0.0.1:%d" % port] * 6
        + [b"localhost", b"[::1]:%d" % port, b"LOCALHOST:%d" % port, b"[::1", b"evil.example"]
        + [b"127.0.0.1:\xb2", b"", b"127.0.0.1:%d x" % port, b"\xe2\x82\xac", None, "two"]
    )
    if host == "two":
        headers += [b"Host: 127.0.0.1", b"Host: evil.example"]
    elif host is not None:
        headers.append(b"Host: " + host)
    origin = pick([None] * 6 + [b"http://localhost", b"http://evil.example", b"null", b"\xff"])
    if origin is not None:
        headers.append(b"Origin: " + origin)
    bearer = pick(
        [b"Bearer s3cret"] * 6
        + [None, b"Bearer wrong", b"bearer s3cret", b"Bearer  s3cret", b"Bearer s3cret\xff"]
        + [b"Basic czNjcmV0", b"Bearer " + b"s" * 5000, b"Bearer"]
    )
    if bearer is not None:
        headers.append(b"Authorization: " + bearer)
    media = pick([b"application/json"] * 5 + [None, b"text/plain", b"application/json; x=1"])
    if media is not None:
        headers.append(b"Content-Type: " + media)
    accept = pick([b"application/json", b"text/event-stream", b"*/*", None, b"text/html"])
    if accept is not None:
        headers.append(b"Accept: " + accept)
    session = pick([None] * 3 + [b"nope"] + [s.encode() for s in sessions])
    if session is not None:
        headers.append(b"Mcp-Session-Id: " + session)
    if rng.random() < 0.1:
        headers.append(b"MCP-Protocol-Version: " + pick([b"2025-11-25", b"2026-07-28", b"x"]))
    chunked = rng.random() < 0.08
    length = len(body)
    lengths = pick(
        [[b"%d" % length]] * 10
        + [[], [b"%d" % (length + 5)], [b"%d" % max(0, length - 1)], [b"-1"], [b"\xb2"]]
        + [[b"99999999999999999999"], [b"%d" % length] * 2, [b" %d " % length], [b"0x10"]]
    )
    headers += [b"Content-Length: " + value for value in lengths]
    if chunked:
        headers.append(b"Transfer-Encoding: chunked")
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    if rng.random() < 0.05:
        headers += [b"X-Many-%d: x" % n for n in range(120)]
    if rng.random() < 0.05:
        headers.append(pick([b"no colon here", b" folded: x", b"X-Long: " + b"x" * 70_000]))
    if rng.random() < 0.05:
        headers.append(b"Expect: 100-continue")
    rng.shuffle(headers)
    if rng.random() < 0.3:
        headers.append(b"Connection: close")
    return line + b"\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n" + body, line


def _case(rng: random.Random, port: int, sessions: list[str]) -> Case:
    requests = [_request(rng, port, sessions) for _ in range(1 + (rng.random() < 0.15))]
    data = b"".join(request for request, _ in requests)
    if rng.random() < 0.15:
        data = data[: rng.randrange(len(data) + 1)]  # a request that stops part-way
    pieces, pauses = [data], [0.0]
    if rng.random() < 0.25:
        # NOTE: a slow sender: within the deadlines, or past them.
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(1, 6)))
        pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        pauses = [rng.uniform(0, 2.5 * DEADLINE / len(pieces)) for _ in pieces]
    case = Case(pieces, pauses, [line for _, line in requests])
    case.reset = rng.random() < 0.05
    return case


def _answers(sock: socket.socket, heads: list[bool], until: float) -> list[int]:
    """The statuses of the answers to requests (`heads`: to HEAD) read on `sock` before it
    closes; AssertionError if neither an answer nor the end comes by `until`."""
    buffer = b""
    statuses: list[int] = []

    def more() -> bool:
        nonlocal buffer
        left = until - time.monotonic()
        assert left > 0, f"neither answered nor closed in time (got {statuses})"
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return False
        except TimeoutError:
            raise AssertionError(f"neither answered nor closed in time (got {statuses})") from None
        buffer += chunk
        return bool(chunk)

    while len(statuses) < len(heads):
        while b"\r\n\r\n" not in buffer:
            if not more():
                assert not buffer, f"an answer cut short: {buffer[:300]!r}"
                return statuses
        head, _, buffer = buffer.partition(b"\r\n\r\n")
        status_line, *fields = head.decode("latin-1").split("\r\n")
        version, status, _ = (status_line + " ").split(" ", 2)
        assert version == "HTTP/1.1" and status.isdigit(), status_line
        if int(status) == 100:
            continue
        assert int(status) in STATUSES, head
        statuses.append(int(status))
        found = dict(field.lower().split(": ", 1) for field in fields)
        if heads[len(statuses) - 1]:
            continue
        if "content-length" in found:
            size = int(found["content-length"])
            while len(buffer) < size:
                assert more(), "an answer's body cut short"
            if size:
                json.loads(buffer[:size])  # every answer with a body is JSON
            buffer = buffer[size:]
        elif found.get("transfer-encoding") == "chunked":
            while not buffer.endswith(b"0\r\n\r\n"):
                assert more(), "a stream cut short"
            buffer = b""
    return statuses


def _run(case: Case, port: int) -> None:
    started = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        for piece, pause in zip(case.pieces, case.pauses, strict=True):
            time.sleep(pause)
            try:
                sock.sendall(piece)
            except OSError:
                break  # the server ended the connection: its deadline, or a refusal
        if case.reset:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return
        _answers(sock, case.heads, started + PATIENCE)
    finally:
        sock.close()


def _crowd(port: int, rng: random.Random) -> None:
    """Many connections at once, silent or half a head, ended by the server's deadline."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(40)]
    try:
        for sock in socks:
            if rng.random() < 0.5:
                sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        until = time.monotonic() + PATIENCE
        for sock in socks:
            _answers(sock, [False], until)
    finally:
        for sock in socks:
            sock.close()


def _askers(port: int, rng: random.Random) -> None:
    """Clients that ask a question (`use salt`, elicitation declared) and never answer: more
    than the places there are, some gone at once, the others a while later. The canary must
    be served all along (a question holds at most its share of the places)."""
    asking = {**INIT, "params": {**INIT["params"], "capabilities": {"elicitation": {}}}}
    call = {"name": "use", "arguments": {"name": "salt"}}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
    socks = []
    try:
        for _ in range(34):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", "/mcp", json.dumps(asking), HEADERS)
            opened = connection.getresponse()
            opened.read()
            connection.close()
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            head = (
                f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
                f"Content-Type: application/json\r\nAccept: text/event-stream\r\n"
                f"Authorization: Bearer {TOKEN}\r\n"
                f"Mcp-Session-Id: {opened.getheader('Mcp-Session-Id')}\r\n\r\n"
            )
            sock.sendall(head.encode() + body.encode())
            socks.append(sock)
        time.sleep(rng.random())
        for sock in socks[::2]:
            sock.close()
        time.sleep(rng.random())
    finally:
        for sock in socks:
            sock.close()


def _canary(port: int, stop: threading.Event, failures: list[str]) -> None:
    """A well-behaved client, answered promptly all along."""
    headers = HEADERS
    while not stop.is_set():
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
            connection.request("POST", "/mcp", json.dumps(INIT), headers)
            response = connection.getresponse()
            response.read()
            sid = response.getheader("Mcp-Session-Id") or ""
            call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": CALL}
            connection.request("POST", "/mcp", json.dumps(call), {**headers, "Mcp-Session-Id": sid})
            answer = connection.getresponse()
            statuses = (response.status, answer.status, b"flour" in answer.read())
            connection.close()
            assert statuses == (200, 200, True), statuses
            assert time.monotonic() - started < 3, "a well-behaved client waited"
        except (AssertionError, OSError) as error:
            failures.append(f"canary: {error!r}")
            return
        stop.wait(0.1)


def test_http_fuzz(tmp_path: Path) -> None:
    env = {**os.environ, "FUZZ_TOKEN": TOKEN}
    server = HttpServer(quick_pantry(tmp_path), "--token-env", "FUZZ_TOKEN", env=env)
    failures: list[str] = []
    ran = [0]
    try:
        port = server.port
        sessions = []
        for _ in range(2):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("POST", "/mcp", json.dumps(INIT), HEADERS)
            response = connection.getresponse()
            response.read()
            sessions.append(response.getheader("Mcp-Session-Id") or "")
            connection.close()
        end = time.monotonic() + SECONDS
        stop = threading.Event()

        def work(worker: int) -> None:
            rng = random.Random(SEED * 100 + worker)
            while time.monotonic() < end and not failures:
                if rng.random() < 0.01:
                    try:
                        _crowd(port, rng)
                    except (AssertionError, OSError) as error:
                        failures.append(f"crowd: {error!r}")
                    continue
                # NOTE: once at least (worker 0 starts with them), then now and then.
                if rng.random() < 0.005 or (worker == 0 and not ran[0]):
                    ran[0] += 1
                    try:
                        _askers(port, rng)
                    except (AssertionError, OSError) as error:
                        failures.append(f"askers: {error!r}")
                    continue
                case = _case(rng, port, sessions)
                try:
                    _run(case, port)
                except (AssertionError, OSError) as error:
                    failures.append(f"{error!r} on {case!r}")
                ran[0] += 1

        canary = threading.Thread(target=_canary, args=(port, stop, failures))
        canary.start()
        workers = [threading.Thread(target=work, args=(n,)) for n in range(WORKERS)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join(SECONDS + 3 * PATIENCE)
        stop.set()
        canary.join(PATIENCE + 5)
    finally:
        code, err = server.stop(signal.SIGTERM)
    assert not failures, f"seed {SEED} (BURGEE_HTTP_FUZZ_SEED): {failures[:3]}"
    assert ran[0] > 50, ran  # a run that tried little proves little
    assert code == 0
    assert server.out == "", server.out[:500]
    assert "Traceback" not in err and "failed" not in err, err[-3000:]
