# burgee: joins tail 150
# burgee: section timeout: _run_timed
# burgee: section async: _await
"""The one execution path: flags, `--json` input and MCP `tools/call` all run a command here.

`_execute()` runs a call (convert → handler (an `Outcome` it raises
gives the result, and `outcome` in the envelope; a `sys.exit()` is its `internal` error; what an
external or untrusted command's handler raises is marked for quarantine) → normalise → check →
envelope) for flags, `--json` input and MCP alike; a JSON input's unknown keys are problems of
the call, with the keys as the hint (a confirmation flag's name as a key of a command that asks
first: how it is confirmed instead, `_unknown_keys`); `_as_error()`, `--timeout` (`_run_timed`:
past the grace a handler that ignores it ends the process; under `invoke()`, `_run_apart`: the
handler runs on a thread of its own, left running, and the call returns `timeout`); `_await()`:
an async handler on an event loop of its own, cancelled with `ctx.cancelled`.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _QUARANTINED, _write_error
from burgee.runtime.answers.output import _QUIET, _conform, _emit, _jsonable, _unjsonable_at
from burgee.runtime.core.context import _switched_on
from burgee.runtime.core.errors import (
    BUILTIN_ERRORS,
    CommandError,
    Outcome,
    _Exited,
    _Internal,
    _MissingDependency,
    _success,
    _Terminated,
    _TimedOut,
)
from burgee.runtime.core.flags import confirm_flag
from burgee.runtime.execution.inputs import _input_problems
from burgee.runtime.execution.sources import _meta
from burgee.runtime.rows import _MediaRow
from burgee.runtime.start.boot import _code_span, _file_text, _unpacked

if TYPE_CHECKING:
    from collections.abc import Coroutine
    from typing import TypeVar

    from burgee.runtime.core.context import Context, _Command
    from burgee.runtime.execution.values import _Call
    from burgee.runtime.program import Program

    _T = TypeVar("_T")

#: How long a handler may run on after --timeout cancelled it, before the tool gives up.
_TIMEOUT_GRACE = 2.0
#: The longest deadline a timer can wait for (longer ones overflow the platform's clock).
_TIMEOUT_LONGEST = 1e9
#: Not empty while `invoke()` runs the tool inside its caller's process, which is not the
#: tool's to end (`_run_apart`).
_INVOKED: list[bool] = []


def _unknown_keys(command: _Command, call: _Call) -> None:
    """Keys of a JSON input that are not the command's parameters: each is one more problem of
    the call, reported with the others in its one usage error, whose hint names the keys."""
    keys = command.keys
    for key in call.raw:
        if key not in keys:
            break
    else:
        return  # NOTE: the common case, without building a list (an MCP server's every call)
    unknown = sorted(key for key in call.raw if key not in keys)
    call.problems.extend(f"unknown key {key!r}" for key in unknown)
    call.hint = f"keys: {', '.join(keys)}" if keys else "this command takes no input"
    flag = confirm_flag()
    spellings = {name.lstrip("-").replace("-", "_") for name in (flag.name, *flag.aliases)}
    if command.yes and not spellings.isdisjoint(unknown):
        # NOTE: over MCP the client confirms (elicitation, or its own for a destructive tool).
        mcp = call.context._report is not None
        how = "the MCP client confirms" if mcp else f"give {flag.name} after the JSON input"
        call.hint += f"; confirmation is no key: {how}"


def _execute(
    command: _Command, call: _Call, timeout: float | None = None, json_mode: bool = True
) -> dict[str, Any]:
    """Run one call: convert its input, run the handler, normalise and check the result.

    Returns the success envelope (`{"ok": true, "data": ..., "outcome"?: ..., "meta"?: ...}`;
    a handler that raised a declared `Outcome` gave its result with it); a failure is raised,
    and `_as_error` + `_failure` make its envelope.
    """
    if call.source == "json":
        # NOTE: unknown keys and the keys the schema refuses are reported with the converters'
        # own problems (a date that is not one), all in the one usage error `call.check()`
        # raises.
        _unknown_keys(command, call)
        problems = _input_problems(call.context.command, call.raw, call.context._program)
        if problems:
            call.problems.extend(problems.values())
            call.refused = set(problems)
    outcome = None
    early = False
    try:
        if timeout is None:
            result = command.run(call)
        else:
            result = _run_timed(command, call, timeout, json_mode)
    except Outcome as ended:
        result, outcome = ended.result, ended.name
    except _Exited as exited:
        if exited.exit_code:
            raise
        # NOTE: `ctx.exit(0)`: the command ended early, a success without data, whatever its
        # return type says.
        result, early = None, True
    except SystemExit as exited:
        # NOTE: a script's habit; the tool would have ended without its envelope (a batch, with
        # every line after), so it is the handler's failure, as on every surface.
        raise _Internal(
            f"the handler called sys.exit({exited.code!r}) instead of returning",
            hint="raise CommandError (or an error the command declares) to fail with a message",
        ) from None
    except Exception as error:
        # NOTE: what the handler of an external or untrusted command raised may carry the text
        # it read: marked, so an agent gets it quarantined (`deliver._failure_envelope`). The
        # tool's own errors (usage, timeout, ...) are not the handler's.
        if command.trust in _QUARANTINED and (
            not isinstance(error, CommandError)
            or type(error) is CommandError
            or error.kind not in BUILTIN_ERRORS
        ):
            error._trust = command.trust  # type: ignore[attr-defined]
        raise
    media = call.context._program.media
    if media:
        # NOTE: one answer's media, at most `_MEDIA_TOTAL` together.
        _MediaRow(media).total(result)
    try:
        data = _jsonable(result)
        problem = None if early else _conform(data, command.returns, call.context._program.records)
    except TypeError as error:
        raise _Internal(
            f"{_unjsonable_at(result)}: {error}",
            hint="the handler returned a value its return type does not allow",
        ) from None
    except RecursionError:
        # NOTE: Python's recursion limit, reached at about 500 levels (1,000 from 3.12): the
        # walkers after this one (cuts, neutralising, text) take no more frames a level.
        raise _Internal(
            "result: nested too deeply to write as JSON",
            hint="return flatter data (the handler's result nests lists or objects hundreds deep)",
        ) from None
    if problem is not None:
        raise _Internal(problem, hint="the handler returned a value its return type does not allow")
    envelope: dict[str, Any] = _success(data)
    if outcome is not None:
        envelope["outcome"] = outcome
    meta = _meta(call)
    if meta:
        envelope["meta"] = meta
    return envelope


def _await(context: Context, work: Coroutine[Any, Any, _T]) -> _T:
    """Run an `async def` handler's coroutine on an event loop of its own (one per call, so
    MCP calls on worker threads stay concurrent). `ctx.cancelled` (MCP cancellation,
    --timeout) cancels its task, so its `await`s raise CancelledError; Ctrl-C cancels it too,
    and waits for it to finish before the error goes on."""
    import asyncio

    loop = asyncio.new_event_loop()
    task = loop.create_task(work)

    def cancel() -> None:
        try:
            loop.call_soon_threadsafe(task.cancel)
        except RuntimeError:
            return  # NOTE: the loop is closed: the call is over

    context._on_cancel.append(cancel)
    if context.cancelled.is_set():
        task.cancel()
    try:
        return loop.run_until_complete(task)
    except BaseException:
        if not task.done():
            task.cancel()
            # NOTE: waits for the handler to finish, without raising its CancelledError: the
            # first error is the one to report.
            loop.run_until_complete(asyncio.wait([task]))
        elif not task.cancelled():
            # NOTE: a SystemExit or KeyboardInterrupt of the handler's leaves the loop at once
            # and stays stored in the task; taken here, asyncio does not log it as never
            # retrieved (a traceback on stderr).
            task.exception()
        raise
    finally:
        context._on_cancel.remove(cancel)
        loop.close()


def _debugging(flag: bool, program: Program) -> bool:
    """Tracebacks were asked for: `--debug`, or `program`'s debug environment variable set to
    anything but an empty or false-like value (`0`, `false`, `no`, `off`)."""
    return flag or _switched_on(program.debug_env)


def _packed_lines(namespace: dict[str, Any]) -> None:
    """Let a traceback show the lines of the module's packed code (see `render/sections.py`):
    the lines the code has when unpacked, where Python would read the packed file's own lines
    (base64) instead."""
    path = namespace.get("__file__")
    text = _file_text(path, namespace) if isinstance(path, str) else None
    span = _code_span(text)
    if text is None or span is None or not span[2] or not isinstance(path, str):
        return
    import linecache

    start, end, _ = span
    try:
        lines = (text[:start] + _unpacked(text[start:end], path)).splitlines(keepends=True)
    except SystemExit:
        return  # NOTE: the file changed since the start: the traceback goes without its lines
    # NOTE: no modification time: `linecache.checkcache` keeps such an entry.
    linecache.cache[os.path.abspath(path)] = (len(text), None, lines, path)


def _as_error(error: BaseException, debug: bool, program: Program) -> CommandError:
    """`error` as `program` reports it: a declared error as it is, anything else as
    `internal`."""
    if isinstance(error, CommandError):
        return error
    if isinstance(error, ModuleNotFoundError) and error.name:
        # NOTE: an import inside a handler; the tool's top-level ones are guarded by `_Missing`.
        package = error.name.split(".")[0]
        return _MissingDependency(
            f"this command needs the module {package!r}, which is not installed",
            hint=f"pip install {package}",
        )
    if debug:
        import traceback

        _packed_lines(globals())
        # NOTE: through `_emit`, so not even a traceback shows a secret.
        lines = traceback.format_exception(type(error), error, error.__traceback__)
        _emit(sys.stderr, "".join(lines))
    hint = None if debug else f"rerun with --debug (or {program.debug_env}=1) to see the traceback"
    internal = _Internal(f"{type(error).__name__}: {error}", hint=hint)
    internal._trust = getattr(error, "_trust", None)  # type: ignore[attr-defined]
    return internal


def _run_timed(command: _Command, call: _Call, seconds: float, json_mode: bool) -> object:
    """Run a command; set ctx.cancelled at the deadline and end as `timeout`."""
    import threading

    context = call.context
    finished = threading.Event()
    expired: list[bool] = []
    error = _TimedOut(
        f"timed out after {seconds:g} s", hint="raise --timeout, or narrow the request"
    )
    if _INVOKED:
        return _run_apart(command, call, min(seconds, _TIMEOUT_LONGEST), error)

    def expire() -> None:
        expired.append(True)
        context.cancelled.set()
        if finished.wait(_TIMEOUT_GRACE):
            return
        # NOTE: the handler ignored the cancellation; end the process from here. Its on_exit
        # callbacks run first, while what they print still goes to stderr.
        context.close()
        _QUIET.stop()
        code = _write_error(error, json_mode, context._program)
        sys.stderr.flush()
        os._exit(code)

    timer = threading.Timer(min(seconds, _TIMEOUT_LONGEST), expire)
    timer.daemon = True
    timer.start()
    stopped = False
    try:
        result = command.run(call)
    except (KeyboardInterrupt, _Terminated):
        # NOTE: Ctrl-C or SIGTERM in the grace period is what ended the call, not the timeout.
        stopped = True
        raise
    finally:
        finished.set()
        timer.cancel()
        if expired and not stopped:
            raise error from None
    return result


def _run_apart(command: _Command, call: _Call, seconds: float, error: _TimedOut) -> object:
    """`_run_timed` under `invoke()`: the handler runs on a thread of its own, which the
    calling thread waits for. At the deadline ctx.cancelled is set; a handler still running
    after the grace is left to run on, on its daemon thread (Python cannot stop a thread), and
    the call ends as `timeout`, where a process of its own would have ended."""
    import threading

    done = threading.Event()
    ended: list[tuple[bool, Any]] = []

    def work() -> None:
        try:
            ended.append((True, command.run(call)))
        except BaseException as failure:  # noqa: BLE001 (raised again in the calling thread)
            ended.append((False, failure))
        finally:
            done.set()

    threading.Thread(target=work, name=f"{call.context.program} handler", daemon=True).start()
    try:
        if not done.wait(seconds):
            call.context.cancelled.set()
            done.wait(_TIMEOUT_GRACE)
            raise error from None
    except (KeyboardInterrupt, _Terminated):
        call.context.cancelled.set()
        raise
    returned, value = ended[0]
    if returned:
        return value
    raise value
