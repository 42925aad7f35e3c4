# burgee: joins tail 350
# burgee: section http
# burgee: always: asgi
"""`asgi`: the MCP endpoint as an ASGI 3 application, standard library only, for any ASGI
server (`uvicorn tool:asgi --workers 4`, hypercorn, granian) that runs on asyncio.

Each request goes through the same `_Exchange` as `--mcp --http` (`mcp_endpoint`), so the
checks, the sessions and the answers are the same; the messages run on a thread of the
event loop's executor (`_McpServer.read` blocks while a call runs), and what they write
reaches the client as it comes, as server-sent events, or as one JSON answer. Configured by
environment variables (`_asgi_settings`), read on the first request or at start-up (the
lifespan protocol), once per process. A 2026-07-28 request needs no session, so any worker
answers it; a session lives in the process that opened it.

Only `asgi` is in the code that always runs (the ASGI server's import of the tool finds it);
the rest is in the MCP section, loaded by the first request.

`asgi`, the same endpoint as an ASGI 3 application (stdlib only, asyncio): the only chunk of the
HTTP section that always runs (in `catalog.ALWAYS`: an ASGI server tells an ASGI 3 application
by its being a coroutine function), calling `_asgi_serve` in the section; the endpoint made once
per process from `<TOOL>_MCP_*` variables (`_asgi_settings`; a problem fails the lifespan
start-up, or answers 500), the messages run on a pool of `_HTTP_WORKERS` threads and relayed
through an `asyncio.Queue` as events or one answer; a disconnect cancels a 2026-07-28 call; the
lifespan shutdown cancels the calls running, as SIGTERM does.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _Stdout
from burgee.runtime.core.errors import UsageError
from burgee.runtime.execution.execute import _TIMEOUT_GRACE, _debugging
from burgee.runtime.mcpserver.mcp import _McpServer
from burgee.runtime.mcpserver.mcp_endpoint import (
    _HTTP_LIMIT,
    _HTTP_WORKERS,
    _LOOPBACK,
    _Endpoint,
    _event,
    _Exchange,
    _Routed,
    _Settings,
)
from burgee.runtime.mcpserver.mcp_io import (
    _endpoint_path,
    _mcp_env,
    _origin,
    _read_token,
    _wire,
    _wire_size,
    _wire_slices,
)
from burgee.runtime.program import PROGRAM

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.mcpserver.mcp_endpoint import _Answer
    from burgee.runtime.program import Program

#: The process's endpoint, made once (`_asgi_endpoint`): or the usage error that stopped it.
_ASGI: list[Any] = []


async def asgi(
    scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
) -> None:
    """The MCP endpoint as an ASGI 3 application (`uvicorn tool:asgi`). Where a run starts:
    the program (the generated file's `PROGRAM`) is read here and given to the rest."""
    await _asgi_serve(scope, receive, send, PROGRAM)


def _asgi_settings(program: Program) -> _Settings:
    """The endpoint's settings (serving `program`) from the environment: `<TOOL>_MCP_TOKEN` or
    `<TOOL>_MCP_TOKEN_FILE`, `<TOOL>_MCP_ALLOW_HOST` and `<TOOL>_MCP_ALLOW_ORIGIN` (names
    separated by commas; `*` for any host), `<TOOL>_MCP_PATH`."""
    env = os.environ
    prefix = _mcp_env(program)
    named = {
        name: env.get(prefix + name, "").strip()
        for name in ("TOKEN", "TOKEN_FILE", "ALLOW_HOST", "ALLOW_ORIGIN", "PATH")
    }
    if named["TOKEN"] and named["TOKEN_FILE"]:
        raise UsageError(f"{prefix}TOKEN and {prefix}TOKEN_FILE: set one of them")
    token = named["TOKEN"] or _read_token(
        file=named["TOKEN_FILE"] or None, source=prefix + "TOKEN_FILE"
    )
    # NOTE: as `--http` on loopback: the loopback names pass, and those named (a reverse
    # proxy passes the name the client used, or its own).
    hosts = set(_LOOPBACK)
    hosts.update(n.strip().lower() for n in named["ALLOW_HOST"].split(",") if n.strip())
    origins = {
        _origin(n, prefix + "ALLOW_ORIGIN") for n in named["ALLOW_ORIGIN"].split(",") if n.strip()
    }
    path = _endpoint_path(named["PATH"], prefix + "PATH") if named["PATH"] else "/mcp"
    return _Settings(path, token or None, hosts, origins)


def _asgi_endpoint(program: Program) -> _Endpoint:
    """The process's endpoint, made by the first request (or at start-up); UsageError when
    its settings are wrong (every request then answers 500 saying so). On the event loop's
    thread: no two make it at once."""
    if not _ASGI:
        try:
            settings, debug = _asgi_settings(program), _debugging(False, program)

            def make(debug: bool, shared: Any = None) -> Any:
                return _asgi_make(program, debug, shared)

            _ASGI.append(_Endpoint(settings, debug, make, _AsgiBase(), program))
        except UsageError as error:
            _ASGI.append(error)
    found = _ASGI[0]
    if isinstance(found, UsageError):
        raise found
    return found  # type: ignore[no-any-return]


#: The pool `_asgi_pool` made, once (`concurrent.futures` costs ~15 ms to import: only an
#: ASGI server pays it, never `--mcp`, which loads this section too).
_ASGI_POOL: list[Any] = []


def _asgi_pool(name: str) -> Any:
    """The threads the messages run on: as many as the requests served at once, and a few
    for those refused (`asyncio`'s default pool has a handful, and a long call holds one).
    Made on first use, on the event loop's thread."""
    if not _ASGI_POOL:
        from concurrent.futures import ThreadPoolExecutor

        _ASGI_POOL.append(ThreadPoolExecutor(_HTTP_WORKERS + 4, thread_name_prefix=f"{name}-mcp"))
    return _ASGI_POOL[0]


class _AsgiBase:
    """What the servers of the endpoint share (`_McpServer(debug, shared)`): no protocol on
    stdout here, so stdout stays where the ASGI server put it; a call's prints are its own
    (`_Stdout`), other prints go to stdout as before, and a message no request takes goes
    nowhere."""

    def __init__(self) -> None:
        self.out = os.open(os.devnull, os.O_WRONLY)
        self.stdout = _Stdout(sys.stdout)
        sys.stdout = self.stdout


def _asgi_make(program: Program, debug: bool, shared: Any = None) -> Any:
    """One server of the endpoint: a session's or a 2026-07-28 request's."""
    return _McpServer(program, debug, shared)


async def _asgi_serve(
    scope: dict[str, Any],
    receive: Callable[..., Any],
    send: Callable[..., Any],
    program: Program,
) -> None:
    """Answer one ASGI connection scope: `http` requests, and `lifespan` (the endpoint is
    made at start-up; at shutdown, the calls still running are cancelled, as on SIGTERM)."""
    import asyncio

    loop = asyncio.get_running_loop()
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    _asgi_endpoint(program)
                except UsageError as error:
                    failed = {
                        "type": "lifespan.startup.failed",
                        "message": _asgi_problem(error, program.name),
                    }
                    await send(failed)
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if _ASGI and isinstance(_ASGI[0], _Endpoint):
                    pool = _asgi_pool(program.name)
                    await loop.run_in_executor(pool, _ASGI[0].stop, _TIMEOUT_GRACE)
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return  # NOTE: a websocket is closed unanswered (the ASGI server refuses it)
    try:
        endpoint = _asgi_endpoint(program)
    except UsageError as error:
        problem = _asgi_problem(error, program.name)
        await _asgi_send(send, (500, _asgi_error(problem), {}), scope["method"])
        return
    headers: dict[str, list[str]] = {}
    for name, value in scope["headers"]:
        headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    exchange = endpoint.exchange(scope["method"], scope["path"], headers)
    refused = exchange.screen()
    if refused is None and scope["method"] == "DELETE":
        refused = exchange.delete()
    if refused is None:
        await _asgi_post(endpoint, exchange, receive, send)
    else:
        await _asgi_send(send, refused, scope["method"])


def _asgi_problem(error: UsageError, name: str) -> str:
    return f"{name}: {error}"


def _asgi_error(message: str) -> str:
    import json

    return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32603, "message": message}})


