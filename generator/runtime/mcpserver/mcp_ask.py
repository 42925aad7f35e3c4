# burgee: joins tail 280
# burgee: section mcp
# burgee: section elicit after mcp: _elicited _retried _state _confirming
# NOTE: asking the client (elicitation): what a session needs only when a handler asks.
"""Questions asked within an MCP call (`ctx.confirm`, `ctx.ask`, a missing `Option(prompt=)`,
a command that asks first), answered by the client's user: in the session eras an
`elicitation/create` request the call waits for (over stdio, or the call's SSE stream), in
2026-07-28 an `input_required` result the client answers by retrying the call with
`inputResponses` (the call runs again from the start, its earlier answers kept in
`requestState`). Where the client cannot be asked, `context._answer` stops the call with
`action_required`, whose `next` is the command line that answers (`--answer NAME=VALUE`).

A call's questions over MCP (`_asking`, set up for each `tools/call`: the `--answer` line that
reruns it, and `Context._elicit` when the client declared elicitation): in the session eras
`_elicited` sends `elicitation/create` (on stdout, or the call's SSE stream; never to an HTTP
client that takes one JSON answer, nor in a 2025-03-26 batch) and waits, cancellable, for the
answer the reading thread hands back (`_handed_back`; the end of stdin, or an HTTP session's end
(DELETE, or the least recently used one dropped), answers every waiting question with none,
`_nobody_answers`); in 2026-07-28 (`_retried`) an unanswered question ends the call with an
`input_required` result (`_InputRequired`, a BaseException a handler's `except Exception` leaves
alone), the client retries it with `inputResponses`, and the call runs again from the start, its
earlier answers carried in `requestState`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.output import _as_read
from burgee.runtime.core.context import _answer_flags, _rerun_line
from burgee.runtime.core.errors import _ActionRequired, _AfterRun
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.execution.values import _confirmation
from burgee.runtime.mcpserver.mcp_io import _MCP_BATCHES, _MCP_META

if TYPE_CHECKING:
    from collections.abc import Callable

    from burgee.runtime.core.context import _Command
    from burgee.runtime.execution.values import _Call

#: The session-era versions without elicitation (it came in 2025-06-18).
_NO_ELICITATION = ("2024-11-05", _MCP_BATCHES)
#: The slices a call waits for its answer in (seconds).
_ASK_POLL = 0.25
#: The longest a call waits for its client's answer (seconds): then the question ends
#: unanswered, as when the client's stream ends, so a client that asked and went silent holds
#: its call (over HTTP, a request's place) no longer.
_ASK_SECONDS = 600.0


class _InputRequired(BaseException):
    """A 2026-07-28 call's unanswered question: the call ends with an `input_required` result.
    A BaseException, so a handler's `except Exception` does not take it for its own failure."""

    def __init__(self, name: str, request: dict[str, Any], state: dict[str, Any]) -> None:
        super().__init__(name)
        self.requests = {name: request}
        self.state = state

    # NOTE: `server` is the call's `mcp_wire._McpWire`, `request` its `mcp_call._Request`,
    # typed Any here as below: those modules import this one.
    def answer(self, server: Any, request: Any) -> None:
        """Answer the call with its `input_required` result, unless it was cancelled."""
        with server.lock:
            if not request.cancelled:
                server.write(
                    '{"jsonrpc":"2.0","id":'
                    + request.key
                    + ',"result":'
                    + self.result(server)
                    + "}"
                )
            del server.inflight[request.key]

    def result(self, server: Any) -> str:
        """The `input_required` result (its `requestState`: every answer so far, as text)."""
        import base64

        state = base64.b64encode(server.dumps(self.state).encode("utf-8")).decode("ascii")
        info = {"name": server.program.name, "version": server.program.version}
        text: str = server.dumps(
            {
                "resultType": "input_required",
                "inputRequests": self.requests,
                "requestState": state,
                "_meta": {_MCP_META + "serverInfo": info},
            }
        )
        return text


def _state(text: object) -> dict[str, Any]:
    """The answers a retried 2026-07-28 call carries back (`requestState`); none if unreadable
    (a client may send anything: it only gives back what its user answered)."""
    import base64
    import binascii

    if not isinstance(text, str):
        return {}
    try:
        found = _load_json(base64.b64decode(text.encode("ascii"), validate=True).decode("utf-8"))
    except (ValueError, UnicodeError, binascii.Error, RecursionError):
        return {}
    return found if isinstance(found, dict) else {}


def _asking(
    server: Any,
    request: Any,
    params: dict[str, Any],
    modern: bool,
    path: str,
    arguments: dict[str, Any],
) -> None:
    """Set up how a call's questions are answered: the line that reruns it with an answer, and
    (when the client declared elicitation and can be asked here) how its user is asked."""
    context = request.context
    given = _as_read(arguments, server.dumps)
    context._rerun = lambda more: _rerun_line(
        context._program, path, [], given, _answer_flags(context._program, {}, more), server.config
    )
    if modern:
        meta = params.get("_meta") or {}
        capabilities = meta.get(_MCP_META + "clientCapabilities") or {}
        if isinstance(capabilities, dict) and isinstance(capabilities.get("elicitation"), dict):
            context._elicit = _retried(params)
        return
    thread = server.thread()
    if server.elicits and thread not in server.unstreamed and thread not in server.batches:
        context._elicit = lambda name, message, schema: _elicited(server, request, message, schema)


