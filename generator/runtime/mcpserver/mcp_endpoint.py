# burgee: joins tail 270
# burgee: section http after mcp
# NOTE: a stdio session never serves HTTP: the endpoint, the stdlib server and the ASGI
# application are a section of their own, run after `mcp`.
"""The MCP endpoint over HTTP, whatever server reads the requests: the stdlib one
(`mcp_http`, `--mcp --http`) and the ASGI application (`mcp_asgi`, `uvicorn tool:asgi`) both
put each request through an `_Exchange` of one `_Endpoint`, so the checks (`Host`, `Origin`,
the bearer token, the protocol version header), the sessions, the routing of a message to the
server that answers it and the statuses of the answers are the same, and every message goes
through `_McpServer.read`. A transport reads the body (within `_HTTP_LIMIT`) and writes
the answers, streamed as server-sent events (`_event`) or whole.

The MCP endpoint over HTTP, whatever server reads the requests (the stdlib one and the ASGI
application): `_Settings` (path, token, served `Host` names, `--allow-origin` origins),
`_Endpoint` (the sessions, bounded and least recently used first; the servers busy now, which
`stop` cancels with a grace period; the 32 places, `seat`/`unseat`; `run`: `_McpServer.read` of
the body read once, the thread's messages going to a sink), `_Exchange` (one request: `screen`:
`GET /health` without checks, the path, `Host`/`Origin` against DNS rebinding, CORS for an
allowed origin (its preflight before the token), the bearer token in constant time,
`MCP-Protocol-Version`, 405; `delete`; `length`/`media` (the body's framing and type,
411/413/415); `route`: parse (once, with the stdio server's rules), the session or a 2026-07-28
request's own server, notifications alone 202/400, 406; `answered`: the one JSON answer or 202),
`_event` (one message as a server-sent event), `_hostname`, `_modern`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.mcpserver.mcp_ask import _nobody_answers
from burgee.runtime.mcpserver.mcp_io import (
    _MCP_LEGACY,
    _MCP_META,
    _MCP_MODERN,
    _Codec,
    _first,
    _mcp_env,
    _wire,
    _wire_slices,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from burgee.runtime.program import Program

    #: An answer: status, JSON body (or ""), headers.
    _Answer = tuple[int, str | list[str], dict[str, str]]

#: The largest request body, in bytes.
_HTTP_LIMIT = 4 * 1024 * 1024
#: How many requests are served at once, once read (more are answered 503), and how many
#: sessions live (the least recently used one ends when another begins).
_HTTP_WORKERS = 32
#: How many of those places calls waiting for their client's answer may hold at once (a
#: question past that is asked of nobody: its call ends unanswered, with the line that
#: answers); the others stay for everyone else, and for the answers.
_HTTP_QUESTIONS = _HTTP_WORKERS // 2
_HTTP_SESSIONS = 256
_LOOPBACK = ("localhost", "127.0.0.1", "::1")
#: The path that answers 200 without any check (a load balancer's probe).
_HEALTH = "/health"
#: What a browser page of an `--allow-origin` origin may send and read (CORS).
_CORS_HEADERS = "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version"
_CORS_EXPOSED = "Mcp-Session-Id, WWW-Authenticate"


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
    return host or None  # NOTE: an empty Host names nothing, not a host `*` lets in


def _modern(message: object) -> bool:
    """A 2026-07-28 request: its `_meta` names a protocol version (no session needed)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and _MCP_META + "protocolVersion" in meta


def _lost(session: str, items: list[Any]) -> str:
    """The 404 of a session this process does not hold (ended, dropped, or opened by another
    process), named when it is one of this tool's ids; for an answer to a question of its
    (`elicitation/create`), said so at once: that question never gets it."""
    named = (
        f"no session {session} here"
        if len(session) == 32 and all(c in "0123456789abcdef" for c in session)
        else "no such session"
    )
    answers = [
        str(m["id"]) for m in items if isinstance(m, dict) and "id" in m and "method" not in m
    ]
    if answers and len(answers) == len(items):
        return (
            f"Not Found: {named}: the answer to {', '.join(answers)} cannot reach its question"
            " (a session lives in the process that opened it; its calls end with it)"
        )
    return f"Not Found: {named} (initialize again)"


def _event(text: str | list[str]) -> Iterator[bytes]:
    """One message as a server-sent event: its bytes at once, or an answer of media's a slice
    at a time (`_wire_slices`)."""
    if isinstance(text, str):
        yield _wire(f"event: message\ndata: {text}\n\n")
    else:
        yield from _wire_slices(["event: message\ndata: ", *text, "\n\n"])


