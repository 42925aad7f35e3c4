"""A minimal MCP client over HTTP/1.1 on one raw socket, as cheap as the stdio one (mcp_client).

One kept-alive connection with `TCP_NODELAY`; a request is its head and body in one
`sendall` (each call's bytes made before the timing starts, as the stdio client's are); an
answer is read by its status line and `Content-Length` alone. Every server the bench runs
answers `Accept: application/json` with a length (the stdlib server, uvicorn's h11), so
chunked and SSE answers are refused (`McpHttpError`), never misread. Each answer is parsed
with `json.loads`, and its id and result are checked, as over stdio: a wrong answer fails
the bench. `http.client` costs 80-130 µs of CPU a request (its head read by the email
package, the request sent in two writes), about a whole stdio round trip: with it no
server could be compared with its own stdio rate.
"""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

PROTOCOL_VERSION = "2025-11-25"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "burgee-bench", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
GREETING = b"Hello, bench!"


class McpHttpError(RuntimeError):
    """The server did not answer as an MCP server over HTTP should."""


def call_body(msg_id: int) -> bytes:
    """`tools/call greet` for "bench", with its id."""
    params = {"name": "greet", "arguments": {"name": "bench"}}
    msg = {"jsonrpc": "2.0", "id": msg_id, "method": "tools/call", "params": params}
    return json.dumps(msg, separators=(",", ":")).encode()


class HttpMcp:
    """One kept-alive connection to an MCP endpoint, with its session once `initialize`d."""

    def __init__(self, port: int, path: str = "/mcp", timeout: float = 60.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # NOTE: the system's timeouts, not Python's: with a timeout of its own, a socket polls
        # before every send and receive, a system call more each.
        self.sock.settimeout(None)
        limit = struct.pack("ll", int(timeout), 0)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, limit)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, limit)
        self.buffer = b""
        self.head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nAccept: application/json\r\n"
        ).encode()

    def request(self, body: bytes) -> bytes:
        """The bytes of one POST of body, in this connection's session."""
        return b"%sContent-Length: %d\r\n\r\n%s" % (self.head, len(body), body)

    def exchange(self, request: bytes) -> tuple[int, bytes, bytes]:
        """Send one request; its answer's status, head and body."""
        self.sock.sendall(request)
        return self.answer()

    def answer(self) -> tuple[int, bytes, bytes]:
        data = self.buffer
        end = data.find(b"\r\n\r\n")
        while end < 0:
            data += self._more()
            end = data.find(b"\r\n\r\n")
        # NOTE: the head is searched, not split into fields: the client's time is the row's.
        head = data[:end] + b"\r\n"
        low = head.lower()
        at = low.find(b"\r\ncontent-length:")
        if not low.startswith(b"http/1.") or at < 0 or b"\r\ntransfer-encoding:" in low:
            raise McpHttpError(f"an answer without Content-Length: {data[: end + 4]!r}")
        start = end + 4
        stop = start + int(low[at + 17 : low.index(b"\r\n", at + 17)])
        while len(data) < stop:
            data += self._more()
        self.buffer = data[stop:]
        return int(head[9:12]), head, data[start:stop]

    def field(self, head: bytes, name: bytes) -> bytes | None:
        """The value of the field `name` (lower case) of an answer's head."""
        at = head.lower().find(b"\r\n" + name + b":")
        if at < 0:
            return None
        return head[at + len(name) + 3 : head.index(b"\r\n", at + 2)].strip()

    def _more(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise McpHttpError("the server closed the connection before answering")
        return chunk

    def initialize(self) -> None:
        """`initialize` and `notifications/initialized`; later requests carry the session."""
        body = json.dumps(INITIALIZE).encode()
        status, head, answer = self.exchange(self.request(body))
        if status != 200 or b'"result"' not in answer:
            raise McpHttpError(f"initialize: HTTP {status}: {answer[:200]!r}")
        session = self.field(head, b"mcp-session-id")
        if session:
            self.head += b"Mcp-Session-Id: %s\r\n" % session
        self.head += b"MCP-Protocol-Version: %s\r\n" % PROTOCOL_VERSION.encode()
        status, _, answer = self.exchange(self.request(json.dumps(INITIALIZED).encode()))
        if status != 202:
            raise McpHttpError(f"notifications/initialized: HTTP {status}: {answer[:200]!r}")

    def call(self, request: bytes, msg_id: int) -> None:
        """One lock-step `tools/call greet` (request from `self.request(call_body(msg_id))`)."""
        status, _, answer = self.exchange(request)
        check_call(status, answer, msg_id)

    def close(self) -> None:
        self.sock.close()


def check_call(status: int, answer: bytes, msg_id: int) -> None:
    """Raise McpHttpError unless answer is the greeting's result for msg_id."""
    try:
        msg: Any = json.loads(answer)
    except ValueError:
        msg = None
    if (
        status != 200
        or not isinstance(msg, dict)
        or msg.get("id") != msg_id
        or not isinstance(msg.get("result"), dict)
        or msg["result"].get("isError")
        or GREETING not in answer
    ):
        raise McpHttpError(f"tools/call {msg_id}: HTTP {status}: {answer[:300]!r}")
