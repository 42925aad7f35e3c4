"""`mytool --mcp --http` under clients that misbehave or are many: deadlines for slow senders,
bodies that hold no request, malformed lengths and hosts, wildcard addresses, and no Nagle
stall between lock-step requests."""

from __future__ import annotations

import http.client
import json
import re
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from burgee.runtime.answers.output import _Stdout
from burgee.runtime.mcpserver.mcp import _McpServer
from burgee.runtime.mcpserver.mcp_endpoint import _Endpoint, _Settings
from burgee.runtime.mcpserver.mcp_http import _handler_class
from burgee.runtime.program import PROGRAM
from tests.helpers import run
from tests.node_clients import HttpServer
from tests.test_mcp_http import BOTH, INIT, PANTRY, post, session

#: The deadlines of a patched copy of the tool (`quick_pantry`): seconds for the head of a
#: request, and for its body.
DEADLINE = 1.0


def quick_pantry(tmp_path: Path) -> Path:
    """The pantry tool with its deadlines lowered to `DEADLINE`, so a test of them takes
    seconds, not the 30 s a client gets."""
    text, count = re.subn(
        r"^(_HTTP_(?:HEAD|BODY)_SECONDS) = .*$",
        rf"\1 = {DEADLINE}",
        PANTRY.read_text(encoding="utf-8"),
        flags=re.MULTILINE,
    )
    assert count == 2, "the deadlines are no longer named so"
    tool = tmp_path / "pantry.py"
    tool.write_text(text, encoding="utf-8")
    return tool


def raw(port: int, data: bytes) -> bytes:
    """What the server answers to `data` sent on a connection of its own, to its end (the
    request says `Connection: close`)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(data)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    finally:
        sock.close()
    return got


def test_lock_step_calls_over_one_connection_are_not_delayed(tmp_path: Path) -> None:
    """Each answer is sent as soon as it is written: Nagle's algorithm held back its last
    segment until the client's delayed ACK, about 45 ms a request on loopback."""
    server = HttpServer(PANTRY)
    try:
        sid = session(server.port)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        call = {"jsonrpc": "2.0", "method": "tools/call"}
        call["params"] = {"name": "stock", "arguments": {"name": "flour"}}
        for accept in ("application/json", "text/event-stream"):
            headers = {**BOTH, "Accept": accept, "Mcp-Session-Id": sid}
            started = time.perf_counter()
            for ident in range(50):
                connection.request("POST", "/mcp", json.dumps({**call, "id": ident}), headers)
                response = connection.getresponse()
                assert (response.status, b"flour" in response.read()) == (200, True)
            # NOTE: generous (a few ms each is usual); 50 stalls take 2.2 s at the least.
            assert time.perf_counter() - started < 2, accept
        connection.close()
    finally:
        server.stop(signal.SIGTERM)