class _Settings:
    """How the endpoint is served: its path, the bearer token (None: none needed), the host
    names a request's `Host` may give (`*`: any), and the origins of `--allow-origin`."""

    def __init__(
        self, path: str, token: str | None, hosts: set[str], origins: set[str] | None = None
    ) -> None:
        self.path = path
        self.token = token
        self.hosts = hosts
        self.origins = origins or set()


class _Endpoint:
    """The endpoint's state (serving `program`): the sessions, the servers answering now, the
    places for requests; `make(debug, stateless)` builds the server of a session or of one
    2026-07-28 request."""

    def __init__(
        self,
        settings: _Settings,
        debug: bool,
        make: Callable[..., Any],
        stateless: Any,
        program: Program,
    ) -> None:
        import threading

        self.program = program
        self.settings = settings
        self.debug = debug
        self.make = make
        self.stateless = stateless
        self.sessions: dict[str, Any] = {}
        #: The servers answering a request now: a session's, or a 2026-07-28 request's own.
        self.busy: dict[Any, int] = {}
        self.guard = threading.Lock()
        #: How many requests hold one of the `_HTTP_WORKERS` places (`seat`), and how many
        #: of them wait for an answer (`_Stream.asking`).
        self.seated = self.asking = 0
        #: Reads each body once, as the stdio server reads a line (`_McpServer.read`).
        self.codec = _Codec()

    def exchange(self, method: str, target: str, fields: dict[str, list[str]]) -> _Exchange:
        """One request: its method, its target (path and query) and its header fields (each
        lower-case name, and its values in order)."""
        return _Exchange(self, method, target, fields)

    def seat(self) -> bool:
        """Take a place for a request, to give back with `unseat`; False: none is free."""
        with self.guard:
            if self.seated >= _HTTP_WORKERS:
                return False
            self.seated += 1
            return True

    def unseat(self) -> None:
        with self.guard:
            self.seated -= 1

    def run(
        self,
        server: Any,
        message: object,
        sink: Callable[[str | list[str]], None],
        stream: bool = True,
        alive: Callable[[], bool] = lambda: True,
    ) -> None:
        """`server.read(message)` (a body's, routed), what it writes on this thread going to
        `sink` (`stream`: as events, so a call may ask the client a question before its
        answer; `alive`: whether the client still reads them)."""
        import threading

        thread = threading.get_ident()
        server.sinks[thread] = sink
        if stream:
            server.streams[thread] = _Stream(self, alive)
        else:
            # NOTE: nothing reaches the client before its one answer: no question can.
            server.unstreamed.add(thread)
        try:
            server.read(message)
        finally:
            del server.sinks[thread]
            server.unstreamed.discard(thread)
            server.streams.pop(thread, None)

    def serving(self, server: Any) -> _Busy:
        """While a request's messages run: `stop` finds the server and cancels its calls."""
        return _Busy(self, server)

    def stop(self, grace: float) -> None:
        """The server stops: as over stdio, the calls still running are cancelled and given
        `grace` seconds, so their `finally` blocks and on_exit callbacks run. Looked at again
        each time: a request read just before the stop may start its call only now."""
        import time

        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            with self.guard:
                running = list(self.busy)
            if not running:
                break
            for server in running:
                server.abandon()
            time.sleep(0.005)


class _Stream:
    """A request's stream of events, as a question its call asks sees it (`mcp_ask._elicited`):
    `alive`, whether its client still reads it; `asking`, a place among the calls that wait
    for an answer (`_HTTP_QUESTIONS`), to give back with `answered`."""

    def __init__(self, endpoint: _Endpoint, alive: Callable[[], bool]) -> None:
        self.endpoint, self.alive = endpoint, alive

    def asking(self) -> bool:
        endpoint = self.endpoint
        with endpoint.guard:
            if endpoint.asking >= _HTTP_QUESTIONS:
                return False
            endpoint.asking += 1
            return True

    def answered(self) -> None:
        with self.endpoint.guard:
            self.endpoint.asking -= 1


class _Busy:
    """`_Endpoint.serving`: counts the server as busy while the block runs."""

    def __init__(self, endpoint: _Endpoint, server: Any) -> None:
        self.endpoint, self.server = endpoint, server

    def __enter__(self) -> None:
        with self.endpoint.guard:
            busy = self.endpoint.busy
            busy[self.server] = busy.get(self.server, 0) + 1

    def __exit__(self, *exc: object) -> None:
        with self.endpoint.guard:
            busy = self.endpoint.busy
            busy[self.server] -= 1
            if not busy[self.server]:
                del busy[self.server]


class _Routed:
    """A POST whose messages (`message`, its body read) a server answers: `stream` as events,
    else one JSON answer; `watch`: a client closing its connection meanwhile cancels the call
    (2026-07-28)."""

    def __init__(
        self, server: Any, message: object, stream: bool, headers: dict[str, str], watch: bool
    ) -> None:
        self.server = server
        self.message = message
        self.stream = stream
        self.headers = headers
        self.watch = watch


