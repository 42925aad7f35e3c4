# burgee: joins tail 170
# burgee: section batch
"""`--batch`: many calls in one run, one JSON Lines envelope per call.

Each input line is `{"id": ..., "command": "shelf label", "input": {...}}`; each output line is
that call's envelope with its `id` first. Calls go through `_execute`, like flags and MCP.
`read_only` calls run in parallel (`--jobs N` workers); a call that changes something
(`idempotent`, `non_idempotent`, or `destructive` with `--allow-destructive`, else refused) runs
alone, after every line before it and before any line after it, so a batch answers as its lines
run one by one would; `withheld` ones are never callable. Output is in input order, or as
calls complete with `--as-completed`. A bad line gets an error line and the batch goes on.

`--batch`: JSON Lines calls through `_execute`, read-only ones in parallel, each one that
changes something alone and in input order, destructive ones only with `--allow-destructive`
(else `action_required`); a call's `next` line (a destructive one's, a question's: `_alone`)
runs that call alone, never the batch again; the invocation's `--max-output`, `--spill-dir`,
`--config` and `--debug` apply to every call; answer lines through `_Quiet.answer` (descriptor
1, or `invoke()`'s capture); a failed call makes the batch end with `_BatchFailed` (exit 125,
its error last on stderr).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _deliver, _failure_envelope, _output_limit
from burgee.runtime.answers.output import _QUIET, _as_read, _dumps
from burgee.runtime.core.context import Context, _answer_flags, _rerun_line
from burgee.runtime.core.errors import (
    CommandError,
    UsageError,
    _ActionRequired,
)
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.execution.execute import _as_error, _debugging, _execute
from burgee.runtime.execution.sources import _Sources
from burgee.runtime.execution.table import _command
from burgee.runtime.execution.values import _Call

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from burgee.runtime.commandline.argv import _Invocation
    from burgee.runtime.program import Program

#: The effect of the calls that may run side by side: the ones that change nothing. (Not
#: `idempotent`: `done 1` and `done 2` each rewrite the same file, and `done 1` after `add` must
#: see the task the `add` made.)
_PARALLEL = "read_only"


def _batch_call(line: str, invocation: _Invocation) -> tuple[Any, str, Any]:
    """One input line: (its id, the lane it runs in, a job that returns its envelope)."""
    ident: Any = None
    try:
        try:
            item = _load_json(line)
        except ValueError as error:
            raise UsageError(f"not valid JSON: {error}") from None
        except RecursionError:
            raise UsageError("nested too deeply") from None
        if not isinstance(item, dict):
            raise UsageError("not a JSON object")
        ident = item.get("id")
        path = item.get("command")
        if isinstance(path, str):
            # NOTE: `ls` runs `list-items`, as on the command line
            path = invocation.program.aliases.get(path, path)
        arguments = item.get("input", {})
        command = _command(invocation.program, path) if isinstance(path, str) else None
        if command is None or command.effects == "withheld":
            raise UsageError(f"unknown command {path!r}", hint="see `schema` for the commands")
        if not isinstance(arguments, dict):
            raise UsageError("input must be a JSON object whose keys are parameter names")
        unknown = [key for key in item if key not in ("id", "command", "input")]
        if unknown:
            raise UsageError(f"unknown key {unknown[0]!r}", hint="keys: id, command, input")
    except CommandError as error:
        failure = _deliver(_failure_envelope(error, True), None, invocation.program, agent=True)
        return ident, "now", lambda: failure
    lane = "parallel" if command.effects == _PARALLEL else "alone"
    name = str(path)
    if command.effects == "destructive" and not invocation.allow_destructive:
        # NOTE: as on the command line, a destructive call waits for a decision (there,
        # `--yes`): `action_required`, with the line that runs this call alone, decided;
        # once its input is read as the command's, so its secrets are known as such.
        lane = "now"
    return ident, lane, lambda: _batch_run(name, arguments, invocation)


def _not_allowed(call: _Call) -> None:
    """A destructive call of a batch without `--allow-destructive`, its values read: stop."""
    context = call.context
    raise _ActionRequired(
        "confirm",
        f"{context.command} is destructive: a batch runs it only with --allow-destructive",
        [{"command": context._rerun({}) if context._rerun else "", "when": "to run it"}],
        True,
        context._program.name,
        context._environ,
    )


def _batch_run(path: str, arguments: dict[str, Any], invocation: _Invocation) -> dict[str, Any]:
    program = invocation.program
    command = _command(program, path)
    assert command is not None  # NOTE: `_batch_call` looked it up
    debug = _debugging(invocation.debug, program)
    context = Context(path, True, program)
    context._verbose = debug
    context._answers = invocation.answers
    config = invocation.config()
    context._rerun = lambda more: _alone(
        program,
        path,
        arguments,
        _answer_flags(program, invocation.answers, more, context._asked),
        config,
    )
    try:
        sources = _Sources(path, program, config, True)
        call = _Call(arguments, "json", context, sources)
        call.spill_dir = invocation.spill_dir
        if command.effects == "destructive" and not invocation.allow_destructive:
            call.confirm = _not_allowed
        call.bound = _output_limit(program, None, invocation.max_output, True)
        envelope = _execute(command, call)
    except Exception as error:  # noqa: BLE001 (one failing call is its own error line)
        envelope = _failure_envelope(_as_error(error, debug, program), True)
    finally:
        context.close()
    limit, spill_dir = invocation.max_output, invocation.spill_dir
    return _deliver(envelope, command, program, agent=True, limit=limit, spill_dir=spill_dir)


def _alone(
    program: Program,
    path: str,
    arguments: dict[str, Any],
    flags: list[str],
    config: str | None = None,
) -> str:
    """The command line that runs one batch call of `program` by itself, as the batch runs it: its
    input as `--json`, `--yes` when the command asks first (a batch does not ask), and `flags`. Not
    the batch again: that would repeat its other calls, writes included, and a batch read from stdin
    cannot be read again."""
    command = _command(program, path)
    yes = ["--yes"] if command is not None and command.confirm is not None else []
    return _rerun_line(program, path, [], _as_read(arguments, _dumps), [*yes, *flags], config)


class _BatchFailed(CommandError):
    """At least one call of the batch failed: the batch's own error, after every line."""

    kind = "batch_failed"

    def __init__(self, failed: int, calls: int) -> None:
        super().__init__(
            f"{failed} of {calls} calls failed; each one's line says why",
            details={"failed": failed, "calls": calls},
        )


