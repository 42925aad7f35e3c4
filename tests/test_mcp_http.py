"""`mytool --mcp --http`: the streamable HTTP transport, its security defaults, and the
official Python SDK over it (the conformance suite: tests/test_mcp_conformance.py)."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.helpers import GOLDEN, generate, run
from tests.mcp_tool import HANDLERS as MCP_TOOL_HANDLERS
from tests.mcp_wire import INIT as WIRE_INIT
from tests.mcp_wire import MODERN_META, exchange, line
from tests.node_clients import HttpServer

PANTRY = GOLDEN / "pantry" / "pantry.py"
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
BOTH = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def pantry() -> Any:
    server = HttpServer(PANTRY)
    yield server
    server.stop(signal.SIGTERM)


def post(
    port: int, body: object, headers: dict[str, str] | None = None, raw: bytes | None = None
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = raw if raw is not None else json.dumps(body).encode()
    connection.request("POST", "/mcp", data, {**BOTH, **(headers or {})})
    response = connection.getresponse()
    answer = response.status, dict(response.getheaders()), response.read()
    connection.close()
    return answer


def events(body: bytes) -> list[Any]:
    """The JSON messages of a text/event-stream body."""
    return [
        json.loads(line[6:]) for line in body.decode().splitlines() if line.startswith("data: ")
    ]


def session(port: int) -> str:
    status, headers, _ = post(port, INIT)
    assert status == 200
    return headers["Mcp-Session-Id"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_python_sdk_over_http(pantry: HttpServer, mode: str) -> None:
    progress: list[float] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    async def go() -> dict[str, Any]:
        async with Client(pantry.url, mode=mode) as client:  # type: ignore[arg-type]
            return {
                "version": client.protocol_version,
                "tools": [t.name for t in (await client.list_tools()).tools],
                "restock": await client.call_tool(
                    "restock", {"steps": 3}, progress_callback=on_progress
                ),
                "prompt": await client.get_prompt("recipe", {"dish": "stew"}),
                "item": (await client.read_resource("pantry://items/sugar")).contents[0],
                "templates": (await client.list_resource_templates()).resource_templates,
            }

    found = asyncio.run(go())
    assert found["version"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert found["tools"] == ["stock", "restock", "wait", "use", "output"]
    assert found["restock"].structured_content == {"result": 3}
    assert progress == [1, 2, 3]
    assert found["prompt"].messages[0].content.text == "What do I need for stew?"
    assert json.loads(found["item"].text) == {"name": "sugar", "count": 0}
    assert [t.name for t in found["templates"]] == ["item", "label"]


def test_sessions_accept_and_notifications(pantry: HttpServer) -> None:
    port = pantry.port
    status, headers, body = post(port, INIT)
    assert (status, headers["Content-Type"]) == (200, "text/event-stream")
    assert events(body)[0]["result"]["protocolVersion"] == "2025-11-25"
    sid = headers["Mcp-Session-Id"]
    listing = {"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}
    # NOTE: a client that accepts only JSON gets one JSON answer.
    status, headers, body = post(
        port, listing, {"Mcp-Session-Id": sid, "Accept": "application/json"}
    )
    assert (status, headers["Content-Type"]) == (200, "application/json")
    assert [p["name"] for p in json.loads(body)["result"]["prompts"]] == ["shopping-list", "recipe"]
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert post(port, note, {"Mcp-Session-Id": sid})[0] == 202
    assert post(port, listing)[0] == 400  # a legacy request needs its session
    assert post(port, listing, {"Mcp-Session-Id": "nope"})[0] == 404
    assert post(port, listing, {"Mcp-Session-Id": sid, "Accept": "text/html"})[0] == 406
    assert (
        post(port, listing, {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "1999-01-01"})[0] == 400
    )
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": sid})
    assert connection.getresponse().status == 200
    connection.close()
    assert post(port, listing, {"Mcp-Session-Id": sid})[0] == 404


def test_security_defaults(pantry: HttpServer) -> None:
    port = pantry.port
    # NOTE: DNS rebinding: a page of evil.example resolving to 127.0.0.1 sends its own Host
    # or Origin, both refused.
    assert post(port, INIT, {"Host": "evil.example"})[0] == 403
    assert post(port, INIT, {"Origin": "http://evil.example"})[0] == 403
    assert post(port, INIT, {"Origin": f"http://localhost:{port}"})[0] == 200
    # NOTE: refused from its Content-Length, before a byte of it is read.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("POST", "/mcp")
    connection.putheader("Content-Length", str(4 * 1024 * 1024 + 1))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"]["message"].startswith("Payload Too Large")
    connection.close()
    assert post(port, None, raw=b"{not json")[0] == 400
    # NOTE: read as every input is (`test_no_input_takes_nan_or_infinity`, stdio included).
    # NOTE: refused as a value, its id read: answered under it (`test_mcp_protocol.py`).
    too_large = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": 1e400}}'
    status, _, body = post(port, None, raw=too_large)
    assert (status, json.loads(body)["id"], json.loads(body)["error"]["code"]) == (400, 1, -32602)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/mcp")
    response = connection.getresponse()
    assert (response.status, response.getheader("Allow")) == (405, "POST, DELETE")
    response.read()
    connection.request("POST", "/other", b"{}", BOTH)
    assert connection.getresponse().status == 404
    connection.close()
    # NOTE: every answer of the endpoint is JSON, http.server's own errors too.
    for method, status in (("PUT", 405), ("OPTIONS", 405), ("FOO", 501)):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request(method, "/mcp", b"{}", BOTH)
        response = connection.getresponse()
        assert (response.status, response.getheader("Content-Type")) == (
            status,
            "application/json",
        ), method
        assert json.loads(response.read())["error"]["code"] == -32600
        connection.close()
    # NOTE: read raw: http.client drops whatever follows the head of an answer to HEAD.
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"HEAD /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    raw = b""
    while chunk := sock.recv(4096):
        raw += chunk
    sock.close()
    assert raw.startswith(b"HTTP/1.1 405 ") and raw.endswith(b"\r\n\r\n"), raw
    text = {**BOTH, "Content-Type": "text/plain"}
    assert post(port, INIT, text)[0] == 415  # a browser sends text/plain without a preflight
    assert post(port, INIT, {"Content-Type": "application/json; charset=utf-8"})[0] == 200
    body = json.dumps(INIT).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Accept: application/json\r\nContent-Length: %d\r\nContent-Length: 5\r\n\r\n%s"
        % (len(body), body)
    )
    assert sock.recv(4096).startswith(b"HTTP/1.1 400 ")
    sock.close()


def test_bearer_token() -> None:
    env = {**os.environ, "PANTRY_TOKEN": "s3cret"}
    server = HttpServer(PANTRY, "--token-env", "PANTRY_TOKEN", env=env)
    try:
        status, headers, _ = post(server.port, INIT)
        assert (status, headers["WWW-Authenticate"]) == (401, "Bearer")
        assert post(server.port, INIT, {"Authorization": "Bearer wrong"})[0] == 401
        assert post(server.port, INIT, {"Authorization": "Bearer s3cret"})[0] == 200
    finally:
        server.stop(signal.SIGTERM)
    unset = run(PANTRY, "--mcp", "--http", "0", "--token-env", "NO_SUCH_VARIABLE_15")
    assert unset.code == 2
    assert "NO_SUCH_VARIABLE_15" in unset.error_line()["error"]["message"]


def test_concurrency_is_bounded(tmp_path: Path) -> None:
    tool = generate(tmp_path, MCP_TOOL_HANDLERS)
    server = HttpServer(tool)
    try:
        sid = session(server.port)
        call = {
            "jsonrpc": "2.0",
            "method": "tools/call",
            "params": {"name": "slow", "arguments": {"steps": 1, "delay": 3}},
        }
        statuses: list[int] = []

        def one(ident: int) -> None:
            statuses.append(post(server.port, {**call, "id": ident}, {"Mcp-Session-Id": sid})[0])

        threads = [threading.Thread(target=one, args=(i,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(statuses) == [200] * 32 + [503] * 8
    finally:
        server.stop(signal.SIGTERM)


def test_two_batches_of_one_session_at_once_each_get_their_own_answers(tmp_path: Path) -> None:
    """Protocol 2025-03-26's batches: a second batch arriving while the first still runs must
    not take the first one's answers, nor send its own loose."""
    tool = generate(tmp_path, MCP_TOOL_HANDLERS)
    server = HttpServer(tool)
    try:
        init = {**INIT, "params": {**INIT["params"], "protocolVersion": "2025-03-26"}}
        status, headers, _ = post(server.port, init)
        assert status == 200
        sid = headers["Mcp-Session-Id"]

        def call(ident: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            params = {"name": name, "arguments": arguments}
            return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}

        got: dict[str, Any] = {}

        def send(key: str, batch: list[dict[str, Any]]) -> None:
            status, _, body = post(server.port, batch, {"Mcp-Session-Id": sid})
            got[key] = (status, body)

        first = [call(1, "slow", {"steps": 1, "delay": 0.8}), call(2, "greet", {"name": "a"})]
        second = [call(3, "slow", {"steps": 1, "delay": 0.1}), call(4, "greet", {"name": "b"})]
        one = threading.Thread(target=send, args=("first", first))
        one.start()
        threading.Event().wait(0.3)
        two = threading.Thread(target=send, args=("second", second))
        two.start()
        one.join(30)
        two.join(30)
        for key, ids in (("first", [1, 2]), ("second", [3, 4])):
            status, body = got[key]
            assert status == 200, body
            text = body.decode()
            answers = events(body) if text.startswith(("event:", "data:")) else [json.loads(text)]
            assert len(answers) == 1 and isinstance(answers[0], list), text
            assert [answer["id"] for answer in answers[0]] == ids
            assert all(answer["result"]["isError"] is False for answer in answers[0])
    finally:
        server.stop(signal.SIGTERM)


