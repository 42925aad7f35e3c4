# burgee: joins tail 380
# burgee: section invoke: invoke Invoked _PER_RUN _refill
# burgee: section batch: _batch _batch_calls
# NOTE: `invoke()` runs the tool in-process for tests; a tool's own run never calls it.
"""`main`: from argv to one answer (text, or one JSON envelope) and an exit code.

`main()` and `run()`: argv → one envelope (or help, `runtime/commandline/cli_help.py`) → stdout
and an exit code; `_warn_deprecated`: a deprecated command or option given warns on stderr;
`_warn_unused_answers`: an `--answer` no question of the call asked for (`Context._given` notes
each one asked) warns on stderr once the command ran; the program's `_EXTRA_COMMANDS` (`prompt`,
`resource`) before command lookup; `help`, `help flags` and `help COMMAND`; an outcome's exit
code; a destructive command's confirmation set up (`values._confirmation`) and how a call's
questions are answered on the command line (a person when the input is flags, `--answer`, the
line that reruns it); `--version` (installed metadata first); `_write_answer`: text mode's
answer on stdout or in `--output-file` (images and audio through the program's `_MEDIA`, whose
`_bytes_for_terminal` `run()` asks before the handler runs), and `_writable`, the file checked
before the handler runs; `invoke()`/`Invoked`: the in-process test helper (each call with the
runtime's per-run state, `_PER_RUN`, emptied, and the caller's environment, working directory,
signal handlers and that state put back afterwards).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _OUTPUT_WORD, _deliver, _output_limit, _write_error
from burgee.runtime.answers.output import (
    _PRINTED,
    _QUIET,
    _dumps,
    _emit,
    _jsonable,
    _Redacting,
    _Status,
    _stdin_apart,
    _text,
)
from burgee.runtime.answers.sanitize import _redact
from burgee.runtime.commandline.argv import (
    _find,
    _Invocation,
    _keep_argv_secrets,
    _read_json_input,
    _take_yes,
    _version_answers,
)
from burgee.runtime.commandline.argv_parser import _closest_flag, _new_parser
from burgee.runtime.commandline.batch import _BatchFailed, _run_batch
from burgee.runtime.commandline.cli_help import (
    _command_epilog,
    _flags_help,
    _group_help,
    _tool_flags,
)
from burgee.runtime.commandline.complete import _BUILTINS, _builtin
from burgee.runtime.commandline.describe import _describe, _explain, _loosen
from burgee.runtime.commandline.serving import _serve_mcp
from burgee.runtime.core.context import (
    _SECRETS,
    Context,
    _answer_flags,
    _rerun_line,
)
from burgee.runtime.core.errors import (
    _PLACED,
    _SIGINTS,
    EXIT_BROKEN_PIPE,
    CommandError,
    UsageError,
    _AfterRun,
    _here,
    _Interrupted,
    _on_sigterm,
    _run_hint,
    _ShowHelp,
    _success,
    _Terminated,
)
from burgee.runtime.core.flags import HELP_FLAGS, NO_CONFIRM, confirm_flags
from burgee.runtime.core.wording import _SECRET_SAYS
from burgee.runtime.execution.execute import _INVOKED, _as_error, _debugging, _execute
from burgee.runtime.execution.quickargs import (
    _asks_help,
    _pass_start,
    _quick_parse,
    _recorded,
    _typed,
)
from burgee.runtime.execution.sources import _FILES, _Sources
from burgee.runtime.execution.table import _command
from burgee.runtime.execution.values import _Call, _confirmation
from burgee.runtime.program import PROGRAM
from burgee.runtime.rows import _ExtraCommandRow, _MediaRow
from burgee.runtime.start.boot import _INTERRUPTED

if TYPE_CHECKING:
    from collections.abc import Sequence

    from burgee.runtime.core.context import _Command
    from burgee.runtime.program import Program


def _help(invocation: _Invocation) -> object:
    """`help` (the tool's help), `help flags` (each tool-wide flag explained), and
    `help COMMAND...` (as `COMMAND... --help`)."""
    words = invocation.rest[1:]
    if words == ["flags"]:
        sys.stdout.write(_flags_help(invocation.program))
        return _PRINTED
    invocation.rest = [*words, "--help"]
    return run(invocation)


def run(invocation: _Invocation) -> object:
    """Find the command in argv, read its input, and run it; return its envelope."""
    program = invocation.program
    described = _describe(invocation)
    if described is not None:
        return described
    if invocation.rest and invocation.rest[0] in program.extra_commands:
        # NOTE: `prompt` and `resource`, when the program has some (never a command's name).
        return _ExtraCommandRow(program.extra_commands[invocation.rest[0]]).run(invocation)
    if invocation.rest[:1] == ["help"]:
        # NOTE: a word of the tool's own (`_TOOL_WORDS`), as `output` is.
        return _help(invocation)
    if invocation.rest[:1] == [_OUTPUT_WORD]:
        # NOTE: a word of the tool's own (`_TOOL_WORDS`): no command of the program has it.
        path, rest = _OUTPUT_WORD, invocation.rest[1:]
    else:
        first = invocation.version_first and program.root_mode != "alone"
        if first and _version_answers(invocation.rest, program):
            return _success(_version(program))  # NOTE: before the command is looked up
        path, rest = _find(invocation.rest, program)
    if invocation.version and path:
        if program.root_mode == "alone" and _version_answers(invocation.rest, program):
            return _success(_version(program))
        raise UsageError(
            f"--version is a flag of the tool, not of the command {path!r}",
            hint=_run_hint("--version", program.name),
        )
    if path in program.groups:
        return _at_group(invocation, path, rest)
    command = _command(program, path)
    assert command is not None  # NOTE: `_find` found it
    yes = False
    #: The words before a pass-through argument's (all of them without one): only they
    #: may be the command's own `--yes` or `--help`.
    own = _pass_start(_recorded(command), rest)
    if command.yes:
        yes, head = _take_yes(rest[:own])
        own, rest = len(head), head + rest[own:]
    if invocation.json_input is not None:
        if program.root_mode == "alone" and rest == [path]:
            rest = []  # NOTE: `tool CMD --json '{...}'`, the way --llms says to call every tool
        if rest:
            word = f"word (not shown, {_SECRET_SAYS})" if command.secret else None
            raise UsageError(
                f"unexpected {word or repr(rest[0])}: with --json input, give every value in the"
                " JSON object",
                hint=NO_CONFIRM if rest[0] in confirm_flags() else None,
            )
        raw = _read_json_input(invocation.json_input)
        source = "json"
    else:
        explaining = "--explain" in invocation.asked
        quick = None if explaining else _quick_parse(_recorded(command), rest)
        if quick is not None:
            raw = quick
        else:
            parser = _new_parser(
                program,
                program.name if program.root_mode == "alone" else f"{program.name} {path}",
                command.description,
                _command_epilog(path, command, program),
                secret=command.secret,
                confirm=command.yes,
            )
            command.build(parser)
            if _asks_help(_recorded(command), rest):
                _tool_flags(parser, command, path, program)
            if explaining:
                _loosen(parser)
            raw = vars(parser.parse_args(rest))
        source = "flag"
    if command.deprecated is not None or command.deprecated_flags:
        _warn_deprecated(path, command, raw, source, program.name)
    context = Context(path, invocation.json, program)
    context._verbose = _debugging(invocation.debug, program)
    context._person = source == "flag"
    context._answers = invocation.answers
    context._yes = yes

    def rerun(flags: list[str]) -> str:
        return _rerun_line(program, path, rest, invocation.json_input, flags, invocation.config())

    context._rerun = lambda more: rerun(
        _answer_flags(program, invocation.answers, more, context._asked)
    )
    if invocation.json:
        # NOTE: in JSON mode stdout carries exactly one envelope: what the handler prints is
        # kept for it (`meta.printed`), what its child processes write goes to stderr.
        _QUIET.start(keep=True)
    call = _Call(raw, source, context, _Sources(path, program, invocation.config()))
    call.spill_dir = invocation.spill_dir
    # NOTE: an agent named by the environment gets the same cut and way back without --json.
    agent = context.agent is not None
    call.bound = _output_limit(program, None, invocation.max_output, agent)
    call.unshown = command.secret
    if command.exclusive and source == "flag":
        call.typed = _typed(_recorded(command), rest)
    call.sources.full = invocation.json
    if command.confirm is not None and not yes:
        call.confirm = _confirmation(command.confirm, path, command.effects, rerun)
    try:
        if "--explain" in invocation.asked:
            call.explaining = True
            explained = _explain(command, call, invocation)
            return explained if explained is _PRINTED else _success(explained)
        if program.media and not invocation.json:
            # NOTE: bytes that could go nowhere: refused before the handler runs.
            media = _MediaRow(program.media)
            media.for_terminal(command.returns, _output_file(invocation), sys.stdout)
        if _output_file(invocation) is not None:
            _writable(invocation.asked["--output-file"])
        envelope = _execute(command, call, invocation.timeout, invocation.json)
        printed = _QUIET.printed()
        if printed:
            # NOTE: made safe and cut as an answer is (as MCP's text item is), on its own: its
            # cut's marker names the full text's `output REF`.
            said = _success(printed)
            limit, spill = invocation.max_output, invocation.spill_dir
            said = _deliver(said, command, program, agent=agent, limit=limit, spill_dir=spill)
            envelope["meta"] = {**envelope.get("meta", {}), "printed": said["data"]}
        _warn_unused_answers(context)
        return _deliver(
            envelope,
            command,
            program,
            agent=agent,
            limit=invocation.max_output,
            spill_dir=invocation.spill_dir,
            text=not invocation.json,
        )
    except _ShowHelp:
        pass  # NOTE: shown below, once the handler's end ran and stdout is the tool's again
    finally:
        try:
            context.close()
        finally:
            _QUIET.stop()
    invocation.rest = [*path.split(), "--help"]
    return run(invocation)


def _at_group(invocation: _Invocation, path: str, rest: list[str]) -> object:
    """A line naming a group and none of its commands: its help, the version, or why not."""
    program = invocation.program
    if invocation.version:
        return _success(_version(program))
    if rest == ["--"]:
        rest = []  # NOTE: the options end, and no command follows: it is missing
    if rest and rest[0] not in HELP_FLAGS:
        hint = _closest_flag(rest[:1], [], program, root=not path)
        raise UsageError(
            f"unknown option {rest[0]!r}",
            hint=hint or f"{_run_hint('--help', program.name)} for usage",
        )
    if not rest:
        # NOTE: a usage error, as Click's: a script that left out the command must see it
        # fail, whichever mode it runs in; a person gets the help first, on stderr.
        if not invocation.json:
            sys.stderr.write(_group_help(path, program))
        children = ", ".join(name for name, _ in program.groups[path])
        raise UsageError("missing command", hint=f"commands: {children}")
    sys.stdout.write(_group_help(path, program))
    return _PRINTED


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool with `argv` (default: the command line); return the exit code. Where a
    run starts: the one place the program (the generated file's `PROGRAM`) is read from the
    module; the rest of the run is given it."""
    program = PROGRAM
    if argv is None:
        _freeze()
    if sys.stdout is None:
        # NOTE: started with stdout closed (`tool >&-`): the answer would have nowhere to go,
        # as when its reader went away (`| head`), but nobody read it at all: say so.
        if sys.stderr is not None:
            sys.stderr.write(f"{program.name}: error: stdout is closed: nothing can answer\n")
        return EXIT_BROKEN_PIPE
    if sys.stdin is None:
        _no_stdin()
    streams = sys.stdout, sys.stderr
    status = _Status(sys.stderr)
    sys.stdout, sys.stderr = _Redacting(sys.stdout, status), _Redacting(sys.stderr, status)
    try:
        return _main(sys.argv[1:] if argv is None else list(argv), program)
    finally:
        sys.stdout, sys.stderr = streams
        status.clear()


def _freeze() -> None:
    """Move every object made so far out of the garbage collector's sight, when the tool runs
    as the program (not imported into another): the code's functions, classes and tables live
    as long as the process, and each full collection, the one at exit among them, would walk
    them all (a tenth of a 500-command tool's run)."""
    import gc

    freeze = getattr(gc, "freeze", None)  # NOTE: CPython only
    if freeze is not None:
        freeze()


class Invoked:
    """What `invoke` saw: the exit code, stdout, stderr, and the JSON envelope."""

    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr

    @property
    def envelope(self) -> Any:
        """The JSON envelope: stdout's under `--json`, else a failure's (the last line of
        stderr); None when there is none (text output)."""
        import json

        for text in (self.stdout.strip(), self.stderr.strip().rpartition("\n")[2]):
            if text.startswith("{"):
                try:
                    return json.loads(text)
                except ValueError:
                    pass
        return None

    def __repr__(self) -> str:
        return (
            f"Invoked(exit_code={self.exit_code}, stdout={self.stdout!r}, stderr={self.stderr!r})"
        )


def invoke(argv: Sequence[str], *, input: str = "", env: dict[str, str] | None = None) -> Invoked:
    """Run the tool in this process, as `tool ARGV...` would, for tests: stdin is `input`,
    `env` is added to the environment, and stdout, stderr and the exit code are captured
    (`--help` and `--batch` included). Each call starts as a new process would (no config file
    read, no secret seen) and leaves the process as it found it: environment, working
    directory, signal handlers. Subprocess tests stay for what only a process shows (signals,
    file descriptors, a terminal)."""
    import _signal  # type: ignore[import-not-found, unused-ignore]
    import io

    streams = sys.stdin, sys.stdout, sys.stderr
    environ = dict(os.environ)
    folder = os.getcwd()
    handlers = {number: _signal.getsignal(number) for number in (_signal.SIGINT, _signal.SIGTERM)}
    kept = [held.copy() for held in _PER_RUN]
    _refill([type(held)() for held in _PER_RUN])
    out, err = io.StringIO(), io.StringIO()
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(input), out, err
    os.environ.update(env or {})
    _INVOKED.append(True)
    try:
        try:
            code = main(list(argv))
        except SystemExit as stop:  # NOTE: argparse's --help ends with sys.exit(0)
            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        _INVOKED.pop()
        sys.stdin, sys.stdout, sys.stderr = streams
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(folder)  # NOTE: `--mcp --cwd` moves the process
        _refill(kept)
        for number, handler in handlers.items():
            try:
                _signal.signal(number, handler)
            except (ValueError, OSError, TypeError):
                pass  # NOTE: not the main thread (none was set), or a handler not Python's
    return Invoked(code, out.getvalue(), err.getvalue())


#: What one run fills in the runtime's modules: the config files read, the secrets seen, an
#: MCP server's last Ctrl-C. A process runs once; `invoke()` empties them for each call.
_PER_RUN: tuple[Any, ...] = (_FILES, _SECRETS, _SIGINTS, _PLACED)


def _refill(contents: list[Any]) -> None:
    """Give each of `_PER_RUN` the contents of its own in `contents`, and nothing else."""
    for index, held in enumerate(_PER_RUN):
        held.clear()
        if isinstance(held, dict):
            held.update(contents[index])
        else:
            held.extend(contents[index])


def _output_file(invocation: _Invocation) -> str | None:
    """`--output-file PATH`; None without it, and for `-`, stdout, where the answer goes
    without it (never a file named `-`)."""
    path: str | None = invocation.asked.get("--output-file")
    return None if path == "-" else path


def _writable(path: str) -> None:
    """`--output-file PATH` that could not be written, refused before the handler runs: a
    usage error says nothing ran, and a handler with side effects must not have run."""
    folder = os.path.dirname(os.path.abspath(path))
    problem = ""
    if os.path.isdir(path):
        problem = "it is a directory"
    elif not os.path.isdir(folder):
        problem = f"no folder {folder}"
    elif not os.access(path if os.path.exists(path) else folder, os.W_OK):
        problem = "permission denied"
    if problem:
        raise UsageError(f"cannot write {path}: {problem}", hint="give another --output-file")


def _write_answer(data: object, output_file: str | None, program: Program) -> None:
    """The answer in text mode: on stdout, or in `--output-file`; the bytes of an image, audio
    or embedded resource as `media._write_media` says (a program whose commands return some:
    `program.media`)."""
    media = _MediaRow(program.media)
    text = media.write(data, output_file, sys.stdout, program.name) if media else None
    if text is None and output_file is not None:
        try:
            with open(output_file, "w", encoding="utf-8") as file:
                _emit(file, _text(_jsonable(data)) + "\n")
        except OSError as error:
            # NOTE: the handler has run: no `usage`, which says nothing ran.
            raise _AfterRun(f"cannot write {output_file}: {error.strerror or error}") from None
        return
    text = _text(_jsonable(data)) if text is None else text
    if text:
        _emit(sys.stdout, text + "\n")


def _no_stdin() -> None:
    """Started with stdin closed (`tool <&-`): read as an empty one (`--json -`, a question
    find the end of input at once), the null device on descriptor 0, so no file the tool opens
    is taken for stdin there (nor by a child process)."""
    import io

    try:
        os.fstat(0)
    except OSError:
        try:
            opened = os.open(os.devnull, os.O_RDONLY)
        except OSError:
            opened = 0  # NOTE: no null device (a sandbox): nothing on descriptor 0
        if opened != 0:
            os.close(opened)
    sys.stdin = io.StringIO()


def _main(args: list[str], program: Program) -> int:
    invocation: _Invocation | None = None
    json_mode = False
    _here()
    try:
        if not args or args[0] not in _BUILTINS:
            invocation = _Invocation(args, program, strict=False)
            json_mode = invocation.json
        if _INTERRUPTED:
            # NOTE: Ctrl-C while the tool's code was being defined (`_hold_interrupts` held
            # it): answered here, where the tool can say so, instead of as a traceback.
            del _INTERRUPTED[:]
            raise KeyboardInterrupt
        if invocation is None:
            return _builtin(args, program)
        if invocation.problem is not None:
            raise invocation.problem
        if "--skill" in invocation.asked:
            return _builtin(["--skill", *invocation.rest], program)
        if invocation.mcp:
            return _serve_mcp(invocation)
        if invocation.batch is not None:
            return _batch(invocation)
        if invocation.version and not invocation.rest:
            if not invocation.json:
                sys.stdout.write(f"{program.name} {_installed_version(program)}\n")
                return 0
            envelope: Any = _success(_version(program))
        else:
            _on_sigterm()
            envelope = run(invocation)
        if envelope is _PRINTED:
            return 0
        if invocation.json:
            # NOTE: redacted as data, so it stays JSON (delivery did most; not `--explain`'s);
            # `_redact` is in a section of its own, which a run with no secret never loads.
            shown = _redact(envelope, _SECRETS) if _SECRETS else envelope
            _emit(sys.stdout, _dumps(shown) + "\n", redact=False)
        else:
            _write_answer(envelope["data"], _output_file(invocation), program)
            cut = envelope.get("meta", {}).get("truncated")
            if cut:
                # NOTE: text shows a string's cut in place, not a list's: say it, on stderr.
                # NOTE: the line that reads it back, a page at a time (`deliver._page_line`).
                where = envelope["next"][0]["command"] if cut["ref"] else "it was not saved"
                paths = ", ".join(c["path"] for c in cut["cuts"])
                what = f"cut to --max-output at {paths}" if paths else "over --max-output, uncut"
                _emit(sys.stderr, f"{program.name}: {what}; full output: {where}\n")
        # NOTE: a declared outcome (a data state, like diff's 1) exits with its own code.
        return program.outcomes[envelope["outcome"]][0] if "outcome" in envelope else 0
    except CommandError as error:
        _keep_argv_secrets(args, program)
        return _write_error(error, json_mode, program)
    except KeyboardInterrupt:
        return _write_error(_Interrupted("interrupted (Ctrl-C)"), json_mode, program)
    except _Terminated:
        return _write_error(_Stopped("terminated (SIGTERM)"), json_mode, program)
    except BrokenPipeError:
        # NOTE: the reader went away (`| head`); point stdout at devnull so the interpreter's
        # final flush does not fail again, and end quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as error:  # noqa: BLE001 (any handler failure becomes an `internal` error)
        debug = _debugging(invocation is not None and invocation.debug, program)
        return _write_error(_as_error(error, debug, program), json_mode, program)


def _version(program: Program) -> dict[str, str]:
    """`--version --json`: the tool, its version, and the Python it needs."""
    return {
        "name": program.name,
        "version": _installed_version(program),
        "requires_python": program.requires_python,
    }


def _installed_version(program: Program) -> str:
    """The version `--version` shows: the installed distribution's (read from its metadata
    only here, never on the way to a command), else the one `burgee gen` wrote."""
    if program.distribution:
        from importlib import metadata

        try:
            return metadata.version(program.distribution)
        except (metadata.PackageNotFoundError, ValueError):
            pass
    return program.version


def _batch(invocation: _Invocation) -> int:
    """`--batch [FILE]`: every line of FILE (or stdin) is one call; a batch with a failed call
    ends with its error on stderr (stdout has only the calls' lines, `--json` or not)."""
    try:
        return _batch_calls(invocation)
    except _BatchFailed as error:
        return _write_error(error, False, invocation.program)


def _batch_calls(invocation: _Invocation) -> int:
    if invocation.rest:
        raise UsageError(f"unexpected {invocation.rest[0]!r}: --batch reads its calls from input")
    _on_sigterm()
    # NOTE: a handler that reads standard input finds it empty, never the calls.
    calls = _stdin_apart()
    if not invocation.batch:
        import io

        return _run_batch(io.TextIOWrapper(calls, "utf-8", "replace"), invocation)
    calls.close()
    try:
        lines = open(invocation.batch, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError as error:
        raise UsageError(f"--batch {invocation.batch}: {error.strerror}") from None
    # NOTE: only opening the file is the caller's mistake; a broken pipe while answering
    # (`| head`) ends quietly, as everywhere (`_main`).
    with lines:
        return _run_batch(lines, invocation)


class _Stopped(CommandError):
    kind = "terminated"


def _warn_deprecated(
    path: str, command: _Command, raw: dict[str, Any], source: str, name: str
) -> None:
    """A line on stderr for a deprecated command, and for each deprecated option given (by
    its flag, or its key in `--json` input); never in the envelope on stdout."""
    used = [("command " + repr(path), command.deprecated)] if command.deprecated is not None else []
    for key, flag, reason in command.deprecated_flags:
        if key in raw:
            used.append((flag if source == "flag" else repr(key), reason))
    for what, reason in used:
        sys.stderr.write(
            f"{name}: warning: {what} is deprecated{': ' + reason if reason else ''}\n"
        )


def _warn_unused_answers(context: Context) -> None:
    """A line on stderr for each `--answer` no question of the call asked for, once it ran
    (a mistyped name, or a question this run did not ask): which questions a handler asks
    shows only as it runs. Never in the envelope on stdout, as `_warn_deprecated`'s."""
    for name in context._answers:
        if name not in context._asked:
            asked = sorted(context._asked)
            then = f"questions it asked: {', '.join(asked)}" if asked else "it asked none"
            sys.stderr.write(
                f"{context.program}: warning: --answer {name}=... was not used: no question of"
                f" the command is named {name!r} ({then})\n"
            )
