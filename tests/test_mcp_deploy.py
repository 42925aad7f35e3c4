"""Serving MCP over HTTP for a team: `GET /health`, `--path`, `--allow-origin` (CORS),
`--token-file`, `--mcp --help`; and `asgi`, the same endpoint as an ASGI application, under a
real `uvicorn tool:asgi --workers 2`."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.helpers import GOLDEN, generate, run
from tests.mcp_wire import MODERN_META
from tests.node_clients import JSON, HttpServer, Uvicorn, free_port, request

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
LISTING = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": MODERN_META}}
#: A tool whose answers say which process gave them.
WORKERS = '''
import os

from burgee import command, program

program(name="workers", version="1.0.0")

@command(effects="read_only")
def pid() -> int:
    """The process id of the worker that answers."""
    return os.getpid()


@command(effects="read_only")
def echo(text: str) -> str:
    """Say it back.

    Args:
        text: What to say.
    """
    return text
'''


def result(body: bytes) -> Any:
    """The result of a JSON answer, or of the last event of an event stream."""
    text = body.decode()
    if text.startswith("{"):
        return json.loads(text)["result"]
    data = [line[6:] for line in text.splitlines() if line.startswith("data: ")]
    return json.loads(data[-1])["result"]


def test_mcp_help_names_every_option() -> None:
    shown = run(PANTRY, "--mcp", "--help")
    assert shown.code == 0, shown.err
    for option in (
        "--http",
        "--path PATH",
        "--token-env NAME",
        "--token-file PATH",
        "--allow-host NAME",
        "--allow-origin ORIGIN",
        "--print-config",
        "GET /health",
        "uvicorn pantry:asgi",
        "PANTRY_MCP_",
    ):
        assert option in shown.out, option
    wrong = run(PANTRY, "--mcp", "--nope")
    assert wrong.code == 2
    assert "--mcp --help" in wrong.error_line()["error"]["hint"]


def test_health_path_and_token_file(tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text("s3cret\n")
    server = HttpServer(PANTRY, "--path", "/api/mcp", "--token-file", str(secret))
    try:
        assert server.url.endswith("/api/mcp")
        # NOTE: no token, any Host: a load balancer probes by address.
        for host in ("127.0.0.1", "10.0.0.7:8000"):
            status, _, body = request(server.port, "GET", "/health", headers={"Host": host})
            assert (status, json.loads(body)) == (200, {"status": "ok"})
        assert request(server.port, "HEAD", "/health")[0] == 200
        token = {"Authorization": "Bearer s3cret"}
        assert request(server.port, "POST", "/mcp", LISTING, token)[0] == 404
        assert request(server.port, "POST", "/api/mcp", LISTING)[0] == 401
        status, _, body = request(server.port, "POST", "/api/mcp", LISTING, token)
        assert status == 200
        assert "stock" in [tool["name"] for tool in result(body)["tools"]]
    finally:
        server.stop(signal.SIGTERM)


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read it"), ("", "the file is empty"), (" \n", "the file is empty")],
)
def test_token_file_problems_are_usage_errors(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "token"
    if content is not None:
        path.write_text(content)
    failed = run(PANTRY, "--mcp", "--http", "0", "--token-file", str(path))
    assert failed.code == 2
    assert "Traceback" not in failed.err
    error = failed.error_line()["error"]
    assert (error["kind"], str(path) in error["message"]) == ("usage", True)
    assert message in error["message"]


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("world-writable", "others may write it"),
        ("group-writable", "others may write it"),
        ("fifo", "not a regular file"),
        ("directory", "not a regular file"),
    ],
)
def test_a_token_file_others_may_write_or_no_file_is_refused(
    tmp_path: Path, kind: str, message: str
) -> None:
    """As ssh refuses a key others may change: a token file others may write is refused, and
    so is what is no regular file (a FIFO, which once blocked start-up for ever)."""
    path = tmp_path / "token"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.write_text("s3cret\n")
        path.chmod(0o666 if kind == "world-writable" else 0o620)
    failed = run(PANTRY, "--mcp", "--http", "0", "--token-file", str(path))
    assert failed.code == 2, failed.err
    error = failed.error_line()["error"]
    assert (error["kind"], str(path) in error["message"]) == ("usage", True)
    assert message in error["message"]
    # NOTE: the same file through a symlink (a Kubernetes secret is one) is read as the file.
    if kind == "world-writable":
        path.chmod(0o644)
        (tmp_path / "link").symlink_to(path)
        server = HttpServer(PANTRY, "--token-file", str(tmp_path / "link"))
        server.stop(signal.SIGTERM)


def test_an_empty_host_header_gets_400() -> None:
    """An empty `Host:` is no `HOST[:PORT]`, even where any host is allowed."""
    server = HttpServer(PANTRY, "--allow-host", "*")
    try:
        for host in ("", " "):
            status, _, body = request(server.port, "POST", "/mcp", LISTING, {"Host": host})
            assert status == 400, (host, body)
        assert request(server.port, "POST", "/mcp", INIT, {"Host": "any.example"})[0] == 200
    finally:
        server.stop(signal.SIGTERM)


def test_options_that_go_together() -> None:
    both = run(PANTRY, "--mcp", "--http", "0", "--token-env", "A", "--token-file", "b")
    assert both.code == 2
    assert "give one of them" in both.error_line()["error"]["message"]
    for args in (["--path", "/x"], ["--allow-origin", "https://a.example"]):
        alone = run(PANTRY, "--mcp", *args)
        assert alone.code == 2
        assert "goes with --http" in alone.error_line()["error"]["message"]
    for args in (["--path", "mcp"], ["--path", "/health"], ["--allow-origin", "a.example"]):
        wrong = run(PANTRY, "--mcp", "--http", "0", *args)
        assert wrong.code == 2, args


def test_print_config_path_and_token_file(tmp_path: Path) -> None:
    shown = run(
        PANTRY,
        "--mcp",
        "--print-config",
        "--client",
        "vscode",
        "--http",
        "8123",
        "--path",
        "/api/mcp",
        "--token-file",
        str(tmp_path / "token"),
    )
    assert shown.code == 0, shown.err
    assert json.loads(shown.out) == {
        "servers": {
            "pantry": {
                "type": "http",
                "url": "http://127.0.0.1:8123/api/mcp",
                "headers": {"Authorization": "Bearer ${env:PANTRY_MCP_TOKEN}"},
            }
        }
    }
    assert "set PANTRY_MCP_TOKEN" in shown.err


def test_allow_origin_answers_browser_pages_with_cors(tmp_path: Path) -> None:
    env = {**os.environ, "PANTRY_TOKEN": "s3cret"}
    server = HttpServer(
        PANTRY, "--allow-origin", "https://App.example", "--token-env", "PANTRY_TOKEN", env=env
    )
    try:
        page = {"Origin": "https://app.example"}
        # NOTE: a browser's preflight has no credentials: it is answered before the token.
        status, headers, _ = request(
            server.port, "OPTIONS", headers={**page, "Access-Control-Request-Method": "POST"}
        )
        assert status == 204
        assert headers["access-control-allow-origin"] == "https://app.example"
        assert "Authorization" in headers["access-control-allow-headers"]
        status, headers, _ = request(server.port, "POST", body=INIT, headers=page)
        assert status == 401  # and the page may read why
        assert headers["access-control-allow-origin"] == "https://app.example"
        token = {**page, "Authorization": "Bearer s3cret"}
        status, headers, _ = request(server.port, "POST", body=INIT, headers=token)
        assert status == 200
        assert "Mcp-Session-Id" in headers["access-control-expose-headers"]
        other = {"Origin": "https://other.example", "Authorization": "Bearer s3cret"}
        status, headers, _ = request(server.port, "POST", body=INIT, headers=other)
        assert status == 403
        assert "access-control-allow-origin" not in headers
    finally:
        server.stop(signal.SIGTERM)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tool = generate(tmp_path_factory.mktemp("asgi"), WORKERS)
    env = {"WORKERS_MCP_TOKEN": "s3cret", "WORKERS_MCP_ALLOW_HOST": "mcp.example, other.example"}
    server = Uvicorn(tool, 2, env)
    yield server
    server.stop()


AUTH = {"Authorization": "Bearer s3cret"}


def test_asgi_serves_stateless_requests_across_workers(served: Uvicorn) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "pid", "arguments": {}, "_meta": MODERN_META},
    }
    pids: set[int] = set()
    deadline = time.monotonic() + 30
    # NOTE: each request on a connection of its own: whichever worker accepts it answers.
    while len(pids) < 2 and time.monotonic() < deadline:
        status, headers, body = request(served.port, "POST", body=call, headers=AUTH)
        assert (status, headers["content-type"]) == (200, "text/event-stream"), body
        pids.add(result(body)["structuredContent"]["result"])
    assert len(pids) == 2
    status, headers, body = request(
        served.port, "POST", body=LISTING, headers={**AUTH, "Accept": "application/json"}
    )
    assert (status, headers["content-type"]) == (200, "application/json")
    assert [tool["name"] for tool in result(body)["tools"]] == ["pid", "echo", "output"]


def test_asgi_with_the_python_sdk(served: Uvicorn) -> None:
    async def go() -> tuple[str, list[str], Any]:
        http = httpx2.AsyncClient(headers=AUTH)
        transport = streamable_http_client(served.url, http_client=http)
        async with Client(transport, mode="2026-07-28") as client:
            tools = [tool.name for tool in (await client.list_tools()).tools]
            said = await client.call_tool("echo", {"text": "hello"})
            return client.protocol_version, tools, said

    version, tools, said = asyncio.run(go())
    assert (version, tools) == ("2026-07-28", ["pid", "echo", "output"])
    assert (said.is_error, said.structured_content) == (False, {"result": "hello"})


def test_asgi_checks_as_the_stdlib_server_does(served: Uvicorn) -> None:
    port = served.port
    status, _, body = request(port, "GET", "/health")
    assert (status, json.loads(body)) == (200, {"status": "ok"})
    status, headers, _ = request(port, "POST", body=LISTING)
    assert (status, headers.get("www-authenticate")) == (401, "Bearer"), headers
    assert request(port, "POST", body=LISTING, headers={"Authorization": "Bearer no"})[0] == 401
    assert request(port, "POST", body=LISTING, headers={**AUTH, "Host": "evil.example"})[0] == 403
    named = {**AUTH, "Host": "mcp.example:443"}
    assert request(port, "POST", body=LISTING, headers=named)[0] == 200
    evil = {**AUTH, "Origin": "http://evil.example"}
    assert request(port, "POST", body=LISTING, headers=evil)[0] == 403
    assert request(port, "GET", headers=AUTH)[0] == 405
    assert request(port, "POST", "/other", LISTING, AUTH)[0] == 404
    text = {**AUTH, "Content-Type": "text/plain"}
    assert request(port, "POST", body=LISTING, headers=text)[0] == 415
    # NOTE: a session era request: its session lives in the worker that opened it (sticky
    # sessions, docs/mcp.md "Deploying"); without one, refused as the stdlib server does.
    assert request(port, "POST", body={**LISTING, "params": {}}, headers=AUTH)[0] == 400
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("POST", "/mcp")
    connection.putheader("Content-Length", str(4 * 1024 * 1024 + 1))
    for name, value in {**JSON, **AUTH}.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    connection.close()


def test_asgi_settings_problems_stop_the_start(tmp_path: Path) -> None:
    generate(tmp_path, WORKERS)
    env = {**os.environ, "WORKERS_MCP_TOKEN_FILE": str(tmp_path / "missing")}
    failed = subprocess.run(
        [sys.executable, "-m", "uvicorn", "tool:asgi", "--port", str(free_port())],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert failed.returncode != 0
    missing = tmp_path / "missing"
    assert f"workers: WORKERS_MCP_TOKEN_FILE {missing}: cannot read it" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_asgi_sessions_live_in_one_worker(served: Uvicorn) -> None:
    """Why the session eras need sticky sessions (docs/mcp.md, "Deploying"): the session lives
    in the worker that answered `initialize`; the other one does not know it."""
    status, headers, _ = request(served.port, "POST", body=INIT, headers=AUTH)
    assert status == 200
    session = {**AUTH, "Mcp-Session-Id": headers["mcp-session-id"]}
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    statuses: set[int] = set()
    deadline = time.monotonic() + 30
    while statuses != {200, 404} and time.monotonic() < deadline:
        status, _, body = request(served.port, "POST", body=listing, headers=session)
        statuses.add(status)
        if status == 404:
            # NOTE: the session is named: another worker does not hold it.
            said = json.loads(body)["error"]["message"]
            assert f"no session {headers['mcp-session-id']} here" in said
    assert statuses == {200, 404}