def test_a_cancelled_request_gets_no_answer_but_an_accepted(tmp_path: Path) -> None:
    """A request cancelled while it runs is never answered: its POST ends with 202 and no
    body (a JSON response of nothing would not parse)."""
    tool = generate(tmp_path, MCP_TOOL_HANDLERS)
    server = HttpServer(tool)
    try:
        sid = session(server.port)
        plain = {"Mcp-Session-Id": sid, "Accept": "application/json"}
        params = {"name": "slow", "arguments": {"steps": 100, "delay": 0.05}}
        call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}
        got: list[tuple[int, dict[str, str], bytes]] = []
        waiting = threading.Thread(target=lambda: got.append(post(server.port, call, plain)))
        waiting.start()
        threading.Event().wait(0.5)
        cancel = {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 7, "reason": "no longer needed"},
        }
        assert post(server.port, cancel, plain)[0] == 202
        waiting.join(30)
        assert [(status, body) for status, _, body in got] == [(202, b"")]
    finally:
        server.stop(signal.SIGTERM)


def test_a_client_that_resets_its_connection_leaves_no_traceback() -> None:
    server = HttpServer(PANTRY)
    try:
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
            # NOTE: linger 0: the close is a reset (RST), not an orderly end of the stream.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        assert session(server.port)  # still serving
    finally:
        code, err = server.stop(signal.SIGTERM)
    assert code == 0
    assert "Traceback" not in err and "Exception" not in err, err


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_signals_stop_it_cleanly(sent: int) -> None:
    server = HttpServer(PANTRY)
    code, err = server.stop(sent)
    assert code == 0
    assert err == "pantry: stopped\n"


