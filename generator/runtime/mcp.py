"""`--mcp`: every command served as an MCP tool, over stdio, in both protocol eras.

The transport (reading lines, writing frames) is `_McpServer.serve`/`write`; each request
method is one entry of `_MCP_METHODS`; a `tools/call` runs through `_execute`, the same path
as the command line, so its text content is byte for byte the `--json` envelope.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, cast

from burgee.runtime.context import _LOG_LEVELS, _SECRETS, Context
from burgee.runtime.deliver import _QUARANTINED, _delivered, _failure_envelope
from burgee.runtime.errors import (
    BUILTIN_ERRORS,
    _from_ctrl_c,
    _on_sigint,
    _on_sigterm,
    _success,
    _Terminated,
)
from burgee.runtime.execute import (
    _TIMEOUT_GRACE,
    _as_error,
    _debugging,
    _execute,
)
from burgee.runtime.kinds import _Float
from burgee.runtime.mcp_ask import (
    _asking,
    _confirming,
    _handed_back,
    _InputRequired,
    _nobody_answers,
)
from burgee.runtime.mcp_http import _serve_http
from burgee.runtime.mcp_io import (
    _MCP_BATCHES,
    _MCP_LEGACY,
    _MCP_META,
    _MCP_MODERN,
    _arguments,
    _Codec,
    _mcp_help,
    _McpError,
    _McpOptions,
    _print_config,
    _Stdout,
    _wire,
)
from burgee.runtime.mcp_loop import _McpLoop
from burgee.runtime.mcp_methods import (
    _mcp_discover,
    _mcp_initialize,
    _mcp_ping,
    _mcp_tools_list,
)
from burgee.runtime.output import _finite, _jsonable, _stdin_apart
from burgee.runtime.program import (
    _MCP_EXTRA,
    _MCP_NAMES,
    _MEDIA,
    PROGRAM,
    VERSION,
)
from burgee.runtime.sanitize import (
    _neutralise,
    _quarantine,
    _quarantined,
    _redact,
    _redact_text,
)
from burgee.runtime.sources import _config_file, _Sources
from burgee.runtime.table import _command
from burgee.runtime.values import _Call

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.argv import _Invocation
    from burgee.runtime.context import _Command

#: The error of a request whose id is already in flight.
_DUPLICATE = (-32600, "Invalid Request: this id is already in use")


class _Request:
    """One tools/call in flight."""

    __slots__ = (
        "cancelled",
        "context",
        "key",
        "last",
        "level",
        "quarantine",
        "sanitize",
        "server",
        "token",
    )

    def __init__(
        self, server: _McpServer, key: str, context: Context, token: object, command: _Command
    ) -> None:
        self.server = server
        self.key = key
        self.context = context
        self.token = token
        self.last: float | None = None
        self.cancelled = False
        #: The `ctx.log` level a 2026-07-28 request asked for in its `_meta`, if any.
        self.level: str | None = None
        #: Whether its progress messages are neutralised (`@command(sanitize=False)`: not).
        self.sanitize = command.sanitize
        #: Whether they are quarantined, as its answer is (an external or untrusted command).
        self.quarantine = command.trust in _QUARANTINED

    def report(self, done: float, total: float | None = None, message: str | None = None) -> None:
        self.server.progress(self, done, total, message)


def _no_progress(done: float, total: float | None = None, message: str | None = None) -> None:
    """Progress of a call that asked for none (it must not reach a terminal either)."""


class _McpServer(_McpLoop):
    """A JSON-RPC 2.0 server on stdin/stdout, one message per line, both protocol eras: each
    line `_McpLoop` reads is `dispatch`ed here."""

    inflight: dict[str, _Request]
    #: The tool-wide flags given with `--mcp` that apply to every call: `--max-output`,
    #: `--spill-dir`, `--config` (set by `_serve_mcp`).
    limit: int | None = None
    spill_dir: str | None = None
    config: str | None = None

    def __init__(self, debug: bool, shared: _McpServer | None = None) -> None:
        _McpLoop.__init__(self)
        self.codec = _Codec()
        self.debug = debug
        self.out: int
        self.stdout: _Stdout
        if shared is not None:
            # NOTE: one more session of the HTTP transport: stdout is already protected.
            self.out, self.stdout = shared.out, shared.stdout
        else:
            self.out = os.dup(1)
            # NOTE: fd 1 becomes stderr, so nothing a handler or its children write can reach
            # the protocol stream; the protocol goes to the private descriptor `self.out`.
            os.dup2(2, 1)
            self.stdout = _Stdout(sys.stderr)
            sys.stdout = cast("Any", self.stdout)
        self.broken = False
        #: Threads whose messages go elsewhere than stdout (an HTTP exchange): thread -> sink.
        self.sinks: dict[int, Callable[[str], None]] = {}
        #: The protocol version `initialize` agreed on (batches are 2025-03-26's only).
        self.version = ""
        #: `logging/setLevel`: the least severe `ctx.log` level the client wants, if any.
        self.level: str | None = None
        #: Each thread answering a JSON-RPC batch, and the answers it collects (over HTTP, two
        #: batches of one session may run at once, each on its own thread).
        self.batches: dict[int, list[str]] = {}
        #: The client declared elicitation (`initialize`), or is gone (the end of stdin); the
        #: questions sent to it, by id, each waiting for its answer (`mcp_ask`); how many were
        #: sent; the HTTP threads that answer in one JSON body, where no question can go out.
        self.elicits = self.gone = False
        self.awaited: dict[str, tuple[Any, list[Any]]] = {}
        self.asked = 0
        self.unstreamed: set[int] = set()

    def write(self, text: str) -> None:
        """Write one message; the caller holds `self.lock` when calls may be running."""
        if _SECRETS and _redact_text(text, _SECRETS) is not text:
            # NOTE: a secret in the message (a progress or log message, say; an answer's data
            # was redacted on delivery): redacted as data, so the message stays JSON.
            text = self.dumps(_redact(self.codec.load(text), _SECRETS))
        if self.batches and text[:22] == '{"jsonrpc":"2.0","id":':
            answers = self.batches.get(self.thread())
            if answers is not None:
                answers.append(text)
                return
        if self.sinks:
            sink = self.sinks.get(self.thread())
            if sink is not None:
                sink(text)
                return
        data = _wire(text + "\n")
        while data and not self.broken:
            try:
                data = data[os.write(self.out, data) :]
            except OSError:
                self.broken = True

    def send(self, text: str) -> None:
        with self.lock:
            self.write(text)

    def reply(self, ident: str, result: str) -> None:
        self.send('{"jsonrpc":"2.0","id":' + ident + ',"result":' + result + "}")

    def fail(self, ident: str, code: int, message: str, data: object = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.send('{"jsonrpc":"2.0","id":' + ident + ',"error":' + self.dumps(error) + "}")

    def dumps(self, value: object) -> str:
        return self.codec.compact(value)

    def stop(self) -> None:
        """Ctrl-C or SIGTERM: cancel the calls still running on workers and give them
        `_TIMEOUT_GRACE` seconds to end, so their `finally` blocks and on_exit callbacks run."""
        import time

        self.abandon()
        deadline = time.monotonic() + _TIMEOUT_GRACE
        while self.inflight and time.monotonic() < deadline:
            time.sleep(0.005)

    def abandon(self) -> None:
        """Cancel every call in flight, unanswered: the client stopped the server or went away;
        it did not cancel a call."""
        # NOTE: without the lock: a signal may have come while this thread held it; copying
        # the dict is one step under the GIL.
        for request in list(self.inflight.values()):
            request.cancelled = True
            request.context.cancelled.set()

    def closed(self) -> None:
        # NOTE: a question still waiting for its answer gets none: its call ends (cancelled).
        _nobody_answers(self)

    def dispatch(self, line: bytes) -> None:
        if line.strip():
            try:
                self.handle(line)
            except Exception as error:  # noqa: BLE001 (the server must outlive any message)
                sys.stderr.write(f"{PROGRAM}: mcp: internal error: {error!r}\n")
                self.fail("null", -32603, "Internal error")

    def handle(self, line: bytes) -> None:
        try:
            message = self.codec.load(line.decode("utf-8"))
        except (ValueError, RecursionError):
            self.fail("null", -32700, "Parse error")
            return
        if isinstance(message, list):
            self.batch(message)
            return
        self.message(message)

    def batch(self, messages: list[Any]) -> None:
        """A JSON-RPC batch (protocol 2025-03-26 only): one array of the answers, in order,
        none for notifications; each call runs on this thread."""
        if self.version != _MCP_BATCHES or not messages:
            why = f"batches need protocol {_MCP_BATCHES}"
            if self.version == _MCP_BATCHES:
                why = "an empty batch"
            self.fail("null", -32600, f"Invalid Request: {why}")
            return
        thread = self.thread()
        with self.lock:
            self.batches[thread] = []
        try:
            for message in messages:
                if isinstance(message, dict) and message.get("method") == "initialize":
                    why = "Invalid Request: initialize cannot be part of a batch"
                    self.fail(self.ident(message.get("id")) or "null", -32600, why)
                    continue
                try:
                    self.message(message)
                except Exception as error:  # noqa: BLE001 (the other calls still answer)
                    sys.stderr.write(f"{PROGRAM}: mcp: internal error: {error!r}\n")
                    self.fail("null", -32603, "Internal error")
        finally:
            with self.lock:
                answers = self.batches.pop(thread)
        if answers:
            self.send("[" + ",".join(answers) + "]")

    def ident(self, request_id: object) -> str | None:
        """A request's id as the answer gives it back (JSON text); None if it is no id."""
        # NOTE: JSON gives exact ints and strs; a bool, a float, null or an object is no id.
        if type(request_id) is int:
            return str(request_id)
        return self.dumps(request_id) if type(request_id) is str else None

    def message(self, message: object) -> None:
        """One JSON-RPC message: a request, a notification, or an answer to ignore."""
        if not isinstance(message, dict):
            self.fail("null", -32600, "Invalid Request: expected one JSON-RPC object")
            return
        method = message.get("method")
        if "id" not in message:
            if isinstance(method, str):
                self.notify(method, message.get("params"))
            else:
                self.fail("null", -32600, "Invalid Request: no method")
            return
        ident = self.ident(message["id"])
        if not isinstance(method, str):
            if "result" not in message and "error" not in message:
                self.fail(ident or "null", -32600, "Invalid Request: no method")
            elif ident is not None and self.awaited:
                _handed_back(self, ident, message)
            return
        if ident is None:
            self.fail("null", -32600, "Invalid Request: id must be a string or an integer")
            return
        try:
            if message.get("jsonrpc") != "2.0":
                raise _McpError(-32600, 'Invalid Request: jsonrpc must be "2.0"')
            self.request(ident, method, message.get("params"))
        except _McpError as error:
            # NOTE: a second request with the id of one in flight is answered without an id:
            # the id's one answer belongs to the first.
            shown = "null" if error.message == _DUPLICATE[1] else ident
            self.fail(shown, error.code, error.message, error.data)

    def notify(self, method: str, params: object) -> None:
        if method != "notifications/cancelled" or not isinstance(params, dict):
            return
        ident = self.ident(params.get("requestId"))
        if ident is None:
            return
        with self.lock:
            request = self.inflight.get(ident)
            if request is not None:
                request.cancelled = True
        if request is not None:
            request.context.cancelled.set()

    def request(self, ident: str, method: str, params: object) -> None:
        handler = _MCP_METHODS.get(method) or _MCP_EXTRA.get(method)
        if handler is None:
            raise _McpError(-32601, f"Method not found: {method}")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise _McpError(-32602, "Invalid params: expected an object")
        modern = method != "initialize" and "_meta" in params and self.modern(params)
        result = handler(self, ident, params, modern)
        if result is not None:
            self.reply(ident, result)

    def log(self, request: _Request | None, level: str, message: str, data: dict[str, Any]) -> None:
        """`ctx.log`: `notifications/message`, if the client asked for this level or a lower one
        (`logging/setLevel`, or a 2026-07-28 request's `_meta` logLevel), while the call runs."""
        wanted = request.level if request is not None and request.level else self.level
        if wanted not in _LOG_LEVELS or _LOG_LEVELS.index(level) < _LOG_LEVELS.index(wanted):
            return
        if request is None or request.sanitize:
            message = _neutralise(message)
        payload: object = message
        if data:
            try:
                payload = {"message": message, **_jsonable(data)}
            except TypeError:
                payload = {"message": message, **{k: repr(v) for k, v in data.items()}}
        if request is not None and request.quarantine:
            payload = _quarantined(payload)
        logger = request.context.command if request is not None else PROGRAM
        params = {"level": level, "logger": logger, "data": payload}
        text = '{"jsonrpc":"2.0","method":"notifications/message","params":'
        with self.lock:
            if request is not None and (
                self.inflight.get(request.key) is not request or request.cancelled
            ):
                return
            self.write(text + self.dumps(params) + "}")

    def modern(self, params: dict[str, Any]) -> bool:
        """True for a 2026-07-28 request (its `_meta` names the version); check its fields."""
        meta = params.get("_meta")
        if not isinstance(meta, dict) or _MCP_META + "protocolVersion" not in meta:
            return False
        version = meta[_MCP_META + "protocolVersion"]
        if version != _MCP_MODERN:
            raise _McpError(
                -32022,
                "Unsupported protocol version",
                {"supported": [_MCP_MODERN, *_MCP_LEGACY], "requested": version},
            )
        if not isinstance(meta.get(_MCP_META + "clientCapabilities"), dict):
            raise _McpError(
                -32602, f"Invalid params: _meta {_MCP_META}clientCapabilities is required"
            )
        return True

    def complete(self, result: str, meta: str = "") -> str:
        """A 2026-07-28 result: `resultType` and the server's info in `_meta` (with `meta`, more
        of it: `"key":value`)."""
        info = self.dumps({"name": PROGRAM, "version": VERSION})
        more = "," + meta if meta else ""
        stamp = (
            '{"resultType":"complete","_meta":{"' + _MCP_META + 'serverInfo":' + info + more + "}"
        )
        return stamp + ("," + result[1:] if result != "{}" else "}")

    def call(self, ident: str, params: dict[str, Any], modern: bool) -> None:
        """`tools/call`: run on this thread, or on a worker while the main thread is busy."""
        name = params.get("name")
        if not isinstance(name, str):
            raise _McpError(-32602, "Invalid params: name must be a string")
        entry = _MCP_NAMES.get(name)
        if entry is None:
            raise _McpError(-32602, f"Unknown tool: {name}")
        arguments = _arguments(params)
        meta = params.get("_meta")
        token = None
        if isinstance(meta, dict):
            token = meta.get("progressToken")
            if isinstance(token, bool) or not isinstance(token, (str, int)):
                token = None
        command = _command(entry[0])
        assert command is not None  # NOTE: every tool name maps to a command
        context = Context(entry[0], True)
        if self.debug:
            context._verbose = True
        request = _Request(self, ident, context, token, command)
        context._report = _no_progress if token is None else request.report
        if "logging/setLevel" in _MCP_EXTRA:
            if modern and isinstance(meta, dict):
                request.level = meta.get(_MCP_META + "logLevel")
            context._log = lambda level, message, data: self.log(request, level, message, data)
        _asking(self, request, params, modern, entry[0], arguments)
        thread = self.thread()
        inline = thread == self.main
        if thread in self.batches or thread in self.sinks:
            # NOTE: a call of a batch, or of an HTTP request, answers on its own thread.
            with self.lock:
                if ident in self.inflight:
                    raise _McpError(*_DUPLICATE)
                self.inflight[ident] = request
            self.run(request, command, entry[1], arguments, modern)
            return
        with self.lock:
            if ident in self.inflight:
                raise _McpError(*_DUPLICATE)
            self.inflight[ident] = request
            if inline:
                self.begin()
        if not inline:
            try:
                self.submit(lambda: self.run(request, command, entry[1], arguments, modern))
            except RuntimeError as error:  # no thread could be started
                with self.lock:
                    del self.inflight[ident]
                raise _McpError(-32603, f"Internal error: {error}") from None
            return
        self.watchdog()
        try:
            self.run(request, command, entry[1], arguments, modern)
        finally:
            with self.lock:
                self.running = 0

    def progress(
        self, request: _Request, done: float, total: float | None, message: str | None
    ) -> None:
        if not _Float.check(done) or not _finite(done):
            return
        params: dict[str, Any] = {"progressToken": request.token, "progress": done}
        if _Float.check(total) and _finite(total or 0):
            params["total"] = total
        if isinstance(message, str):
            # NOTE: progress reaches the agent too: neutralised like results (secrets: `write`).
            params["message"] = message if not request.sanitize else _neutralise(message)
            if request.quarantine:
                params["message"] = _quarantine(params["message"])
        with self.lock:
            # NOTE: `is`, not `in`: the client may have reused the id of an answered call.
            if self.inflight.get(request.key) is not request or request.cancelled:
                return
            if request.last is not None and done <= request.last:
                return
            request.last = done
            text = '{"jsonrpc":"2.0","method":"notifications/progress","params":'
            self.write(text + self.dumps(params) + "}")

    def run(
        self,
        request: _Request,
        command: _Command,
        wrapped: bool,
        arguments: dict[str, Any],
        modern: bool,
    ) -> None:
        """Run one tools/call on this thread and answer it, unless it was cancelled; `wrapped`:
        its structuredContent wraps the data as {"result": ...}."""
        thread = self.thread()
        printed: list[str] = []
        self.stdout.buffers[thread] = printed
        context = request.context
        try:
            call = _Call(arguments, "json", context, _Sources(context.command, self.config, True))
            if self.spill_dir is not None:
                call.spill_dir = self.spill_dir
            if command.confirm is not None:
                _confirming(self, call, command, arguments)
            # NOTE: the same envelope a `--json` caller gets, provenance included.
            envelope, whole = _delivered(
                _execute(command, call), command, True, self.limit, self.spill_dir
            )
        except (KeyboardInterrupt, _Terminated) as error:
            # NOTE: Ctrl-C or SIGTERM while a call runs on the main thread stops the server, as
            # it does while the server waits for input (the call's on_exit callbacks have run
            # by then); raised by a handler itself (no signal came), it is the call's error.
            if thread == self.main and (isinstance(error, _Terminated) or _from_ctrl_c(error)):
                with self.lock:
                    self.inflight.pop(request.key, None)
                raise
            envelope, whole = _delivered(
                _failure_envelope(_as_error(error, self.debug), True), None, True
            )
        except _InputRequired as asked:
            asked.answer(self, request)
            return
        except BaseException as error:  # noqa: BLE001 (a failing call is an isError result)
            envelope, whole = _delivered(
                _failure_envelope(_as_error(error, self.debug), True), None, True
            )
        finally:
            context.close()
            del self.stdout.buffers[thread]
        outcome = ""
        try:
            string = self.codec.string
            media = _MEDIA[1](envelope) if _MEDIA else None
            if media is not None:
                # NOTE: images and audio as content items; the text says where each is.
                whole = self.codec.envelope(media[0])
            elif whole is None:
                whole = self.codec.envelope(envelope)
            content = '[{"type":"text","text":' + string(whole)
            if printed:
                # NOTE: what the handler printed reaches the agent as its answer does: made
                # safe, quarantined and cut (the full text paged back with `output REF`).
                said: dict[str, Any] = _success("".join(printed))
                said = _delivered(said, command, True, self.limit, self.spill_dir)[0]
                content += '},{"type":"text","text":' + string(said["data"])
            if media is not None:
                content += "}," + "},".join(self.dumps(item)[:-1] for item in media[1])
            result = '{"content":' + content + "}]"
            if envelope["ok"]:
                data = envelope["data"]
                if wrapped:
                    # NOTE: a text result (the most common wrapped one) is only quoted: the
                    # encoder's set-up costs more than the quoting.
                    inner = string(data) if type(data) is str else self.dumps(data)
                    structured = '{"result":' + inner + "}"
                else:
                    structured = self.dumps(data)
                result += ',"structuredContent":' + structured + ',"isError":false}'
                if "outcome" in envelope:
                    # NOTE: a declared outcome is an answer, not an error; `_meta` names it.
                    outcome = '"outcome":' + self.dumps(envelope["outcome"])
            else:
                result += ',"isError":true}'
            if modern:
                result = self.complete(result, outcome)
            elif outcome:
                result = result[:-1] + ',"_meta":{' + outcome + "}}"
            answer = '{"jsonrpc":"2.0","id":' + request.key + ',"result":' + result + "}"
        except Exception as error:  # noqa: BLE001 (still answer, and free the id)
            failure = self.dumps({"code": -32603, "message": f"Internal error: {error!r}"})
            answer = '{"jsonrpc":"2.0","id":' + request.key + ',"error":' + failure + "}"
        with self.lock:
            if not request.cancelled:
                self.write(answer)
            del self.inflight[request.key]