def _confirming(server: Any, call: _Call, command: _Command, arguments: dict[str, Any]) -> None:
    """A command that asks first: a client that can ask its user is asked the command's
    question; any other approves the call itself (the tool's `destructiveHint`)."""
    context = call.context
    if context._elicit is not None:
        given = _as_read(arguments, server.dumps)
        call.confirm = _confirmation(
            command.confirm or "",
            context.command,
            command.effects,
            lambda flags: _rerun_line(
                context._program, context.command, [], given, flags, server.config
            ),
        )


def _retried(params: dict[str, Any]) -> Callable[[str, str, dict[str, Any]], dict[str, Any]]:
    """2026-07-28: a question answered by the retried call's `inputResponses` (or an earlier
    round's, in `requestState`), else the end of this round: `_InputRequired`."""
    answers = _state(params.get("requestState"))
    responses = params.get("inputResponses")
    if isinstance(responses, dict):
        answers.update(responses)

    def ask(name: str, message: str, schema: dict[str, Any]) -> dict[str, Any]:
        answer = answers.get(name)
        if isinstance(answer, dict):
            return answer
        asked = {"mode": "form", "message": message, "requestedSchema": schema}
        raise _InputRequired(name, {"method": "elicitation/create", "params": asked}, answers)

    return ask


def _elicited(server: Any, request: Any, message: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Session eras: send `elicitation/create` (on stdout, or the call's SSE stream) and wait
    for the client's answer, which `_handed_back` hands over from the thread that reads it."""
    import threading
    import time

    params: dict[str, Any] = {"message": message, "requestedSchema": schema}
    if server.version != "2025-06-18":
        params["mode"] = "form"
    # NOTE: over HTTP, the request's stream: whether its client is still there, and the
    # endpoint's bound on the calls waiting for answers at once (`mcp_endpoint._Stream`).
    stream = server.streams.get(server.thread())
    if stream is not None and not stream.asking():
        return {}  # NOTE: as many wait already as may: asked of nobody (no action: unanswered)
    done = threading.Event()
    slot: list[Any] = []
    with server.lock:
        server.asked += 1
        key = f'"elicit-{server.asked}"'
        server.awaited[key] = (done, slot)
        if server.gone:
            done.set()  # NOTE: the input has ended: no answer can come
        # NOTE: `method` first: a request, never taken for an answer (`write`, HTTP's JSON).
        server.write(
            '{"jsonrpc":"2.0","method":"elicitation/create","id":'
            + key
            + ',"params":'
            + server.dumps(params)
            + "}"
        )
    context = request.context
    # NOTE: a cancellation wakes the wait at once, and wins over an answer that came with it.
    context._on_cancel.append(done.set)
    until = time.monotonic() + _ASK_SECONDS
    try:
        # NOTE: in slices, so Ctrl-C is seen where a lock wait cannot be interrupted, and
        # the bound and the end of the client's stream are seen too.
        while not done.wait(_ASK_POLL):
            if time.monotonic() > until or (stream is not None and not stream.alive()):
                break
        if request.cancelled or context.cancelled.is_set():
            raise _ActionRequired(
                "cancelled", f"{message} (cancelled)", [], True, context._program.name
            )
        if not slot and not server.gone:
            # NOTE: nobody said no, so this is not the person's cancel; but a person was
            # asked, so no line answers in their place either.
            if stream is not None and not stream.alive():
                said = "no answer can come: the client's stream closed"
            else:
                said = f"no answer came within {_span(_ASK_SECONDS)}"
            raise _ActionRequired(
                "unanswered",
                f"{message} ({said}; nothing more ran)",
                [],
                True,
                context._program.name,
            )
    finally:
        context._on_cancel.remove(done.set)
        with server.lock:
            server.awaited.pop(key, None)
        if stream is not None:
            stream.answered()
    if not slot and server.gone:
        # NOTE: nobody declined or cancelled: the client is lost, and its session is named.
        where = (
            f"the session {server.session} ended (a DELETE, or dropped as the least recently used)"
            if server.session is not None
            else "the client's input ended"
        )
        raise _AfterRun(f"{message} (no answer can come: {where}; nothing more ran)")
    result = slot[0].get("result") if slot and isinstance(slot[0], dict) else None
    # NOTE: an error answer (the client cannot ask now) ends the question as a cancel does.
    return result if isinstance(result, dict) else {"action": "cancel"}


def _span(seconds: float) -> str:
    """`600.0` as `10 minutes`, `0.5` as `0.5 seconds`."""
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} seconds"


def _handed_back(server: Any, ident: str, message: dict[str, Any]) -> None:
    """A client's answer to one of the server's requests: to the call waiting for it."""
    with server.lock:
        waiting = server.awaited.get(ident)
    if waiting is not None:
        waiting[1].append(message)
        waiting[0].set()


def _nobody_answers(server: Any) -> None:
    """The client is gone (the end of stdin): every question waiting for an answer gets none."""
    with server.lock:
        server.gone = True
        waiting = list(server.awaited.values())
    for done, _ in waiting:
        done.set()