def test_loopback_by_default_and_host_needs_naming() -> None:
    server = HttpServer(PANTRY)
    try:
        assert server.url.startswith("http://127.0.0.1:")
    finally:
        server.stop(signal.SIGTERM)
    assert run(PANTRY, "--mcp", "--http", "nope").code == 2


def test_sessions_are_bounded_least_recently_used_first(pantry: HttpServer) -> None:
    listing = {"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}
    first, second = session(pantry.port), session(pantry.port)
    assert post(pantry.port, listing, {"Mcp-Session-Id": first})[0] == 200  # first: used last
    for _ in range(255):
        session(pantry.port)
    # NOTE: 256 sessions live; the 258th to begin ended `second`, the least recently used.
    assert post(pantry.port, listing, {"Mcp-Session-Id": second})[0] == 404
    assert post(pantry.port, listing, {"Mcp-Session-Id": first})[0] == 200


def test_a_result_with_undecodable_bytes_is_answered_over_http_as_over_stdio(
    tmp_path: Path,
) -> None:
    """A handler's text decoded with `surrogateescape` holds lone surrogates: written as JSON's
    own escape, the answer is valid JSON on both transports (over HTTP it was never sent)."""
    tool = generate(
        tmp_path,
        """
        from burgee import command


        @command(effects="read_only")
        def raw() -> str:
            \"\"\"Bytes that are not UTF-8, as a child process might print them.\"\"\"
            return b"caf\\xe9".decode("utf-8", "surrogateescape")


        @command(effects="read_only")
        def ping() -> str:
            \"\"\"Pong.\"\"\"
            return "pong"
        """,
    )
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "raw"}}
    call["params"]["arguments"] = {}  # type: ignore[index]
    messages, _, _, _ = exchange(tool, line(WIRE_INIT) + line(call))
    over_stdio = messages[-1]["result"]["structuredContent"]
    assert over_stdio == {"result": "caf\udce9"}
    server = HttpServer(tool)
    try:
        sid = session(server.port)
        status, _, body = post(server.port, call, {"Mcp-Session-Id": sid})
        assert status == 200
        (answer,) = events(body)
        assert answer["result"]["structuredContent"] == over_stdio
    finally:
        server.stop(signal.SIGTERM)


