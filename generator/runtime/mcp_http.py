"""`--mcp --http [HOST:]PORT`: the MCP server over streamable HTTP, standard library only.

One endpoint, `/mcp`. A POST carries one JSON-RPC message (or a 2025-03-26 batch); its
requests are dispatched by `_McpServer.handle`, as on stdio, on the request's own thread, and
what they write (progress, log messages, the answer) streams back as server-sent events, or
as one JSON answer to a client that accepts only JSON. `initialize` opens a session
(`Mcp-Session-Id`); a 2026-07-28 request needs none. Loopback by default; `Host` and `Origin`
are checked against DNS rebinding; `--token-env NAME` requires `Authorization: Bearer`.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.errors import UsageError
from burgee.runtime.execute import _TIMEOUT_GRACE
from burgee.runtime.kinds import _load_json
from burgee.runtime.mcp_io import _MCP_LEGACY, _MCP_META, _MCP_MODERN, _http_address, _wire
from burgee.runtime.program import PROGRAM

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.mcp_io import _McpOptions

#: The largest request body, in bytes.
_HTTP_LIMIT = 4 * 1024 * 1024
#: How many requests are served at once (more are answered 503), and how many sessions live
#: (the least recently used one ends when another begins).
_HTTP_WORKERS = 32
_HTTP_SESSIONS = 256
#: Seconds a client may take to send a request, or to read an answer.
_HTTP_PATIENCE = 30
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


def _hostname(authority: str) -> str:
    """The host of `host[:port]` (`[v6]:port` too), lower case."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    return authority.rpartition(":")[0] if authority.count(":") == 1 else authority