def _run_batch(lines: Iterable[str], invocation: _Invocation) -> int:
    """Run every call; write one line each; 0 when all succeeded, else raise `_BatchFailed`.
    The tool-wide flags (`--max-output`, `--spill-dir`, `--config`, `--debug`) apply to each
    call."""
    import threading
    from concurrent.futures import Future, ThreadPoolExecutor, wait

    lock = threading.Lock()
    failed: list[bool] = []
    # NOTE: stdout carries only the answer lines; what handlers print goes to stderr.
    _QUIET.start()

    def write(ident: Any, envelope: dict[str, Any]) -> None:
        text = _dumps({"id": ident, **envelope}) + "\n"
        with lock:
            if not envelope.get("ok"):
                failed.append(True)
            _QUIET.answer(text)

    workers = ThreadPoolExecutor(max_workers=max(1, invocation.jobs))
    pending: list[tuple[Any, Future[dict[str, Any]]]] = []
    #: The read-only calls running since the last call that changes something.
    running: list[Future[dict[str, Any]]] = []
    try:
        for line in lines:
            if not line.strip():
                continue
            ident, lane, job = _batch_call(line, invocation)
            future: Future[dict[str, Any]]
            if lane == "now":
                future = Future()
                future.set_result(job())
            elif lane == "parallel":
                future = workers.submit(job)
                running.append(future)
            else:
                wait(running)
                future = workers.submit(job)
                wait([future])
                running = []
            if invocation.as_completed:
                future.add_done_callback(_batch_written(write, ident))
            pending.append((ident, future))
        if not invocation.as_completed:
            for ident, future in pending:
                write(ident, future.result())
    finally:
        workers.shutdown(wait=True)
        _QUIET.stop()
    if failed:
        raise _BatchFailed(len(failed), len(pending))
    return 0


def _batch_written(
    write: Callable[[Any, dict[str, Any]], None], ident: Any
) -> Callable[[Any], None]:
    def done(future: Any) -> None:
        write(ident, future.result())

    return done