ENDINGS = '''
import time
from pathlib import Path

from burgee import Context, command


@command(effects="read_only")
def wait(mark: str, seconds: float = 30.0, ctx: Context = None) -> str:
    """Wait until cancelled or done; write how it ended to the file `mark`."""
    ctx.on_exit(lambda: Path(mark).write_text("cancelled" if ctx.cancelled.is_set() else "done"))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not ctx.cancelled.is_set():
        time.sleep(0.01)
    return "woke"


@command(effects="read_only")
def hello() -> str:
    """Say hello (a second command: a tool of one command is named as the program)."""
    return "hello"
'''


def _modern(ident: Any, method: str, **params: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if ident is not None:
        message["id"] = ident
    message["params"] = {**params, "_meta": MODERN_META}
    return message


def _wait_call(ident: Any, mark: Path, seconds: float) -> dict[str, Any]:
    arguments = {"mark": str(mark), "seconds": seconds}
    return _modern(ident, "tools/call", name="wait", arguments=arguments)


def _ended(mark: Path, within: float = 20) -> str:
    deadline = time.monotonic() + within
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return mark.read_text() if mark.exists() else "still running"


@pytest.fixture(scope="module")
def endings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("endings"), ENDINGS)


def test_2026_requests_of_two_clients_are_apart(endings: Path, tmp_path: Path) -> None:
    """Session-less requests stand alone: two clients may use the same id at once, and one's
    `notifications/cancelled` cancels nothing of the other's (over HTTP, a client cancels by
    closing its connection)."""
    server = HttpServer(endings)
    try:
        plain = {"Accept": "application/json"}
        got: list[tuple[int, dict[str, str], bytes]] = []
        calls = [
            threading.Thread(
                target=lambda n=n: got.append(
                    post(server.port, _wait_call(1, tmp_path / f"m{n}", 0.6), plain)
                )
            )
            for n in range(2)
        ]
        for call in calls:
            call.start()
        time.sleep(0.2)
        stray = _modern(None, "notifications/cancelled", requestId=1)
        assert post(server.port, stray, plain)[0] == 202
        for call in calls:
            call.join(30)
        answers = [json.loads(body) for status, _, body in got if status == 200]
        assert [a["result"]["structuredContent"] for a in answers] == [{"result": "woke"}] * 2
        assert [_ended(tmp_path / f"m{n}") for n in range(2)] == ["done", "done"]
    finally:
        server.stop(signal.SIGTERM)