class _Sends:
    """A connected socket whose `sendall` calls are kept: each is a segment of its own (no
    Nagle's algorithm), which the client waits for."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sent: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sent.append(bytes(data))
        self.sock.sendall(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


def _served(request: bytes, wrap: Callable[[type], type] = lambda handler: handler) -> list[bytes]:
    """What the runtime's HTTP handler (`wrap` of its class) sends, write by write, answering
    `request` (which ends with `Connection: close`) on a loopback connection, in this process."""
    settings = _Settings("/mcp", None, {"127.0.0.1"})
    # NOTE: a session's server writes its messages to the request's sink; what it shares with
    # the stateless one (its stdout) is never written here.
    shared = type("Shared", (), {"out": -1, "stdout": _Stdout(sys.stderr)})()
    make = lambda debug, _: _McpServer(PROGRAM, debug, shared)  # noqa: E731
    endpoint = _Endpoint(settings, False, make, shared, PROGRAM)
    with socket.create_server(("127.0.0.1", 0)) as listening:
        client = socket.create_connection(listening.getsockname()[:2], timeout=30)
        accepted, address = listening.accept()
    sends = _Sends(accepted)
    try:
        client.sendall(request)
        wrap(_handler_class(endpoint))(sends, address, None)
    finally:
        accepted.close()
        client.close()
    return sends.sent


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [("/mcp", json.dumps(INIT).encode(), b"200"), ("/health", b"", b"200"), ("/x", b"", b"404")],
)
def test_an_answer_is_one_send(path: str, body: bytes, status: bytes) -> None:
    """Its head and its body were two sends: the client woke for the head and waited again
    for the body, a third of a lock-step request's time."""
    method = b"POST" if body else b"GET"
    request = b"%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" % (
        method,
        path.encode(),
    )
    request += b"Content-Type: application/json\r\nAccept: application/json\r\n"
    request += b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    sent = _served(request)
    assert len(sent) == 1, sent
    head, _, answer = sent[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 " + status + b" "), head
    assert json.loads(answer), answer
    # NOTE: which software serves, and on which Python, is not told (one line less to read).
    assert b"\r\nServer:" not in head, head


def _request(fields: list[bytes], end: bytes = b"\r\n") -> bytes:
    """An `initialize` POST whose head has `fields` after its own, each line ended by `end`."""
    body = json.dumps(INIT).encode()
    lines = [b"POST /mcp HTTP/1.1", b"Host: 127.0.0.1", b"Content-Type: application/json"]
    lines += [b"Accept: application/json", b"Content-Length: %d" % len(body), *fields]
    return end.join([*lines, b"Connection: close", b"", body])


#: Calls of the HTTP layer's own functions (`mcp_http`, `mcp_endpoint`) for one POST: 40
#: before issue 34's second round (a helper call per header field, comprehensions, a sink per
#: JSON answer, http.server's request loop and its writer). Each was about a microsecond of a
#: lock-step request that took about 80 µs of the server's time; counted, not timed.
HTTP_LAYER_CALLS = 28
LAYER = ("mcp_http.py", "mcp_endpoint.py")


def test_the_http_layer_takes_few_steps_per_request() -> None:
    """What the HTTP layer does around `_McpServer.read` is most of a lock-step request's
    time over HTTP (over stdio, nearly none): it stays within its count of calls."""
    calls: list[str] = []

    def profile(frame: Any, event: str, arg: object) -> None:
        if event == "call" and frame.f_code.co_filename.endswith(LAYER):
            calls.append(frame.f_code.co_name)

    def profiled(handler: type) -> type:
        class Profiled(handler):  # type: ignore[valid-type,misc]
            def handle(self) -> None:
                sys.setprofile(profile)
                try:
                    super().handle()
                finally:
                    sys.setprofile(None)

        return Profiled

    sent = _served(_request([b"X-One: 1"]), profiled)
    assert sent[0].startswith(b"HTTP/1.1 200 "), sent
    assert len(calls) <= HTTP_LAYER_CALLS, calls


@pytest.mark.parametrize("end", [b"\r\n", b"\n"])
@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ([b"X-Many: %d" % n for n in range(95)], b"200"),  # NOTE: 100 fields in all
        ([b"X-Many: %d" % n for n in range(96)], b"431"),
        ([b"X-Many: 1", b"X-Many: 2", b"x-many:3"], b"200"),
        ([b"no colon"], b"400"),
        ([b"X-Folded: a", b" b"], b"400"),
    ],
)
def test_a_heads_limits_and_line_ends(fields: list[bytes], status: bytes, end: bytes) -> None:
    """At most 100 header fields (http.server's limit), a name given twice kept, a line that
    is no field refused; lines ended by CRLF or by a lone LF alike."""
    sent = _served(_request(fields, end))
    assert sent[0].startswith(b"HTTP/1.1 " + status + b" "), sent


def test_a_streamed_answer_ends_its_stream_in_the_same_send() -> None:
    """The head goes at once (a call may run long), the answer's event and the stream's end
    in one send: they were two, and the client woke for each."""
    body = json.dumps(INIT).encode()
    request = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    request += b"Content-Type: application/json\r\nAccept: text/event-stream\r\n"
    request += b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    head, answer = _served(request)
    assert head.startswith(b"HTTP/1.1 200 ") and head.endswith(b"\r\n\r\n"), head
    assert b"Transfer-Encoding: chunked" in head, head
    size, _, rest = answer.partition(b"\r\n")
    event, end = rest[: int(size, 16)], rest[int(size, 16) :]
    assert event.startswith(b"event: message\ndata: {"), event
    assert end == b"\r\n0\r\n\r\n", end