def _modern(message: object) -> bool:
    """A 2026-07-28 request: its `_meta` names a protocol version (no session needed)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and _MCP_META + "protocolVersion" in meta


def _serve_http(options: _McpOptions, debug: bool, make: Callable[..., Any]) -> int:
    """Serve MCP over HTTP until SIGINT or SIGTERM; `make` builds one `_McpServer`."""
    import hmac
    import http.server
    import json
    import signal
    import socket
    import threading
    import time
    import uuid

    assert options.http is not None
    host, port = _http_address(options.http)
    token: str | None = None
    if options.token_env is not None:
        token = os.environ.get(options.token_env, "")
        if not token:
            raise UsageError(f"--token-env {options.token_env}: that variable is empty or unset")
    loopback = host in _LOOPBACK or host.startswith("127.")
    allowed = {host, *_LOOPBACK} if loopback else {host}
    if not loopback and token is None:
        sys.stderr.write(
            f"{PROGRAM}: warning: serving MCP on {host} without --token-env: anyone who can"
            " reach the port can call every tool\n"
        )
    # NOTE: owns the protocol's stdout; each 2026-07-28 request gets a server of its own made
    # from it, so ids, in-flight calls and cancellations never mix between clients.
    stateless = make(debug)
    sessions: dict[str, Any] = {}
    #: The servers answering a request now: a session's, or a 2026-07-28 request's own.
    busy: dict[Any, int] = {}
    guard = threading.Lock()
    slots = threading.BoundedSemaphore(_HTTP_WORKERS)
    versions = (_MCP_MODERN, *_MCP_LEGACY)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = PROGRAM
        timeout = _HTTP_PATIENCE

        def log_message(self, format: str, *args: Any) -> None:
            if debug:
                sys.stderr.write(f"{PROGRAM}: http: {format % args}\n")

        def answer(
            self, status: int, body: str = "", headers: dict[str, str] | None = None
        ) -> None:
            data = _wire(body)
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            if data:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":  # NOTE: RFC 9110: an answer to HEAD has no content
                self.wfile.write(data)

        def refuse(self, status: int, message: str, code: int = -32600, **headers: str) -> None:
            error = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
            shown = {name.replace("_", "-"): value for name, value in headers.items()}
            self.answer(status, json.dumps(error), shown)

        def checked(self) -> bool:
            """The endpoint, `Host` and `Origin` (DNS rebinding), and the bearer token."""
            if self.path.partition("?")[0] != "/mcp":
                self.refuse(404, "Not Found: the MCP endpoint is /mcp")
                return False
            if _hostname(self.headers.get("Host", "")) not in allowed:
                self.refuse(403, "Forbidden: this Host is not served")
                return False
            origin = self.headers.get("Origin")
            if origin is not None and _hostname(origin.partition("://")[2]) not in allowed:
                self.refuse(403, "Forbidden: requests from this Origin are refused")
                return False
            if token is not None:
                given = self.headers.get("Authorization", "").encode("utf-8", "replace")
                if not hmac.compare_digest(given, f"Bearer {token}".encode()):
                    self.refuse(401, "Unauthorized", WWW_Authenticate="Bearer")
                    return False
            version = self.headers.get("MCP-Protocol-Version")
            if version is not None and version not in versions:
                self.refuse(400, f"Bad Request: unsupported MCP-Protocol-Version {version!r}")
                return False
            return True

        def do_GET(self) -> None:
            if self.checked():
                # NOTE: nothing is ever sent outside the answer to a request.
                self.refuse(
                    405, "Method Not Allowed: POST a JSON-RPC message", Allow="POST, DELETE"
                )

        do_HEAD = do_PUT = do_PATCH = do_OPTIONS = do_GET

        def send_error(
            self, code: int, message: str | None = None, explain: str | None = None
        ) -> None:
            # NOTE: http.server's own errors (a method it has no handler for, a bad request
            # line) as JSON too, as every other answer of the endpoint; never an HTML page.
            self.close_connection = True
            phrase = http.HTTPStatus(code).phrase
            self.refuse(code, f"{phrase}: {message}" if message else phrase)

        def do_DELETE(self) -> None:
            if not self.checked():
                return
            with guard:
                ended = sessions.pop(self.headers.get("Mcp-Session-Id", ""), None)
            if ended is None:
                self.refuse(404, "Not Found: no such session")
            else:
                self.answer(200)

        def do_POST(self) -> None:
            if not self.checked():
                return
            if not slots.acquire(blocking=False):
                self.refuse(503, "Service Unavailable: too many requests at once", Retry_After="1")
                return
            try:
                self.post()
            finally:
                slots.release()

        def post(self) -> None:
            lengths = self.headers.get_all("Content-Length") or []
            if len(lengths) > 1 or (lengths and "Transfer-Encoding" in self.headers):
                # NOTE: where a proxy and this server could read different bodies (request
                # smuggling, RFC 9112 6.3): refused, and the connection closed.
                self.close_connection = True
                self.refuse(400, "Bad Request: one Content-Length, without Transfer-Encoding")
                return
            length = self.headers.get("Content-Length", "")
            if not length.isdigit():
                self.close_connection = True  # NOTE: whatever body came stays unread
                self.refuse(411, "Length Required")
                return
            if int(length) > _HTTP_LIMIT:
                self.refuse(413, f"Payload Too Large: at most {_HTTP_LIMIT} bytes")
                self.close_connection = True
                return
            media = self.headers.get("Content-Type", "").partition(";")[0].strip().lower()
            if media != "application/json":
                self.close_connection = True  # NOTE: its body stays unread
                self.refuse(415, "Unsupported Media Type: send application/json")
                return
            body = self.rfile.read(int(length))
            watch = False
            try:
                message = _load_json(body)
            except (ValueError, RecursionError):
                self.refuse(400, "Parse error", -32700)
                return
            items = message if isinstance(message, list) else [message]
            requests = [m for m in items if isinstance(m, dict) and "method" in m and "id" in m]
            opening = any(m.get("method") == "initialize" for m in requests)
            session = self.headers.get("Mcp-Session-Id")
            headers: dict[str, str] = {}
            if opening and not isinstance(message, list):
                server = make(debug, stateless)
                session = uuid.uuid4().hex
                with guard:
                    if len(sessions) >= _HTTP_SESSIONS:
                        # NOTE: clients seldom end their sessions; the least recently used goes.
                        del sessions[next(iter(sessions))]
                    sessions[session] = server
                headers["Mcp-Session-Id"] = session
            elif session is not None:
                with guard:
                    server = sessions.pop(session, None)
                    if server is not None:
                        sessions[session] = server  # now the most recently used
                if server is None:
                    self.refuse(404, "Not Found: no such session (initialize again)")
                    return
            elif items and all(_modern(m) for m in items):
                server = make(debug, stateless)
                watch = any(m.get("method") == "tools/call" for m in requests)
                header = self.headers.get("MCP-Protocol-Version")
                meta = items[0]["params"]["_meta"][_MCP_META + "protocolVersion"]
                if header is not None and header != meta:
                    self.refuse(400, "Header mismatch: MCP-Protocol-Version", -32020)
                    return
            else:
                self.refuse(400, "Bad Request: Mcp-Session-Id header is required")
                return
            if not requests:
                # NOTE: a 2026-07-28 `notifications/cancelled` reaches a server of its own, and
                # cancels nothing: over HTTP, a client cancels by closing its connection.
                server.handle(body)
                self.answer(202, "", headers)
                return
            accept = self.headers.get("Accept", "")
            stream = "text/event-stream" in accept
            if not stream and "application/json" not in accept and "*/*" not in accept:
                self.refuse(406, "Not Acceptable: accept application/json or text/event-stream")
                return
            with guard:
                busy[server] = busy.get(server, 0) + 1
            try:
                self.exchange(server, body, stream, headers, watch)
            finally:
                with guard:
                    busy[server] -= 1
                    if not busy[server]:
                        del busy[server]

        def exchange(
            self, server: Any, body: bytes, stream: bool, headers: dict[str, str], watch: bool
        ) -> None:
            """Dispatch on this thread; stream what it writes, or answer once. `watch`: a client
            that closes its connection meanwhile cancels the call (2026-07-28)."""
            done = threading.Event()
            if watch:
                threading.Thread(target=self.watch, args=(server, done), daemon=True).start()
            try:
                self.dispatch(server, body, stream, headers)
            finally:
                done.set()

        def watch(self, server: Any, done: threading.Event) -> None:
            """Until `done`: the client closing its connection abandons the server's calls."""
            import select

            connection = self.connection
            try:
                while not done.is_set():
                    if select.select([connection], [], [], 0.1)[0]:
                        # NOTE: readable: either the end of the connection, or the client's
                        # next request on it (it is still there; nothing more to watch).
                        if not connection.recv(1, socket.MSG_PEEK):
                            server.abandon()
                        return
            except (OSError, ValueError):
                server.abandon()

        def dispatch(self, server: Any, body: bytes, stream: bool, headers: dict[str, str]) -> None:
            written: list[str] = []
            if stream:
                self.send_response(200)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()

            def sink(text: str) -> None:
                if not stream:
                    written.append(text)
                    return
                event = _wire(f"event: message\ndata: {text}\n\n")
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                    self.wfile.flush()
                except OSError:
                    pass  # the client went away; the call still ends as it would

            thread = threading.get_ident()
            server.sinks[thread] = sink
            try:
                server.handle(body)
            finally:
                del server.sinks[thread]
            if stream:
                try:
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    self.close_connection = True
                return
            answers = [t for t in written if t.startswith(('{"jsonrpc":"2.0","id"', "["))]
            # NOTE: a request cancelled meanwhile is never answered: the POST gets a 202, as a
            # notification's does, not a 200 without a JSON body.
            self.answer(200 if answers else 202, answers[-1] if answers else "", headers)

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True
        #: Connections waiting to be accepted; more than `_HTTP_WORKERS` (they get a 503).
        request_queue_size = 4 * _HTTP_WORKERS
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

        def handle_error(self, request: Any, client_address: Any) -> None:
            # NOTE: a client that went away mid-request is not the server's error; anything
            # else is one line on stderr (with --debug, the traceback), not socketserver's dump.
            error = sys.exc_info()[1]
            if isinstance(error, (ConnectionError, TimeoutError)):
                return
            sys.stderr.write(f"{PROGRAM}: mcp: a request failed: {error!r}\n")
            if debug:
                import traceback

                traceback.print_exc()

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # NOTE: before the address is announced: whoever reads it may stop the server at once.
    signal.signal(signal.SIGTERM, stop)
    try:
        httpd = Server((host, port), Handler)
    except OSError as error:
        raise UsageError(f"--http {options.http}: cannot listen ({error.strerror})") from None
    bound = httpd.server_address[1]
    shown = f"[{host}]" if ":" in host else host
    try:
        sys.stderr.write(f"{PROGRAM}: MCP over HTTP at http://{shown}:{bound}/mcp\n")
        sys.stderr.flush()
        httpd.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        # NOTE: as over stdio: the calls still running are cancelled and given the grace
        # period, so their `finally` blocks and on_exit callbacks run. Looked at again each
        # time: a request read just before the stop may start its call only now.
        deadline = time.monotonic() + _TIMEOUT_GRACE
        while time.monotonic() < deadline:
            with guard:
                running = list(busy)
            if not running:
                break
            for server in running:
                server.abandon()
            time.sleep(0.005)
    finally:
        httpd.server_close()
    sys.stderr.write(f"{PROGRAM}: stopped\n")
    return 0
