"""`--mcp --http [HOST:]PORT`: the MCP server over streamable HTTP, standard library only.

One endpoint, `/mcp`. A POST carries one JSON-RPC message (or a 2025-03-26 batch); its
requests are dispatched by `_McpServer.handle`, as on stdio, on the request's own thread, and
what they write (progress, log messages, the answer) streams back as server-sent events, or
as one JSON answer to a client that accepts only JSON. `initialize` opens a session
(`Mcp-Session-Id`); a 2026-07-28 request needs none. Loopback by default; `Host` and `Origin`
are checked against DNS rebinding (`--allow-host NAME` adds a name); `--token-env NAME`
requires `Authorization: Bearer`. Nothing is ever written to stdout.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.errors import UsageError
from burgee.runtime.execute import _TIMEOUT_GRACE
from burgee.runtime.kinds import _load_json
from burgee.runtime.mcp_ask import _nobody_answers
from burgee.runtime.mcp_io import (
    _MCP_LEGACY,
    _MCP_META,
    _MCP_MODERN,
    _WILDCARDS,
    _http_address,
    _url,
    _wire,
)
from burgee.runtime.program import PROGRAM

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.mcp_io import _McpOptions

#: The largest request body, in bytes.
_HTTP_LIMIT = 4 * 1024 * 1024
#: How many requests are served at once, once read (more are answered 503), and how many
#: sessions live (the least recently used one ends when another begins).
_HTTP_WORKERS = 32
_HTTP_SESSIONS = 256
#: Seconds a client may take to send the head of a request (its line and headers; on a
#: connection kept alive, counted from the previous answer), and then its body: one deadline
#: for each, however the bytes trickle in.
_HTTP_HEAD_SECONDS = 30.0
_HTTP_BODY_SECONDS = 30.0
#: Seconds a client may take to take in one write of an answer.
_HTTP_PATIENCE = 30
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


def _hostname(authority: str) -> str | None:
    """The host of `host[:port]` (`[v6]:port` too), lower case; None if it is not that."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        host, bracket, rest = authority[1:].partition("]")
        if not bracket:
            return None
    else:
        host, colon, rest = authority.partition(":")
        rest = colon + rest
    port = rest[1:]
    if rest and not (rest[0] == ":" and port.isascii() and port.isdigit()):
        return None
    return host


