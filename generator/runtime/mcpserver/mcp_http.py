# burgee: joins tail 290
# burgee: section http
"""`--mcp --http [HOST:]PORT`: the MCP server over streamable HTTP, standard library only.

One endpoint, `/mcp` (`--path`), and `GET /health`. What to answer each request is the
endpoint's (`mcp_endpoint`, shared with the ASGI application): a POST carries one JSON-RPC
message (or a 2025-03-26 batch) that `_McpServer.read` answers, as on stdio, on the
request's own thread, and what it writes (progress, log messages, the answer) streams back as
server-sent events, or as one JSON answer to a client that accepts only JSON. Here: reading
requests from sockets, each under its deadlines, and writing the answers. Loopback by
default; `Host` and `Origin` are checked against DNS rebinding (`--allow-host NAME` adds a
name, `--allow-origin` an origin); `--token-env NAME` or `--token-file PATH` requires
`Authorization: Bearer`. Nothing is ever written to stdout.

`_serve_http`: `--mcp --http [HOST:]PORT`, streamable HTTP on `http.server` + threads: the
served names and the token from the options, `_stateless` (the server that owns stdout, its
output to /dev/null), `_server_class` (IPv4/IPv6, every address, errors on one line),
`_reads_class` (one deadline each for a request's head and body), `_handler_class` (its head
read without http.server's parser of header fields, each request through the endpoint's
`_Exchange`; the body read, the answer written whole or as chunked events, a 2026-07-28 call
cancelled when its client closes the connection; an answer's head and body in one send, a
streamed one's answer with the stream's end, `TCP_NODELAY`); nothing on stdout, SIGINT/SIGTERM.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.core.errors import UsageError
from burgee.runtime.execution.execute import _TIMEOUT_GRACE, _packed_lines
from burgee.runtime.mcpserver.mcp_endpoint import (
    _HTTP_WORKERS,
    _LOOPBACK,
    _Endpoint,
    _event,
    _Exchange,
    _Routed,
    _Settings,
)
from burgee.runtime.mcpserver.mcp_io import (
    _WILDCARDS,
    _http_address,
    _read_token,
    _url,
    _wire,
    _wire_size,
    _wire_slices,
)

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterable

    from burgee.runtime.mcpserver.mcp_endpoint import _Answer
    from burgee.runtime.mcpserver.mcp_io import _McpOptions, _Server
    from burgee.runtime.program import Program

#: Seconds a client may take to send the head of a request (its line and headers; on a
#: connection kept alive, counted from the previous answer), and then its body: one deadline
#: for each, however the bytes trickle in.
_HTTP_HEAD_SECONDS = 30.0
_HTTP_BODY_SECONDS = 30.0
#: Seconds a client may take to take in one write of an answer.
_HTTP_PATIENCE = 30
#: The most header fields a request may have, and the longest line of its head (http.server's).
_HTTP_FIELDS = 100
_HTTP_LINE = 65536
#: The methods the handler answers (each `do_GET`): any other gets 501, as from http.server.
_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "OPTIONS", "DELETE"))


def _serve_http(
    options: _McpOptions, debug: bool, make: Callable[..., Any], program: Program
) -> int:
    """Serve `program` over HTTP until SIGINT or SIGTERM; `make` builds one `_McpServer`."""
    import signal

    assert options.http is not None
    host, port = _http_address(options.http)
    token = _read_token(env=options.token_env, file=options.token_file)
    wildcard = host in _WILDCARDS
    loopback = host in _LOOPBACK or host.startswith("127.")
    # NOTE: DNS rebinding: a page whose name resolves to this machine sends that name as its
    # Host. Only the names of this server pass: loopback ones where it listens there (every
    # address included), the address it was given, and those --allow-host names.
    hosts = set(options.allow_hosts)
    if loopback or wildcard:
        hosts.update(_LOOPBACK)
    if not wildcard:
        hosts.add(host.lower())
    if not loopback and token is None:
        sys.stderr.write(
            f"{program.name}: warning: serving MCP on {host} without a token (--token-env,"
            " --token-file): anyone who can reach the port can call every tool\n"
        )
    settings = _Settings(options.path, token, hosts, set(options.allow_origins))
    endpoint = _Endpoint(settings, debug, make, _stateless(make, debug), program)

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # NOTE: before the address is announced: whoever reads it may stop the server at once.
    signal.signal(signal.SIGTERM, stop)
    try:
        httpd = _server_class(host, debug, program.name)((host, port), _handler_class(endpoint))
    except OSError as error:
        raise UsageError(f"--http {options.http}: cannot listen ({error.strerror})") from None
    bound = httpd.server_address[1]
    where = f" on every address of this machine ({host})," if wildcard else ""
    try:
        sys.stderr.write(
            f"{program.name}: MCP over HTTP{where} at {_url(host, bound, options.path)}\n"
        )
        sys.stderr.flush()
        httpd.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        endpoint.stop(_TIMEOUT_GRACE)
    finally:
        httpd.server_close()
    sys.stderr.write(f"{program.name}: stopped\n")
    return 0


def _stateless(make: Callable[..., Any], debug: bool) -> Any:
    """The server that owns the protocol's stdout; each session and each 2026-07-28 request
    gets a server of its own made from it, so ids, in-flight calls and cancellations never mix
    between clients."""
    stateless = make(debug)
    # NOTE: every message of a request goes to the request's sink; one that found none must
    # not reach stdout either, which nobody reads: once its pipe is full, the server blocks.
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, stateless.out)
    os.close(null)
    return stateless


def _server_class(host: str, debug: bool, name: str) -> Any:
    """The listening server (of the tool `name`): a thread for each connection."""
    import http.server
    import socket

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
            sys.stderr.write(f"{name}: mcp: a request failed: {error!r}\n")
            if debug:
                import traceback

                _packed_lines(globals())
                traceback.print_exc()

    return Server


def _reads_class() -> Any:
    """A connection's reads, all under one deadline (`until`), not each its own: a client
    sending a byte now and then is held to it too."""
    import io
    import socket
    import time

    class Reads(io.RawIOBase):
        def __init__(self, connection: socket.socket) -> None:
            self.connection = connection
            self.until = 0.0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            left = self.until - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out")  # noqa: UP041 (3.9: not yet TimeoutError)
            if left >= _HTTP_PATIENCE - 0.05:
                # NOTE: the socket's own timeout (the writes') ends the wait in time, give or
                # take 50 ms: the first read of a head or a body sets no timeout of its own.
                return self.connection.recv_into(buffer)
            self.connection.settimeout(left)
            try:
                return self.connection.recv_into(buffer)
            finally:
                self.connection.settimeout(_HTTP_PATIENCE)  # for the answer's writes

    return Reads


def _handler_class(endpoint: _Endpoint) -> Any:
    """The request handler: reads each request under its deadlines, puts it through the
    endpoint's `_Exchange`, and writes the answer."""
    import http.server
    import io

    debug = endpoint.debug
    Reads = _reads_class()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # NOTE: every answer has a status line and headers: http.server answers a line that
        # is no request, or an HTTP/0.9 one (`GET /mcp`), without them, as HTTP/0.9 would.
        default_request_version = "HTTP/1.1"
        timeout = _HTTP_PATIENCE
        # NOTE: a streamed answer is written in parts (its head, then each event); Nagle's
        # algorithm held back each last one until the client's delayed ACK, ~45 ms a request.
        disable_nagle_algorithm = True
        raw_requestline: bytes
        reads: Any
        #: The request was read to its end: a refusal leaves nothing unread on the connection.
        whole: bool
        #: The request's header fields: each lower-case name, and its values in order.
        fields: dict[str, list[str]]
        #: The second of the last `Date`, and its header line.
        clock: tuple[int, bytes] = (0, b"")
        served = endpoint
        debugging = debug

        parse_request = _handler_parse_request
        head = _handler_head
        send = _handler_send
        do_GET = _handler_do_get
        post = _handler_post
        body = _handler_body
        dispatch = _handler_dispatch
        watch = _handler_watch
        connected = _handler_connected
        handle_one_request = _handler_handle_one_request

        def setup(self) -> None:
            super().setup()
            self.rfile.close()
            self.reads = Reads(self.connection)
            self.rfile = io.BufferedReader(self.reads)

        def log_message(self, format: str, *args: Any) -> None:
            if debug:
                sys.stderr.write(f"{endpoint.program.name}: http: {format % args}\n")

        def send_error(
            self, code: int, message: str | None = None, explain: str | None = None
        ) -> None:
            # NOTE: http.server's own errors (a method it has no handler for, a bad request
            # line) as JSON too, as every other answer of the endpoint; never an HTML page.
            self.whole = False  # NOTE: the connection ends, and the answer says so
            phrase = http.HTTPStatus(code).phrase
            # NOTE: the request line may not have been read: no method or path to go by.
            nothing = endpoint.exchange("", "", {})
            self.send(nothing.refusal(code, f"{phrase}: {message}" if message else phrase))

    return Handler


