# burgee: joins tail 330
# burgee: section mcp
"""`tools/call` on the MCP server: the call in flight (`_Request`), its progress and
`ctx.log` notifications, and its run through `_execute` (the command line's path, so its text
content is byte for byte the `--json` envelope) to its answer.

`_McpCalls` (on `_McpWire`): `tools/call` and its `_Request` in flight: run on the reading
thread or a worker, through `_execute` (a declared outcome is a success with `_meta.outcome`;
images and audio as content items, through the program's `_MEDIA`); its `notifications/progress`
and `ctx.log` → `notifications/message`; the `--max-output`, `--spill-dir` and `--config` given
with `--mcp` apply to every call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import (
    _QUARANTINED,
    _delivered,
    _failure_envelope,
    _output_limit,
)
from burgee.runtime.answers.output import _finite, _jsonable
from burgee.runtime.answers.sanitize import _neutralise, _quarantine, _quarantined
from burgee.runtime.core.context import _LOG_LEVELS, Context
from burgee.runtime.core.errors import _from_ctrl_c, _success, _Terminated
from burgee.runtime.core.kinds import _Float
from burgee.runtime.execution.execute import _as_error, _execute
from burgee.runtime.execution.sources import _Sources
from burgee.runtime.execution.table import _command
from burgee.runtime.execution.values import _Call
from burgee.runtime.mcpserver.mcp_ask import _asking, _confirming, _InputRequired
from burgee.runtime.mcpserver.mcp_io import _MCP_META, _arguments, _McpError
from burgee.runtime.mcpserver.mcp_wire import _McpWire
from burgee.runtime.rows import _MediaRow, _ToolRow

if TYPE_CHECKING:
    from burgee.runtime.core.context import _Command


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
        self, server: _McpCalls, key: str, context: Context, token: object, command: _Command
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


class _McpCalls(_McpWire):
    """Runs each tools/call, on the thread that read it or on a worker."""

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
        logger = request.context.command if request is not None else self.program.name
        params = {"level": level, "logger": logger, "data": payload}
        text = '{"jsonrpc":"2.0","method":"notifications/message","params":'
        with self.lock:
            if request is not None and (
                request.cancelled or self.inflight.get(request.key) is not request
            ):
                return
            self.write(text + self.dumps(params) + "}")

    def call(self, ident: str, params: dict[str, Any], modern: bool) -> None:
        """`tools/call`: run on this thread, or on a worker while the main thread is busy."""
        name = params.get("name")
        if not isinstance(name, str):
            raise _McpError(-32602, "Invalid params: name must be a string")
        found = self.program.mcp_names.get(name)
        if found is None:
            raise _McpError(-32602, f"Unknown tool: {name}")
        tool = _ToolRow(found)
        arguments = _arguments(params)
        meta = params.get("_meta")
        token = None
        if isinstance(meta, dict):
            token = meta.get("progressToken")
            if isinstance(token, bool) or not isinstance(token, (str, int)):
                token = None
        command = _command(self.program, tool.command)
        assert command is not None  # NOTE: every tool name maps to a command
        context = Context(tool.command, True, self.program)
        if self.debug:
            context._verbose = True
        request = _Request(self, ident, context, token, command)
        context._report = _no_progress if token is None else request.report
        if "logging/setLevel" in self.program.mcp_extra:
            if modern and isinstance(meta, dict):
                request.level = meta.get(_MCP_META + "logLevel")
            context._log = lambda level, message, data: self.log(request, level, message, data)
        _asking(self, request, params, modern, tool.command, arguments)
        thread = self.thread()
        inline = thread == self.main
        if thread in self.batches or thread in self.sinks:
            # NOTE: a call of a batch, or of an HTTP request, answers on its own thread.
            with self.lock:
                if ident in self.inflight:
                    raise _McpError(*_DUPLICATE)
                self.inflight[ident] = request
            self.run(request, command, tool.wrapped, arguments, modern)
            return
        with self.lock:
            if ident in self.inflight:
                raise _McpError(*_DUPLICATE)
            self.inflight[ident] = request
            if inline:
                self.begin()
        if not inline:
            try:
                self.submit(lambda: self.run(request, command, tool.wrapped, arguments, modern))
            except RuntimeError as error:  # no thread could be started
                with self.lock:
                    del self.inflight[ident]
                raise _McpError(-32603, f"Internal error: {error}") from None
            return
        self.watchdog()
        try:
            self.run(request, command, tool.wrapped, arguments, modern)
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
            sources = _Sources(context.command, self.program, self.config, True)
            call = _Call(arguments, "json", context, sources)
            if self.spill_dir is not None:
                call.spill_dir = self.spill_dir
            call.bound = _output_limit(context._program, None, self.limit, True)
            if command.confirm is not None:
                _confirming(self, call, command, arguments)
            # NOTE: the same envelope a `--json` caller gets, provenance included.
            envelope, whole = _delivered(
                _execute(command, call), command, context._program, True, self.limit, self.spill_dir
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
                _failure_envelope(_as_error(error, self.debug, self.program), True),
                None,
                context._program,
                True,
            )
        except _InputRequired as asked:
            asked.answer(self, request)
            return
        except BaseException as error:  # noqa: BLE001 (a failing call is an isError result)
            envelope, whole = _delivered(
                _failure_envelope(_as_error(error, self.debug, self.program), True),
                None,
                context._program,
                True,
            )
        finally:
            context.close()
            del self.stdout.buffers[thread]
        outcome = ""
        answer: str | list[str]
        try:
            string = self.codec.string
            media = _MediaRow(self.program.media).text(envelope) if self.program.media else None
            if media is not None:
                # NOTE: images, audio and resources as content items; the text says where.
                whole = self.codec.envelope(media[0])
            elif whole is None:
                whole = self.codec.envelope(envelope)
            parts = ['{"content":[{"type":"text","text":' + string(whole)]
            if printed:
                # NOTE: what the handler printed reaches the agent as its answer does: made
                # safe, quarantined and cut (the full text paged back with `output REF`).
                said: dict[str, Any] = _success("".join(printed))
                said = _delivered(
                    said, command, context._program, True, self.limit, self.spill_dir
                )[0]
                parts.append('},{"type":"text","text":' + string(said["data"]))
            parts.append("}")
            # NOTE: media's base64 is a part of its own, in the content item and in
            # structuredContent alike: the answer is written from its parts, never joined.
            for item in media[1] if media is not None else ():
                parts.append(",")
                self.pieces(item, parts)
            parts.append("]")
            if envelope["ok"]:
                data = envelope["data"]
                parts.append(',"structuredContent":' + ('{"result":' if wrapped else ""))
                if type(data) is str:
                    # NOTE: a text result (the most common wrapped one) is only quoted: the
                    # encoder's set-up costs more than the quoting.
                    parts.append(string(data))
                elif media is not None:
                    self.pieces(data, parts)
                else:
                    parts.append(self.dumps(data))
                parts.append('},"isError":false}' if wrapped else ',"isError":false}')
                if "outcome" in envelope:
                    # NOTE: a declared outcome is an answer, not an error; `_meta` names it.
                    outcome = '"outcome":' + self.dumps(envelope["outcome"])
            else:
                parts.append(',"isError":true}')
            if modern:
                parts[0] = self.complete(parts[0], outcome)
            elif outcome:
                parts[-1] = parts[-1][:-1] + ',"_meta":{' + outcome + "}}"
            parts[0] = '{"jsonrpc":"2.0","id":' + request.key + ',"result":' + parts[0]
            parts.append("}")
            answer = parts if media is not None else "".join(parts)
        except Exception as error:  # noqa: BLE001 (still answer, and free the id)
            failure = self.dumps({"code": -32603, "message": f"Internal error: {error!r}"})
            answer = '{"jsonrpc":"2.0","id":' + request.key + ',"error":' + failure + "}"
        with self.lock:
            if not request.cancelled:
                self.write(answer)
            del self.inflight[request.key]