def _modern(message: object) -> bool:
    """A 2026-07-28 request: its `_meta` names a protocol version (no session needed)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and _MCP_META + "protocolVersion" in meta


def _serve_http(options: _McpOptions, debug: bool, make: Callable[..., Any]) -> int:
    """Serve MCP over HTTP until SIGINT or SIGTERM; `make` builds one `_McpServer`."""
    import hmac
    import http.server
    import io
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
    wildcard = host in _WILDCARDS
    loopback = host in _LOOPBACK or host.startswith("127.")
    # NOTE: DNS rebinding: a page whose name resolves to this machine sends that name as its
    # Host. Only the names of this server pass: loopback ones where it listens there (every
    # address included), the address it was given, and those --allow-host names.
    allowed = set(options.allow_hosts)
    if loopback or wildcard:
        allowed.update(_LOOPBACK)
    if not wildcard:
        allowed.add(host.lower())
    if not loopback and token is None:
        sys.stderr.write(
            f"{PROGRAM}: warning: serving MCP on {host} without --token-env: anyone who can"
            " reach the port can call every tool\n"
        )
    # NOTE: owns the protocol's stdout; each 2026-07-28 request gets a server of its own made
    # from it, so ids, in-flight calls and cancellations never mix between clients.
    stateless = make(debug)
    # NOTE: every message of a request goes to the request's sink; one that found none must
    # not reach stdout either, which nobody reads: once its pipe is full, the server blocks.
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, stateless.out)
    os.close(null)
    sessions: dict[str, Any] = {}
    #: The servers answering a request now: a session's, or a 2026-07-28 request's own.
    busy: dict[Any, int] = {}
    guard = threading.Lock()
    slots = threading.BoundedSemaphore(_HTTP_WORKERS)
    versions = (_MCP_MODERN, *_MCP_LEGACY)

    class Reads(io.RawIOBase):
        """A connection's reads, all under one deadline (`until`), not each its own: a client
        sending a byte now and then is held to it too."""

        def __init__(self, connection: socket.socket) -> None:
            self.connection = connection
            self.until = 0.0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            left = self.until - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out")  # noqa: UP041 (3.9: not yet TimeoutError)
            self.connection.settimeout(min(left, _HTTP_PATIENCE))
            try:
                return self.connection.recv_into(buffer)
            finally:
                self.connection.settimeout(_HTTP_PATIENCE)  # for the answer's writes

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # NOTE: every answer has a status line and headers: http.server answers a line that
        # is no request, or an HTTP/0.9 one (`GET /mcp`), without them, as HTTP/0.9 would.
        default_request_version = "HTTP/1.1"
        server_version = PROGRAM
        timeout = _HTTP_PATIENCE
        # NOTE: an answer is written in parts (its head, its body or each event); Nagle's
        # algorithm held back each last one until the client's delayed ACK, ~45 ms a request.
        disable_nagle_algorithm = True
        reads: Reads
        #: The request was read to its end: a refusal leaves nothing unread on the connection.
        whole: bool

        def setup(self) -> None:
            super().setup()
            self.rfile.close()
            self.reads = Reads(self.connection)
            self.rfile = io.BufferedReader(self.reads)

        def handle_one_request(self) -> None:
            # NOTE: on a connection kept alive, the wait for the next request counts: an idle
            # connection ends as a slow one does. (Either holds a thread, never a slot.)
            self.reads.until = time.monotonic() + _HTTP_HEAD_SECONDS
            self.whole = False
            super().handle_one_request()

        def parse_request(self) -> bool:
            parsed = super().parse_request()
            if parsed:
                lengths = self.headers.get_all("Content-Length")
                self.whole = lengths in (None, ["0"]) and "Transfer-Encoding" not in self.headers
            return parsed

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
            if not self.whole:
                # NOTE: what follows on the connection could be the rest of this request's
                # body, taken for the next request (RFC 9112 6.3): the connection ends.
                shown["Connection"] = "close"
            self.answer(status, json.dumps(error), shown)

        def checked(self) -> bool:
            """The endpoint, `Host` and `Origin` (DNS rebinding), and the bearer token."""
            if self.path.partition("?")[0] != "/mcp":
                self.refuse(404, "Not Found: the MCP endpoint is /mcp")
                return False
            hosts = self.headers.get_all("Host") or []
            name = _hostname(hosts[0]) if len(hosts) == 1 else None
            if name is None:
                self.refuse(400, "Bad Request: send one Host header, HOST[:PORT]")
                return False
            if name not in allowed:
                self.refuse(403, "Forbidden: this Host is not served (see --allow-host)")
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
            self.whole = False  # NOTE: the connection ends, and the answer says so
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
                _nobody_answers(ended)  # NOTE: a question of its calls can get no answer now
                self.answer(200)

        def do_POST(self) -> None:
            if not self.checked():
                return
            body = self.body()
            if body is None:
                return
            # NOTE: only now: a client slow to send its request holds no slot meanwhile.
            if not slots.acquire(blocking=False):
                self.refuse(503, "Service Unavailable: too many requests at once", Retry_After="1")
                return
            try:
                self.post(body)
            finally:
                slots.release()

        def body(self) -> bytes | None:
            """The request's body, read to its end within its deadline; None: refused."""
            lengths = self.headers.get_all("Content-Length") or []
            if len(lengths) > 1 or (lengths and "Transfer-Encoding" in self.headers):
                # NOTE: where a proxy and this server could read different bodies (request
                # smuggling, RFC 9112 6.3).
                self.refuse(400, "Bad Request: one Content-Length, without Transfer-Encoding")
                return None
            if not lengths:
                self.refuse(411, "Length Required")
                return None
            length = lengths[0].strip()
            # NOTE: str.isdigit alone takes a superscript two.
            if not (length.isascii() and length.isdigit()):
                self.refuse(400, "Bad Request: Content-Length is not a number")
                return None
            if int(length) > _HTTP_LIMIT:
                self.refuse(413, f"Payload Too Large: at most {_HTTP_LIMIT} bytes")
                return None
            media = self.headers.get("Content-Type", "").partition(";")[0].strip().lower()
            if media != "application/json":
                self.refuse(415, "Unsupported Media Type: send application/json")
                return None
            self.reads.until = time.monotonic() + _HTTP_BODY_SECONDS
            try:
                body = self.rfile.read(int(length))
            except socket.timeout:  # noqa: UP041 (3.9: not yet TimeoutError)
                took = f"the body took more than {_HTTP_BODY_SECONDS:g} s"
                self.refuse(408, f"Request Timeout: {took}")
                return None
            if len(body) < int(length):
                self.close_connection = True  # the client ended the connection
                return None
            self.whole = True
            return body

        def post(self, body: bytes) -> None:
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
                        _nobody_answers(sessions.pop(next(iter(sessions))))
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
                # cancels nothing: over HTTP, a client cancels by closing its connection. What
                # the server writes here is an error: the body holds no message (`null`, `[]`,
                # an object without a method).
                errors: list[str] = []
                self.run(server, body, errors.append)
                self.answer(400 if errors else 202, errors[-1] if errors else "", headers)
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

            if not stream:
                # NOTE: nothing reaches the client before its one answer: no question can.
                server.unstreamed.add(threading.get_ident())
            try:
                self.run(server, body, sink)
            finally:
                server.unstreamed.discard(threading.get_ident())
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

        def run(self, server: Any, body: bytes, sink: Callable[[str], None]) -> None:
            """`server.handle(body)`, what it writes on this thread going to `sink`."""
            thread = threading.get_ident()
            server.sinks[thread] = sink
            try:
                server.handle(body)
            finally:
                del server.sinks[thread]

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True
        #: Connections waiting to be accepted; more than `_HTTP_WORKERS` (they get a 503).
        request_queue_size = 4 * _HTTP_WORKERS
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

        def server_bind(self) -> None:
            if host == "::":
                # NOTE: every address, IPv4's too, whatever the system's default for IPv6.
                try:
                    self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                except (OSError, AttributeError):
                    pass
            super().server_bind()

        def handle_error(self, request: Any, client_address: Any) -> None:
            # NOTE: a client that went away mid-request is not the server's error; anything
            # else is one line on stderr (with --debug, the traceback), not socketserver's dump.
            error = sys.exc_info()[1]
            if isinstance(error, (ConnectionError, TimeoutError, socket.timeout)):
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
    where = f" on every address of this machine ({host})," if wildcard else ""
    try:
        sys.stderr.write(f"{PROGRAM}: MCP over HTTP{where} at {_url(host, bound)}\n")
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