def _handler_handle_one_request(handler: Any) -> None:
    """http.server's, with the deadline of the head: on a connection kept alive, the
    wait for the next request counts: an idle connection ends as a slow one does.
    (Either holds a thread, never a slot.)"""
    import socket
    import time

    handler.reads.until = time.monotonic() + _HTTP_HEAD_SECONDS
    handler.whole = False
    handler.fields = {}
    try:
        handler.raw_requestline = line = handler.rfile.readline(_HTTP_LINE + 1)
        if len(line) > _HTTP_LINE:
            handler.requestline = handler.request_version = handler.command = ""
            handler.send_error(414)
            return
        if not line:
            handler.close_connection = True
            return
        if not handler.parse_request():
            return
        if handler.command not in _METHODS:
            handler.send_error(501, f"Unsupported method ({handler.command!r})")
            return
        handler.do_GET()
    except socket.timeout as error:  # noqa: UP041 (3.9: not yet TimeoutError)
        handler.log_error("Request timed out: %r", error)
        handler.close_connection = True


def _handler_parse_request(handler: Any) -> bool:
    """The request line as http.server reads it, and the header fields read here: its
    parser of them (the email package's) took a third of a request's time."""
    handler.command = ""
    handler.request_version = handler.default_request_version
    handler.close_connection = True
    line = str(handler.raw_requestline, "iso-8859-1").rstrip("\r\n")
    handler.requestline = line
    words = line.split()
    if not words:
        return False
    if len(words) >= 3:
        version = words[-1]
        numbers = version[5:].split(".")
        if version != "HTTP/1.1" and not (
            version.startswith("HTTP/")
            and len(numbers) == 2
            and all(n.isascii() and n.isdigit() and len(n) <= 10 for n in numbers)
        ):
            handler.send_error(400, f"Bad request version ({version!r})")
            return False
        number = (int(numbers[0]), int(numbers[1]))
        if number >= (2, 0):
            handler.send_error(505, f"Invalid HTTP version ({version[5:]})")
            return False
        handler.close_connection = number < (1, 1)
        handler.request_version = version
    if not 2 <= len(words) <= 3:
        handler.send_error(400, f"Bad request syntax ({line!r})")
        return False
    if len(words) == 2:
        handler.close_connection = True
        if words[0] != "GET":
            handler.send_error(400, f"Bad HTTP/0.9 request type ({words[0]!r})")
            return False
    handler.command, handler.path = words[0], words[1]
    fields = handler.fields
    readline = handler.rfile.readline
    longest = _HTTP_LINE + 1
    for _ in range(_HTTP_FIELDS + 1):
        raw = readline(longest)
        if len(raw) == longest:
            handler.send_error(431, "Line too long")
            return False
        if raw in (b"\r\n", b"\n", b""):
            break
        # NOTE: a line without a colon is a name here, its line end included.
        name, _, value = raw.decode("iso-8859-1").partition(":")
        name = name.lower()
        if name in fields:
            fields[name].append(value.strip(" \t\r\n"))
        else:
            fields[name] = [value.strip(" \t\r\n")]
    else:
        handler.send_error(431, "Too many headers")
        return False
    # NOTE: RFC 9112 5: a name is a token, with no space before its colon; a line
    # folded onto the one before, or without a colon, is refused too (5.2). Checked
    # once for every name.
    names = "".join(fields)
    if "" in fields or " " in names or not (names.isascii() and names.isprintable()):
        handler.send_error(400, "Bad request: a header line is not NAME: VALUE")
        return False
    lengths = fields.get("content-length")
    handler.whole = lengths in (None, ["0"]) and "transfer-encoding" not in fields
    connection = fields.get("connection", ("",))[0].lower()
    if connection == "close":
        handler.close_connection = True
    elif connection == "keep-alive":
        handler.close_connection = False
    expect = fields.get("expect", ("",))[0].lower()
    if expect == "100-continue" and handler.request_version >= "HTTP/1.1":
        return bool(handler.handle_expect_100())
    return True