@pytest.mark.parametrize(
    "field", [b"Host : 127.0.0.1", b"X-Folded: a\r\n b", b"no colon", b": empty name"]
)
def test_a_head_line_that_is_no_field_gets_400(pantry_server: HttpServer, field: bytes) -> None:
    """RFC 9112 5: no space before the colon, no line folded onto the one before. The email
    parser http.server read fields with stopped at such a line and took the rest for the body
    (here the request then lacked its length: 411)."""
    body = json.dumps(INIT).encode()
    request = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    request += field + b"\r\nAccept: application/json\r\nContent-Length: %d\r\n" % len(body)
    request += b"Connection: close\r\n\r\n" + body
    answer = raw(pantry_server.port, request)
    assert answer.startswith(b"HTTP/1.1 400 "), answer


def test_a_body_read_once_as_utf_8(pantry_server: HttpServer) -> None:
    """The endpoint read the body with `json.loads`, which takes UTF-16 too, and the server
    read it again as UTF-8: an `initialize` in UTF-16 opened a session, answered 200 with a
    parse error. The body is read once, as a line over stdio is."""
    for encoding in ("utf-16", "utf-32"):
        status, headers, answer = post(
            pantry_server.port, None, raw=json.dumps(INIT).encode(encoding)
        )
        assert (status, json.loads(answer)["error"]["code"]) == (400, -32700), encoding
        assert "Mcp-Session-Id" not in headers


def test_bodies_that_hold_no_request_get_400_and_nothing_reaches_stdout() -> None:
    """Their error was written to the process's stdout, where nobody reads: after some
    hundreds the pipe was full and the server blocked."""
    server = HttpServer(PANTRY)
    try:
        sid = session(server.port)
        inside = {"Mcp-Session-Id": sid}
        for body in (None, [], 5, "text", {}, {"jsonrpc": "2.0"}, {"jsonrpc": "2.0", "id": 3}):
            status, headers, answer = post(server.port, body, inside)
            assert (status, headers["Content-Type"]) == (400, "application/json"), body
            assert json.loads(answer)["error"]["code"] == -32600, body
        modern = {"jsonrpc": "2.0", "params": {"_meta": {}}}
        modern["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"
        status, _, answer = post(server.port, modern)
        assert (status, json.loads(answer)["error"]["code"]) == (400, -32600)
        for body in (None, [], 5, {"jsonrpc": "2.0"}):
            assert post(server.port, body)[0] == 400, body  # outside a session
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert post(server.port, note, inside)[:1] == (202,)
    finally:
        code, err = server.stop(signal.SIGTERM)
    assert (code, server.out) == (0, "")
    assert "Traceback" not in err, err


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Content-Length", b"\xb2"),  # '²' in ISO-8859-1, as http.server reads a header
        ("Content-Length", b"\xb9\xb2"),
        ("Content-Length", "\u00b2".encode()),
        ("Content-Length", b"-1"),
        ("Content-Length", b"+5"),
        ("Host", b"[::1"),
        ("Host", b"[::1]x"),
        ("Host", b"127.0.0.1:8o"),
    ],
)
def test_malformed_lengths_and_hosts_get_400(
    pantry_server: HttpServer, header: str, value: bytes
) -> None:
    """Else an `initialize` that opens a session: the header alone is wrong."""
    body = json.dumps(INIT).encode()
    head = {"Host": b"127.0.0.1", "Content-Length": b"%d" % len(body), header: value}
    lines = b"".join(b"%s: %s\r\n" % (name.encode(), text) for name, text in head.items())
    request = b"POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json"
    request += b"\r\nConnection: close\r\n%s\r\n%s" % (lines, body)
    assert raw(pantry_server.port, request).startswith(b"HTTP/1.1 400 "), value


