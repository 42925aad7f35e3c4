"""The bench's MCP client over HTTP (bench/http_client.py): every answer it takes is checked,
so a server answering wrong fails the bench instead of being timed; and the floor server of
bench/case_http.py answers it as a server would."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from case_http import FLOOR_SERVER  # noqa: E402
from http_client import HttpMcp, McpHttpError, call_body  # noqa: E402

GREETING = (
    b'{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"Hello, bench!"}]}}'
)


def answer(body: bytes, head: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n\r\n%s" % (head, len(body), body)


def scripted(answers: list[bytes]) -> int:
    """A server on a free port that answers its one connection's requests with `answers`, in
    order, each in pieces of 7 bytes (as the network may cut them)."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        listener.close()
        with conn:
            for data in answers:
                request = b""
                while b"\r\n\r\n" not in request:
                    request += conn.recv(65536)
                for at in range(0, len(data), 7):
                    try:
                        conn.sendall(data[at : at + 7])
                    except OSError:
                        return  # NOTE: the client refused the answer before its end
                    time.sleep(0.001)

    threading.Thread(target=serve, daemon=True).start()
    return int(listener.getsockname()[1])


def test_a_right_answer_in_pieces_passes() -> None:
    client = HttpMcp(scripted([answer(GREETING % 3)]))
    try:
        client.call(client.request(call_body(3)), 3)
    finally:
        client.close()


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (answer(GREETING % 4), "tools/call 3"),  # NOTE: another request's answer
        (answer(b'{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}'), "tools/call 3"),
        (answer((GREETING % 3)[:-2] + b',"isError":true}}'), "tools/call 3"),
        (answer(b"not json"), "tools/call 3"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n0\r\n\r\n", "Length"),
        (b"HTTP/1.1 200 OK\r\n\r\n", "Content-Length"),
    ],
)
def test_a_wrong_answer_fails(data: bytes, why: str) -> None:
    client = HttpMcp(scripted([data]))
    try:
        with pytest.raises(McpHttpError, match=why):
            client.call(client.request(call_body(3)), 3)
    finally:
        client.close()


@pytest.fixture
def floor() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    proc = subprocess.Popen([sys.executable, "-c", FLOOR_SERVER, str(port)])
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        proc.kill()
        proc.wait()


def test_the_floor_answers_a_session(floor: int) -> None:
    """Its session id is sent back, each answer carries its request's id."""
    client = HttpMcp(floor)
    try:
        client.initialize()
        assert b"Mcp-Session-Id: floor\r\n" in client.head
        for ident in (1, 2, 10, 123456):
            client.call(client.request(call_body(ident)), ident)
    finally:
        client.close()