#: Each request method and the server's handler of it; a handler returns the result as JSON
#: text, or None when it answers by itself (a tools/call may answer later, from a worker).
_MCP_METHODS: dict[str, Callable[[_McpServer, str, dict[str, Any], bool], str | None]] = {
    "initialize": _mcp_initialize,
    "ping": _mcp_ping,
    "server/discover": _mcp_discover,
    "tools/list": _mcp_tools_list,
    "tools/call": _McpServer.call,
}


def _served_flags(invocation: _Invocation, config: str | None, cwd: str | None) -> list[str]:
    """The tool-wide flags given with `--mcp` that every call reads, as a client must repeat
    them; a path made absolute (from `--cwd`, where the server reads it), since a client starts
    the server from a folder of its own."""
    base = os.path.abspath(cwd or os.curdir)
    words: list[str] = []
    if config is not None:
        path = os.path.join(base, config)
        # NOTE: checked now, as `--cwd` is: a registration whose every call would fail is refused.
        _config_file(path, config)
        words += ["--config", path]
    if invocation.max_output is not None:
        words += ["--max-output", str(invocation.max_output)]
    if invocation.spill_dir is not None:
        words += ["--spill-dir", os.path.join(base, invocation.spill_dir)]
    if invocation.debug:
        words.append("--debug")
    return words