async def _asgi_send(send: Callable[..., Any], answer: _Answer, method: str = "POST") -> None:
    status, body, headers = answer
    size = _wire_size(body)
    fields = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    if size:
        fields.append((b"content-type", b"application/json"))
    fields.append((b"content-length", str(size).encode()))
    await send({"type": "http.response.start", "status": status, "headers": fields})
    if method == "HEAD" or isinstance(body, str):
        data = b"" if method == "HEAD" else _wire(body)  # type: ignore[arg-type]
        await send({"type": "http.response.body", "body": data})
        return
    # NOTE: an answer of media goes a slice at a time (`mcp_io._wire_slices`).
    for piece in _wire_slices(body):
        await send({"type": "http.response.body", "body": piece, "more_body": True})
    await send({"type": "http.response.body", "body": b""})


async def _asgi_body(exchange: _Exchange, receive: Callable[..., Any]) -> bytes | _Answer | None:
    """The request's body, at most `_HTTP_LIMIT` bytes (the ASGI server reads the framing;
    `Content-Length` may be absent, with chunked encoding); None: the client went away."""
    given = "".join(exchange.header("content-length")[:1]).strip()
    if given.isascii() and given.isdigit() and int(given) > _HTTP_LIMIT:
        return exchange.too_large()
    wrong = exchange.media()
    if wrong is not None:
        return wrong
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > _HTTP_LIMIT:
            return exchange.too_large()
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