def test_a_line_that_is_no_request_gets_a_status_line(pantry_server: HttpServer) -> None:
    """http.server answered it as HTTP/0.9 would: the JSON error alone, no status line."""
    for line in (b"\x00\xff", b"GET /mcp", b"POST /mcp"):
        answer = raw(pantry_server.port, line + b"\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer.startswith((b"HTTP/1.1 400 ", b"HTTP/1.1 405 ")), answer


def test_two_host_headers_get_400(pantry_server: HttpServer) -> None:
    body = json.dumps(INIT).encode()
    request = (
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n"
        b"Content-Length: %d\r\n"
        b"Content-Type: application/json\r\nAccept: application/json\r\n\r\n%s" % (len(body), body)
    )
    assert raw(pantry_server.port, request).startswith(b"HTTP/1.1 400 ")


@pytest.fixture(scope="module")
def pantry_server() -> Any:
    server = HttpServer(PANTRY)
    yield server
    _, err = server.stop(signal.SIGTERM)
    assert "Error" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("address", ["0.0.0.0:0", "[::]:0"])
def test_a_wildcard_address_serves_loopback_and_the_names_allowed(address: str) -> None:
    if ":" in address[1:3] and not socket.has_ipv6:
        pytest.skip("no IPv6")
    server = HttpServer(PANTRY, "--allow-host", "Mcp.Example", address=address)
    try:
        port = server.port
        assert server.url == f"http://127.0.0.1:{port}/mcp"  # the URL a local client uses
        assert post(port, INIT)[0] == 200  # Host: 127.0.0.1:PORT
        assert post(port, INIT, {"Host": f"localhost:{port}"})[0] == 200
        assert post(port, INIT, {"Host": f"mcp.example:{port}"})[0] == 200
        assert post(port, INIT, {"Host": "evil.example"})[0] == 403
        assert post(port, INIT, {"Origin": "http://evil.example"})[0] == 403
    finally:
        server.stop(signal.SIGTERM)


def test_allow_host_goes_with_http() -> None:
    assert run(PANTRY, "--mcp", "--allow-host", "mcp.example").code == 2


def _slow(port: int, head: bytes, drip: bytes, until: float, ended: list[float]) -> None:
    """Send `head`, then one byte of `drip` every 0.25 s, until the server answers or closes
    the connection (or `until`); record when, after the start."""
    started = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        sock.sendall(head)
        for byte in drip:
            if select.select([sock], [], [], 0.25)[0] or time.monotonic() > until:
                break
            sock.sendall(bytes([byte]))
        else:
            select.select([sock], [], [], max(0, until - time.monotonic()))
    except OSError:
        pass  # reset: the server ended it
    finally:
        sock.close()
    ended.append(time.monotonic() - started)


def test_slow_senders_hold_no_slot_and_meet_their_deadline(tmp_path: Path) -> None:
    """A byte every 0.25 s kept each read within its own time limit, so 32 such bodies held
    every slot and any other client got 503; now the head and the body of a request each have
    one deadline, and a request holds a slot only once it is read."""
    server = HttpServer(quick_pantry(tmp_path))
    try:
        port = server.port
        until = time.monotonic() + 8
        body_head = (
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Accept: application/json\r\nContent-Length: 1000\r\n\r\n"
        )
        senders = [(body_head, b"{" * 40)] * 36  # more than the 32 slots
        senders += [(b"POST /mcp HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n" * 3)] * 8
        senders += [(b"", b"")] * 4  # a connection that says nothing (an idle keep-alive)
        ended: list[float] = []
        threads = [
            threading.Thread(target=_slow, args=(port, head, drip, until, ended))
            for head, drip in senders
        ]
        for thread in threads:
            thread.start()
        time.sleep(DEADLINE / 2)
        assert post(port, INIT)[0] == 200  # served meanwhile
        for thread in threads:
            thread.join(15)
        assert len(ended) == len(senders)
        # NOTE: generous: the deadline, then a loaded machine's delay.
        assert max(ended) < DEADLINE + 3, sorted(ended)
    finally:
        code, err = server.stop(signal.SIGTERM)
    assert code == 0 and "Traceback" not in err, err