def _handler_head(handler: Any, status: int, headers: Iterable[tuple[str, str]]) -> bytes:
    """An answer's status line and headers, to write with its body in one send: each
    write is a segment of its own (no Nagle's algorithm), which the client waits for."""
    import time

    if handler.debugging:
        handler.log_request(status)
    now = int(time.time())
    clock = handler.clock
    if clock[0] != now:
        clock = type(handler).clock = (now, f"Date: {handler.date_time_string(now)}\r\n".encode())
    phrase = handler.responses[status][0] if status in handler.responses else ""
    # NOTE: no `Server` (which software, and which Python, is nobody's business): one
    # line less for every client to read.
    lines = [b"HTTP/1.1 %d %s\r\n" % (status, phrase.encode()), clock[1]]
    for name, value in headers:
        if name == "Connection" and value == "close":
            handler.close_connection = True
        lines.append(f"{name}: {value}\r\n".encode("latin-1"))
    lines.append(b"\r\n")
    return b"".join(lines)


def _handler_send(handler: Any, answer: _Answer) -> None:
    status, body, headers = answer
    data = _wire(body) if isinstance(body, str) else b""
    size = len(data) if isinstance(body, str) else _wire_size(body)
    headers = dict(headers)
    if status >= 400 and not handler.whole:
        # NOTE: what follows on the connection could be the rest of this request's
        # body, taken for the next request (RFC 9112 6.3): the connection ends.
        headers["Connection"] = "close"
    if size:
        headers["Content-Type"] = "application/json"
    headers["Content-Length"] = str(size)
    head = handler.head(status, headers.items())
    # NOTE: RFC 9110: an answer to HEAD has no content.
    handler.connection.sendall(head if handler.command == "HEAD" else head + data)
    if not isinstance(body, str) and handler.command != "HEAD":
        # NOTE: an answer of media, from its parts (`mcp_wire._McpWire.pieces`).
        for piece in _wire_slices(body):
            handler.connection.sendall(piece)