async def _asgi_post(
    endpoint: _Endpoint, exchange: _Exchange, receive: Callable[..., Any], send: Callable[..., Any]
) -> None:
    """A POST: read, routed, run on an executor thread, its messages sent as they come."""
    import asyncio

    body = await _asgi_body(exchange, receive)
    if body is None:
        return
    if not isinstance(body, bytes):
        await _asgi_send(send, body)
        return
    if not endpoint.seat():
        why = "Service Unavailable: too many requests at once"
        await _asgi_send(send, exchange.refusal(503, why, Retry_After="1"))
        return
    loop = asyncio.get_running_loop()
    try:
        # NOTE: here: parsing the body and opening a session are quick, and a body with no
        # request (notifications) runs what little it asks for at once.
        routed = exchange.route(body)
        if not isinstance(routed, _Routed):
            await _asgi_send(send, routed)
            return
        queue: asyncio.Queue[str | list[str] | None] = asyncio.Queue()

        def sink(text: str | list[str]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, text)

        gone: list[bool] = []

        def run() -> None:
            try:
                with endpoint.serving(routed.server):
                    endpoint.run(
                        routed.server, routed.message, sink, routed.stream, lambda: not gone
                    )
            finally:
                loop.call_soon_threadsafe(queue.put_nowait, None)

        running = loop.run_in_executor(_asgi_pool(endpoint.program.name), run)
        watching = None
        if routed.watch or routed.stream:
            watching = asyncio.ensure_future(_asgi_watch(receive, routed, gone))
        try:
            await _asgi_relay(exchange, routed, queue, send)
        finally:
            if watching is not None:
                watching.cancel()
            await running
    finally:
        endpoint.unseat()


async def _asgi_watch(receive: Callable[..., Any], routed: _Routed, gone: list[bool]) -> None:
    """A client that goes away while its 2026-07-28 call runs cancels it; from a stream, it
    leaves it (`gone`: a question its call asks ends)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            gone.append(True)
            if routed.watch:
                routed.server.abandon()
            return


async def _asgi_relay(
    exchange: _Exchange, routed: _Routed, queue: Any, send: Callable[..., Any]
) -> None:
    """What the messages write, until they end: each as an event, or the last answer alone."""
    written: list[str | list[str]] = []
    if routed.stream:
        head = [
            (k.lower().encode("latin-1"), v.encode("latin-1"))
            for k, v in exchange.stream_head(routed.headers)
        ]
        await send({"type": "http.response.start", "status": 200, "headers": head})
    while True:
        text = await queue.get()
        if text is None:
            break
        if routed.stream:
            try:
                for event in _event(text):
                    await send({"type": "http.response.body", "body": event, "more_body": True})
            except OSError:
                pass  # the client went away; the call still ends as it would
        else:
            written.append(text)
    if routed.stream:
        try:
            await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass
        return
    await _asgi_send(send, exchange.answered(written, routed.headers))