def test_a_2026_client_closing_its_connection_cancels_its_call(
    endings: Path, tmp_path: Path
) -> None:
    """The 2026-07-28 way to cancel over HTTP: the server MUST treat a disconnect so."""
    server = HttpServer(endings)
    try:
        body = json.dumps(_wait_call(1, tmp_path / "mark", 30)).encode()
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
        head += "Content-Type: application/json\r\nAccept: text/event-stream\r\n\r\n"
        sock.sendall(head.encode() + body)
        time.sleep(0.4)
        sock.close()
        assert _ended(tmp_path / "mark") == "cancelled"
    finally:
        server.stop(signal.SIGTERM)


@pytest.mark.parametrize("modern", [True, False])
def test_sigterm_lets_the_calls_in_flight_end(endings: Path, tmp_path: Path, modern: bool) -> None:
    """As over stdio: cancelled, with the grace period for `finally` and on_exit."""
    server = HttpServer(endings)
    headers = {"Accept": "application/json"}
    call = _wait_call(1, tmp_path / "mark", 30)
    if not modern:
        headers["Mcp-Session-Id"] = session(server.port)
        call["params"].pop("_meta")
    waiting = threading.Thread(target=lambda: post(server.port, call, headers), daemon=True)
    waiting.start()
    time.sleep(0.4)
    code, err = server.stop(signal.SIGTERM)
    assert code == 0, err
    assert (tmp_path / "mark").read_text() == "cancelled"


def _restarted(server: HttpServer) -> HttpServer:
    """The server stopped and started again on the same port: every session it held is lost."""
    server.stop(signal.SIGTERM)
    return HttpServer(PANTRY, address=str(server.port))


def test_the_python_sdk_raises_on_a_lost_session_and_does_not_start_over() -> None:
    """What docs/mcp.md says a session client does on `404`: the Python SDK's raises at once."""
    first = HttpServer(PANTRY)

    async def go() -> str:
        async with Client(first.url, mode="legacy") as client:
            await client.list_tools()
            again = _restarted(first)
            try:
                await client.call_tool("stock", {"name": "salt"})
            except Exception as error:  # noqa: BLE001 (what it raises is what is checked)
                return f"{type(error).__name__}: {error}"
            finally:
                again.stop(signal.SIGTERM)
            return "answered"

    started = time.monotonic()
    said = asyncio.run(go())
    assert said.startswith("MCPError: Not Found: no session ") and "initialize again" in said
    assert time.monotonic() - started < 20


@pytest.mark.slow
def test_the_typescript_sdk_raises_on_a_lost_session_and_keeps_its_id() -> None:
    """The same with the TypeScript SDK's client (`tests/node/lost_session.mjs`)."""
    import subprocess  # noqa: PLC0415

    from tests.node_clients import NODE_DIR, node  # noqa: PLC0415

    first = HttpServer(PANTRY)
    client = subprocess.Popen(
        [str(node()), "lost_session.mjs", first.url, "stock", '{"name": "salt"}'],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=NODE_DIR,
    )
    assert client.stdout is not None and client.stdin is not None
    assert client.stdout.readline().strip() == "connected"
    again = _restarted(first)
    try:
        out, err = client.communicate("go\n", timeout=120)
    finally:
        again.stop(signal.SIGTERM)
    seen = json.loads(out)
    assert seen["raised"]["code"] == 404, (seen, err)
    assert f"no session {seen['session']} here" in seen["raised"]["message"]
    assert seen["sessionAfter"] == seen["session"] and seen["seconds"] < 20