def _serve_mcp(invocation: _Invocation) -> int:
    """`--mcp`: serve until stdin ends; `--mcp --print-config`: print the client configuration."""
    options = _McpOptions(invocation.rest, invocation.print_config)
    if options.help:
        return _mcp_help()
    config = invocation.config()
    if options.print_config:
        return _print_config(options, tuple(_served_flags(invocation, config, options.cwd)))

    def make(debug: bool, shared: _McpServer | None = None) -> _McpServer:
        server = _McpServer(debug, shared)
        server.limit, server.spill_dir = invocation.max_output, invocation.spill_dir
        server.config = config
        return server

    if options.cwd:
        os.chdir(options.cwd)
    # NOTE: a handler that reads standard input finds it empty, never the requests.
    requests = _stdin_apart()
    if options.http is not None:
        requests.close()
        return _serve_http(options, _debugging(invocation.debug), make)
    server = make(_debugging(invocation.debug))
    _on_sigterm()
    _on_sigint()
    try:
        return server.serve(requests)
    except (KeyboardInterrupt, _Terminated) as error:
        server.stop()
        if server.relaying:
            # NOTE: the watchdog is blocked reading stdin, and the interpreter's shutdown would
            # wait for that read's lock (and abort); nothing is left to flush but stderr.
            sys.stderr.flush()
            kind = "interrupted" if isinstance(error, KeyboardInterrupt) else "terminated"
            os._exit(BUILTIN_ERRORS[kind][0])
        raise