class _Exchange:
    """One request to the endpoint: what to answer it, from its method, target and headers."""

    def __init__(
        self, endpoint: _Endpoint, method: str, target: str, fields: dict[str, list[str]]
    ) -> None:
        self.endpoint = endpoint
        self.method = method
        self.path = target.partition("?")[0]
        self.fields = fields
        #: The CORS headers every answer carries, for a page of an `--allow-origin` origin.
        self.cors: dict[str, str] = {}

    def header(self, name: str) -> list[str]:
        """Every value of the header field `name` (lower case), in order."""
        return self.fields.get(name, [])

    def first(self, name: str, default: str = "") -> str:
        values = self.fields.get(name)
        return values[0] if values else default

    def answer(
        self, status: int, body: str | list[str] = "", headers: dict[str, str] | None = None
    ) -> _Answer:
        return status, body, {**(headers or {}), **self.cors}

    def refusal(
        self, status: int, message: str, code: int = -32600, ident: str = "null", **headers: str
    ) -> _Answer:
        """An error answer: a JSON-RPC error, without an id unless `ident` (its JSON text)
        names one (`Retry_After`: `Retry-After`)."""
        import json

        error = {"code": code, "message": message}
        answer = {"jsonrpc": "2.0", "id": json.loads(ident), "error": error}
        shown = {name.replace("_", "-"): value for name, value in headers.items()}
        return self.answer(status, json.dumps(answer), shown)

    def screen(self) -> _Answer | None:
        """The answer of a request refused (or `/health`, or a CORS preflight); None: go on
        (a POST, or a DELETE: `route`, `delete`)."""
        import hmac

        settings = self.endpoint.settings
        if self.path == _HEALTH and self.method in ("GET", "HEAD"):
            # NOTE: before any check: a load balancer probes by address, without a token.
            return 200, '{"status":"ok"}', {}
        if self.path != settings.path:
            return self.refusal(404, f"Not Found: the MCP endpoint is {settings.path}")
        fields = self.fields
        hosts = fields.get("host", ())
        name = _hostname(hosts[0]) if len(hosts) == 1 else None
        if name is None:
            return self.refusal(400, "Bad Request: send one Host header, HOST[:PORT]")
        if name not in settings.hosts and "*" not in settings.hosts:
            served = f"see --allow-host, or {_mcp_env(self.endpoint.program)}ALLOW_HOST for asgi"
            return self.refusal(403, f"Forbidden: this Host is not served ({served})")
        origins = fields.get("origin")
        if origins:
            origin = origins[0].strip().lower()
            if origin in settings.origins:
                self.cors = {
                    "Access-Control-Allow-Origin": origins[0].strip(),
                    "Access-Control-Expose-Headers": _CORS_EXPOSED,
                    "Vary": "Origin",
                }
                if self.method == "OPTIONS":
                    # NOTE: a browser's preflight carries no credentials: answered before the
                    # token is asked for.
                    return self.answer(
                        204,
                        "",
                        {
                            "Access-Control-Allow-Methods": "POST, DELETE",
                            "Access-Control-Allow-Headers": _CORS_HEADERS,
                            "Access-Control-Max-Age": "600",
                        },
                    )
            elif _hostname(origin.partition("://")[2]) not in settings.hosts:
                return self.refusal(403, "Forbidden: requests from this Origin are refused")
        token = settings.token
        if token is not None:
            given = self.first("authorization").encode("utf-8", "replace")
            if not hmac.compare_digest(given, f"Bearer {token}".encode()):
                return self.refusal(401, "Unauthorized", WWW_Authenticate="Bearer")
        version = fields.get("mcp-protocol-version")
        if version and version[0] not in (_MCP_MODERN, *_MCP_LEGACY):
            return self.refusal(
                400, f"Bad Request: unsupported MCP-Protocol-Version {version[0]!r}"
            )
        if self.method not in ("POST", "DELETE"):
            # NOTE: nothing is ever sent outside the answer to a request.
            return self.refusal(
                405, "Method Not Allowed: POST a JSON-RPC message", Allow="POST, DELETE"
            )
        return None

    def delete(self) -> _Answer:
        """DELETE: the session named ends."""
        endpoint = self.endpoint
        with endpoint.guard:
            ended = endpoint.sessions.pop(self.first("mcp-session-id"), None)
        if ended is None:
            return self.refusal(404, "Not Found: no such session")
        _nobody_answers(ended)  # NOTE: a question of its calls can get no answer now
        return self.answer(200)

    def length(self) -> _Answer | int:
        """The body's length from `Content-Length`, or the refusal of the request."""
        fields = self.fields
        lengths = fields.get("content-length", ())
        if len(lengths) > 1 or (lengths and fields.get("transfer-encoding")):
            # NOTE: where a proxy and this server could read different bodies (request
            # smuggling, RFC 9112 6.3).
            return self.refusal(400, "Bad Request: one Content-Length, without Transfer-Encoding")
        if not lengths:
            return self.refusal(411, "Length Required")
        length = lengths[0].strip()
        # NOTE: str.isdigit alone takes a superscript two.
        if not (length.isascii() and length.isdigit()):
            return self.refusal(400, "Bad Request: Content-Length is not a number")
        if int(length) > _HTTP_LIMIT:
            return self.too_large()
        return self.media() or int(length)

    def too_large(self) -> _Answer:
        return self.refusal(413, f"Payload Too Large: at most {_HTTP_LIMIT} bytes")

    def media(self) -> _Answer | None:
        media = self.first("content-type").partition(";")[0].strip().lower()
        if media != "application/json":
            return self.refusal(415, "Unsupported Media Type: send application/json")
        return None

    def route(self, body: bytes) -> _Answer | _Routed:
        """A POST's body: the server that answers it (a session's, or a 2026-07-28 request's
        own), or the answer when there is nothing to run or the request is refused."""
        import uuid

        endpoint = self.endpoint
        try:
            text = body.decode("utf-8")
            message = endpoint.codec.load(text)
        except UnicodeDecodeError:
            return self.refusal(400, "Parse error", -32700)
        except (ValueError, RecursionError):
            ident, code, why = endpoint.codec.refused(text)
            return self.refusal(400, why, code, ident)
        items = message if isinstance(message, list) else [message]
        requests: list[dict[str, Any]] = []
        opening = False
        for m in items:
            if isinstance(m, dict) and "method" in m and "id" in m:
                requests.append(m)
                opening = opening or m["method"] == "initialize"
        session = self.first("mcp-session-id") or None
        headers: dict[str, str] = {}
        watch = False
        if opening and not isinstance(message, list):
            server = endpoint.make(endpoint.debug, endpoint.stateless)
            session = uuid.uuid4().hex
            with endpoint.guard:
                if len(endpoint.sessions) >= _HTTP_SESSIONS:
                    # NOTE: clients seldom end their sessions; the least recently used goes.
                    _nobody_answers(endpoint.sessions.pop(next(iter(endpoint.sessions))))
                endpoint.sessions[session] = server
            headers["Mcp-Session-Id"] = session
            server.session = session
        elif session is not None:
            with endpoint.guard:
                server = endpoint.sessions.pop(session, None)
                if server is not None:
                    endpoint.sessions[session] = server  # now the most recently used
            if server is None:
                # NOTE: served by several processes, a session lives in the one that opened it.
                return self.refusal(404, _lost(session, items))
        elif items and all(_modern(m) for m in items):
            server = endpoint.make(endpoint.debug, endpoint.stateless)
            watch = any(m.get("method") == "tools/call" for m in requests)
            header = self.header("mcp-protocol-version")
            meta = items[0]["params"]["_meta"][_MCP_META + "protocolVersion"]
            if header and header[0] != meta:
                return self.refusal(400, "Header mismatch: MCP-Protocol-Version", -32020)
        else:
            return self.refusal(400, "Bad Request: Mcp-Session-Id header is required")
        if not requests:
            # NOTE: a 2026-07-28 `notifications/cancelled` reaches a server of its own, and
            # cancels nothing: over HTTP, a client cancels by closing its connection. What
            # the server writes here is an error: the body holds no message (`null`, `[]`,
            # an object without a method).
            errors: list[str | list[str]] = []
            endpoint.run(server, message, errors.append)
            return self.answer(400 if errors else 202, errors[-1] if errors else "", headers)
        accept = self.first("accept")
        stream = "text/event-stream" in accept
        if not stream and "application/json" not in accept and "*/*" not in accept:
            return self.refusal(406, "Not Acceptable: accept application/json or text/event-stream")
        if self.cors:
            headers.update(self.cors)
        return _Routed(server, message, stream, headers, watch)

    def answered(self, written: list[str | list[str]], headers: dict[str, str]) -> _Answer:
        """The one JSON answer of a request whose messages wrote `written`."""
        # NOTE: a request cancelled meanwhile is never answered: the POST gets a 202, as a
        # notification's does, not a 200 without a JSON body.
        for text in reversed(written):
            if _first(text).startswith(('{"jsonrpc":"2.0","id"', "[")):
                return 200, text, headers
        return 202, "", headers

    def stream_head(self, headers: dict[str, str]) -> Iterator[tuple[str, str]]:
        """The headers of an answer streamed as events."""
        yield from headers.items()
        yield "Content-Type", "text/event-stream"
        yield "Cache-Control", "no-cache"
