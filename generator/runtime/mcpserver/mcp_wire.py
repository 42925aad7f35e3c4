# burgee: joins tail 320
# burgee: section mcp
"""The MCP server's session and its writing: what `initialize` agreed on, the questions
waiting for answers, and each message out (to stdout's private descriptor, a JSON-RPC batch's
answers, or an HTTP exchange's sink), secrets redacted; `mcp_call._McpCalls` runs tools/call
on it, `mcp._McpServer` answers each line.

`_McpWire` (on `_McpLoop`): one MCP session's state (the version `initialize` agreed on, the
`logging/setLevel` level, the questions awaiting answers) and the writing of its messages: to
stdout's private descriptor (or `invoke()`'s capture, the caller's descriptors untouched), a
2025-03-26 batch's answers, or an HTTP exchange's per-thread sink, secrets redacted (an answer
of media as parts, `pieces`, its base64 never copied into one text); `complete`,
a 2026-07-28 result's `_meta`; `stop`/`abandon` (calls cancelled, unanswered).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, cast

from burgee.runtime.answers.output import _descriptor, _Stdout
from burgee.runtime.answers.sanitize import _redact, _redact_text
from burgee.runtime.core.context import _SECRETS
from burgee.runtime.execution.execute import _TIMEOUT_GRACE
from burgee.runtime.mcpserver.mcp_ask import _nobody_answers
from burgee.runtime.mcpserver.mcp_io import _MCP_META, _WIRE_SLICE, _Codec, _first, _wire_slices
from burgee.runtime.mcpserver.mcp_loop import _McpLoop

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from burgee.runtime.program import Program


def _parts(text: str | list[str]) -> list[str] | tuple[str]:
    return (text,) if isinstance(text, str) else text


def _plain(text: str) -> bool:
    """Whether JSON writes `text` as it is between its quotes (base64 always)."""
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


class _McpWire(_McpLoop):
    """The state of one MCP session and the writing of its messages."""

    inflight: dict[str, Any]  # NOTE: `mcp_call._Request`s (that module imports this one)
    #: The tool-wide flags given with `--mcp` that apply to every call: `--max-output`,
    #: `--spill-dir`, `--config` (set by `_serve_mcp`).
    limit: int | None = None
    spill_dir: str | None = None
    config: str | None = None
    #: The HTTP session this server is (`Mcp-Session-Id`), which a lost question names.
    session: str | None = None

    def __init__(self, program: Program, debug: bool, shared: _McpWire | None = None) -> None:
        _McpLoop.__init__(self, program)
        self.codec = _Codec()
        self.debug = debug
        self.out: int
        self.stdout: _Stdout
        #: The stream in memory the protocol goes to instead of a descriptor (`invoke()`).
        self.memory: Any = None
        if shared is not None:
            # NOTE: one more session of the HTTP transport: stdout is already protected.
            self.out, self.stdout = shared.out, shared.stdout
        else:
            if _descriptor(sys.stdout) < 0:
                # NOTE: `invoke()`'s capture: the protocol goes there, and the caller's file
                # descriptors stay as they are.
                self.out, self.memory = -1, sys.stdout
            else:
                self.out = os.dup(1)
                # NOTE: fd 1 becomes stderr, so nothing a handler or its children write can
                # reach the protocol stream; the protocol goes to the private descriptor.
                os.dup2(2, 1)
            self.stdout = _Stdout(sys.stderr)
            sys.stdout = cast("Any", self.stdout)
        self.broken = False
        #: Threads whose messages go elsewhere than stdout (an HTTP exchange): thread -> sink.
        self.sinks: dict[int, Callable[[str | list[str]], None]] = {}
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
        #: The HTTP threads whose answers stream: thread -> `mcp_endpoint._Stream`.
        self.streams: dict[int, Any] = {}

    def write(self, text: str | list[str]) -> None:
        """Write one message (its text, or its parts: an answer of media, `pieces`); the caller
        holds `self.lock` when calls may be running."""
        if _SECRETS and any(_redact_text(part, _SECRETS) is not part for part in _parts(text)):
            # NOTE: a secret in the message (a progress or log message, say; an answer's data
            # was redacted on delivery): redacted as data, so the message stays JSON.
            whole = text if isinstance(text, str) else "".join(text)
            text = self.dumps(_redact(self.codec.load(whole), _SECRETS))
        if self.batches and _first(text)[:22] == '{"jsonrpc":"2.0","id":':
            answers = self.batches.get(self.thread())
            if answers is not None:
                # NOTE: a 2025-03-26 batch's answers go out as one array, joined.
                answers.append(text if isinstance(text, str) else "".join(text))
                return
        if self.sinks:
            sink = self.sinks.get(self.thread())
            if sink is not None:
                sink(text)
                return
        if self.memory is not None:
            self.memory.writelines([*_parts(text), "\n"])
            return
        self.emit(_wire_slices([*_parts(text), "\n"]))

    def emit(self, pieces: Iterable[bytes]) -> None:
        """Write bytes to the protocol's descriptor (the caller holds `self.lock`)."""
        for piece in pieces:
            data = piece
            while data and not self.broken:
                try:
                    data = data[os.write(self.out, data) :]
                except OSError:
                    self.broken = True

    def pieces(self, value: object, into: list[str]) -> None:
        """`value`'s JSON text appended to `into` in pieces, each long string that JSON writes
        as it is (media's base64) a piece of its own: the answer is written from where it
        is, never copied into one whole text (`_wire_slices`)."""
        if isinstance(value, str) and len(value) > _WIRE_SLICE and _plain(value):
            into += ('"', value, '"')
        elif type(value) is dict and all(type(key) is str for key in value):
            into.append("{")
            for number, (key, inner) in enumerate(value.items()):
                into.append(("," if number else "") + self.codec.string(key) + ":")
                self.pieces(inner, into)
            into.append("}")
        elif type(value) is list:
            into.append("[")
            for number, inner in enumerate(value):
                if number:
                    into.append(",")
                self.pieces(inner, into)
            into.append("]")
        else:
            into.append(self.dumps(value))

    def send(self, text: str) -> None:
        with self.lock:
            self.write(text)

    def reply(self, ident: str, result: str | bytes) -> None:
        """Answer a request with its result: JSON text, or a document's bytes as decompressed
        (`_mcp_page`), written to stdout as they are (a wide tool's list: no fresh copies)."""
        head = '{"jsonrpc":"2.0","id":' + ident + ',"result":'
        if isinstance(result, bytes):
            with self.lock:
                # NOTE: where a message may be redacted, or goes elsewhere than stdout, it is text.
                if _SECRETS or self.batches or self.sinks or self.memory is not None:
                    self.write(head + result.decode("utf-8") + "}")
                else:
                    self.emit((head.encode("ascii"), result, b"}\n"))
            return
        self.send(head + result + "}")

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

    def complete(self, result: str, meta: str = "") -> str:
        """A 2026-07-28 result: `resultType` and the server's info in `_meta` (with `meta`, more
        of it: `"key":value`)."""
        info = self.dumps({"name": self.program.name, "version": self.program.version})
        more = "," + meta if meta else ""
        stamp = (
            '{"resultType":"complete","_meta":{"' + _MCP_META + 'serverInfo":' + info + more + "}"
        )
        return stamp + ("," + result[1:] if result != "{}" else "}")