def _handler_do_get(handler: Any) -> None:
    """Every method's request (`_METHODS`)."""
    exchange = handler.served.exchange(handler.command, handler.path, handler.fields)
    refused = exchange.screen()
    if refused is not None:
        handler.send(refused)
    elif handler.command == "DELETE":
        handler.send(exchange.delete())
    elif handler.command == "POST":
        handler.post(exchange)


def _handler_post(handler: Any, exchange: _Exchange) -> None:
    body = handler.body(exchange)
    if body is None:
        return
    # NOTE: only now: a client slow to send its request holds no slot meanwhile.
    if not handler.served.seat():
        why = "Service Unavailable: too many requests at once"
        handler.send(exchange.refusal(503, why, Retry_After="1"))
        return
    try:
        routed = exchange.route(body)
        if not isinstance(routed, _Routed):
            handler.send(routed)
            return
        with handler.served.serving(routed.server):
            handler.dispatch(exchange, routed)
    finally:
        handler.served.unseat()


def _handler_body(handler: Any, exchange: _Exchange) -> bytes | None:
    """The request's body, read to its end within its deadline; None: refused."""
    import socket
    import time

    length = exchange.length()
    if not isinstance(length, int):
        handler.send(length)
        return None
    handler.reads.until = time.monotonic() + _HTTP_BODY_SECONDS
    try:
        body: bytes = handler.rfile.read(length)
    except socket.timeout:  # noqa: UP041 (3.9: not yet TimeoutError)
        took = f"the body took more than {_HTTP_BODY_SECONDS:g} s"
        handler.send(exchange.refusal(408, f"Request Timeout: {took}"))
        return None
    if len(body) < length:
        handler.close_connection = True  # the client ended the connection
        return None
    handler.whole = True
    return body


def _handler_dispatch(handler: Any, exchange: _Exchange, routed: _Routed) -> None:
    """Dispatch on this thread; stream what it writes, or answer once. A client that
    closes its connection meanwhile cancels a 2026-07-28 call (`routed.watch`)."""
    import threading

    done = None
    if routed.watch:
        done = threading.Event()
        threading.Thread(target=handler.watch, args=(routed.server, done), daemon=True).start()
    written: list[str | list[str]] = []
    #: The events written and not yet sent.
    events: list[bytes] = []
    if routed.stream:
        head = [*exchange.stream_head(routed.headers), ("Transfer-Encoding", "chunked")]
        handler.wfile.write(handler.head(200, head))

    def sink(text: str | list[str]) -> None:
        for event in _event(text):
            events.append(b"%x\r\n%s\r\n" % (len(event), event))
            if isinstance(text, str) and text.startswith(('{"jsonrpc":"2.0","id":', "[")):
                # NOTE: an answer (a request of the server's names its method first) is
                # the last event: it goes with the end of the stream, in one send (one of
                # media goes a slice at a time).
                return
            try:
                handler.wfile.write(b"".join(events))
            except OSError:
                pass  # the client went away; the call still ends as it would
            events.clear()

    try:
        stream = routed.stream
        handler.served.run(
            routed.server,
            routed.message,
            sink if stream else written.append,
            stream,
            handler.connected,
        )
    finally:
        if done is not None:
            done.set()
    if not routed.stream:
        handler.send(exchange.answered(written, routed.headers))
        return
    try:
        handler.wfile.write(b"".join(events) + b"0\r\n\r\n")
    except OSError:
        handler.close_connection = True


def _handler_watch(handler: Any, server: _Server, done: threading.Event) -> None:
    """Until `done`: the client closing its connection abandons the server's calls."""
    while not done.wait(0.1):
        if not handler.connected():
            server.abandon()
            return


def _handler_connected(handler: Any) -> bool:
    """Whether the client has not closed its connection (readable: either its end, or
    the client's next request on it, when it is still there)."""
    import select
    import socket

    connection = handler.connection
    try:
        if not select.select([connection], [], [], 0)[0]:
            return True
        return bool(connection.recv(1, socket.MSG_PEEK))
    except (OSError, ValueError):
        return False
