"""`main`: from argv to one answer (text, or one JSON envelope) and an exit code."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.argv import (
    _find,
    _Invocation,
    _keep_argv_secrets,
    _new_parser,
    _read_json_input,
    _take_yes,
    _terminal_width,
)
from burgee.runtime.batch import _BatchFailed, _run_batch
from burgee.runtime.boot import _INTERRUPTED
from burgee.runtime.complete import _BUILTINS, _builtin
from burgee.runtime.context import (
    _SECRETS,
    Context,
    _answer_flags,
    _rerun_line,
)
from burgee.runtime.deliver import _OUTPUT_WORD, _deliver, _write_error
from burgee.runtime.describe import _describe, _explain, _for_agents, _loosen
from burgee.runtime.errors import (
    BUILTIN_ERRORS,
    EXIT_BROKEN_PIPE,
    CommandError,
    UsageError,
    _command_line,
    _Interrupted,
    _on_sigterm,
    _run_hint,
    _success,
    _Terminated,
)
from burgee.runtime.execute import _as_error, _debugging, _execute
from burgee.runtime.flags import HELP_FLAGS, Flag, flags_at, grouped
from burgee.runtime.mcp import _serve_mcp
from burgee.runtime.output import (
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
from burgee.runtime.program import (
    _CONFIG,
    _EXTRA_COMMANDS,
    _MEDIA,
    ALIASES,
    COMMANDS,
    DESCRIPTION,
    DISTRIBUTION,
    ERRORS,
    GROUP_HELP,
    GROUPS,
    OUTCOMES,
    PROGRAM,
    REQUIRES_PYTHON,
    ROOT,
    ROOT_MODE,
    SHADOWS,
    SHARED,
    VERSION,
)
from burgee.runtime.quickargs import (
    _BOOL_ACTION,
    _HIDDEN,
    _pass_start,
    _quick_parse,
    _recorded,
    _typed,
)
from burgee.runtime.sanitize import _redact
from burgee.runtime.shells import _BUILTIN_COMMANDS
from burgee.runtime.sources import _Sources
from burgee.runtime.table import _command
from burgee.runtime.values import _apart_text, _Call, _confirmation

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from burgee.runtime.context import _Command


def _exit_codes() -> str:
    """The root help's table of exit codes, from the tool's error kinds and outcomes."""
    rows = sorted({**BUILTIN_ERRORS, **ERRORS, **OUTCOMES}.items(), key=lambda item: item[1][0])
    return "exit codes:\n  0    success\n" + "".join(
        f"  {code:<4} {kind}{' (an outcome, not a failure)' if kind in OUTCOMES else ''}\n"
        for kind, (code, _) in rows
    )


def _group_help(group: str) -> str:
    """Help for the program or one of its groups: what it does and what it contains, then its
    flags, compactly (as Click and Typer lead with the commands)."""
    prog = f"{PROGRAM} {group}".strip()
    description = GROUP_HELP.get(group, "") if group else DESCRIPTION
    rows = []
    for name, summary in GROUPS[group]:
        path = f"{group} {name}".lstrip()
        aliases = [a.rpartition(" ")[2] for a, p in ALIASES.items() if p == path]
        label = f"{name} ({', '.join(aliases)})" if aliases else name
        rows.append((label, summary + (" (the default command)" if path == ROOT else "")))
    if not group:
        rows += _BUILTIN_COMMANDS.items()
        rows += [(word, summary) for word, (summary, _) in _EXTRA_COMMANDS.items()]
    shared = _shared_help(group) if SHARED else ""
    parts = [f"usage: {prog} [-h] [FLAGS]{' [OPTIONS]' if shared else ''} COMMAND ...\n"]
    if description.strip():
        parts.append(description.strip("\n") + "\n")
    parts.append("commands:\n" + _rows(rows))
    if shared:
        parts.append(shared)
    parts.append(_compact_flags(flags_at(not group, _CONFIG, False)))
    if not group:
        import textwrap

        parts.append(_exit_codes())
        # NOTE: a path (AGENTS.md's) is never cut at its hyphens.
        agents = textwrap.wrap(
            _for_agents(),
            _terminal_width(),
            subsequent_indent="  ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        parts.append("\n".join(agents) + "\n")
    return "\n".join(parts)


def _shared_help(group: str) -> str:
    """The options the commands under `group` share (`SHARED`: the program's and its groups'
    `options=`), as the first of those commands' help shows them: given before the command
    (here) or after it."""
    scopes = [scope for scope in SHARED if f"{group} ".startswith(f"{scope} ".lstrip())]
    spellings = {spelling for scope in scopes for spelling in SHARED[scope]}
    under = [
        row[3]
        for path, row in COMMANDS.items()
        if f"{path} ".startswith(f"{group} ".lstrip())
        and any(spellings.intersection(flags) for _, flags, _, _, _ in row[3])
    ]
    if not under:
        return ""
    rows = []
    for _, flags, _, _, options in under[0]:
        settings = dict(options)
        if not spellings.intersection(flags) or settings.get("help") == _HIDDEN:
            continue
        words = settings.get("metavar", flags[-1][2:].upper().replace("-", "_"))
        if settings.get("action") in (_BOOL_ACTION, "count"):
            words = ""
        shown = " ".join(words) if isinstance(words, tuple) else words
        label = ", ".join(f"{flag} {shown}".rstrip() for flag in flags)
        text = str(settings.get("help", "")).replace("%%", "%")
        rows.append((label, text.partition(" (shared: ")[0]))
    if not rows:
        return ""
    return "options (given here, before the command, or after it):\n" + _rows(rows)


def _rows(rows: list[tuple[str, str]]) -> str:
    """Names and what each is, as argparse lays out options: the text from one column on,
    on the next line after a name too long for the first."""
    import textwrap

    column = min(max(len(label) for label, _ in rows), 20) + 4
    width = max(_terminal_width() - column, 20)
    lines = []
    for label, text in rows:
        wrapped = textwrap.wrap(" ".join(text.split()), width) or [""]
        if len(label) + 4 > column:
            lines.append(f"  {label}\n")
        else:
            lines.append(f"  {label:<{column - 2}}{wrapped.pop(0)}\n")
        lines += [f"{'':<{column}}{line}\n" for line in wrapped]
    return "".join(lines)


def _compact_flags(flags: list[Flag], shadowed: tuple[str, ...] = ()) -> str:
    """The tool-wide flags as help lists them after the commands or options: their spellings
    only, a line or two for each group (`help flags` explains each); none of `shadowed`."""
    width = _terminal_width()
    lines = [f"tool-wide flags ('{PROGRAM} help flags' explains each):\n"]
    for group, members in grouped(flags):
        pieces = []
        for flag in members:
            names = "/".join(n for n in (flag.short, flag.name) if n and n not in shadowed)
            if names:
                value = f"[{flag.metavar}]" if flag.optional else flag.metavar
                pieces.append(f"{names} {value}".rstrip())
        prefix = f"  {group + ':':<10}"
        rows: list[list[str]] = [[]]
        used = len(prefix)
        for index, spelled in enumerate(pieces):
            piece = spelled + ("," if index + 1 < len(pieces) else "")
            if rows[-1] and used + 1 + len(piece) > width:
                rows.append([])
                used = len(prefix)
            used += len(piece) + bool(rows[-1])
            rows[-1].append(piece)
        for index, row in enumerate(rows):
            if row:
                lines.append((prefix if index == 0 else " " * len(prefix)) + " ".join(row) + "\n")
    return "".join(lines)


def _flags_help() -> str:
    """`PROG help flags`: every tool-wide flag explained, in its group."""
    parser = _new_parser(f"{PROGRAM} help flags")
    formatter = parser._get_formatter()
    import textwrap

    about = (
        f"The flags {PROGRAM} answers itself, before or after the command; a command's own"
        " option of the same spelling takes it over on that command. -h or --help shows the"
        " help of the tool, a group or a command."
    )
    formatter.add_text(textwrap.fill(about, _terminal_width()))
    for group, members in grouped(flags_at(True, _CONFIG, True)):
        section = parser.add_argument_group(group)
        for flag in members:
            _add_flag(section, flag, (flag.short, flag.name) if flag.short else (flag.name,))
        formatter.start_section(group)
        formatter.add_arguments(section._group_actions)
        formatter.end_section()
    return formatter.format_help()


def _help(invocation: _Invocation) -> object:
    """`help` (the tool's help), `help flags` (each tool-wide flag explained), and
    `help COMMAND...` (as `COMMAND... --help`)."""
    words = invocation.rest[1:]
    if words == ["flags"]:
        sys.stdout.write(_flags_help())
        return _PRINTED
    invocation.rest = [*words, "--help"]
    return run(invocation)


def _command_epilog(path: str, command: _Command) -> str:
    """What a command's help shows after its options: its aliases, its examples, and the
    tool-wide flags that apply to it."""
    parts = []
    aliases = [a.rpartition(" ")[2] for a, p in ALIASES.items() if p == path]
    if aliases:
        parts.append(f"aliases: {', '.join(aliases)}\n")
    if command.exclusive:
        # NOTE: a hidden option stays out of help here too.
        longs = {
            name: flags[-1]
            for name, flags, _, _, options in COMMANDS[path][3]
            if flags and ("help", _HIDDEN) not in options
        }
        parts.append(
            "".join(
                _apart_text(tuple(longs[key] for key in keys if key in longs), required) + "\n"
                for keys, required in command.exclusive
            )
        )
    if command.examples:
        parts.append("examples:\n" + "".join(f"  {line}\n" for line in command.examples))
    return "\n".join(parts)


def _tool_flags(parser: argparse.ArgumentParser, command: _Command, path: str) -> None:
    """A command's help lists the tool-wide flags that apply to it too (`FLAGS`), compactly
    after its own options, but those its own options take over (`SHADOWS`)."""
    shadowed = SHADOWS.get(path, ())
    row = COMMANDS.get(path)
    required = (
        {name for name, flags, _, default, _ in row[3] if flags and default is ...} if row else ()
    )
    for action in parser._actions:
        if action.dest in required:
            # NOTE: shown as required (no brackets) in help only: the parser that reads
            # values must let an env var, a config file or a prompt give it.
            action.required = True
    # NOTE: the usage line shows each group of options given apart as argparse does
    # (`[-j PATH | --csv-out PATH]`, a required one in parentheses); the groups are taken off
    # before it parses: `values._apart` checks them, for every surface alike.
    actions = {action.dest: action for action in parser._actions if action.help != _HIDDEN}
    shown = []
    for keys, needed in command.exclusive:
        group = parser.add_mutually_exclusive_group(required=needed)
        # NOTE: never a hidden option (argparse's usage line trips over one in a group).
        group._group_actions.extend(actions[key] for key in keys if key in actions)
        shown.append(group)
    # NOTE: argparse's intermixed reading sets the usage line to the one it formats, and
    # %-formats it again: a choice `%` is written `%%` first.
    usage = parser.format_usage().partition("usage: ")[2].rstrip("\n")
    parser.usage = usage.replace("%", "%%")
    for group in shown:
        parser._mutually_exclusive_groups.remove(group)
    flags = _compact_flags(flags_at(False, _CONFIG, command.confirm is not None), shadowed)
    parser.epilog = f"{parser.epilog}\n{flags}" if parser.epilog else flags


def _add_flag(parser: Any, flag: Flag, names: tuple[str, ...]) -> None:
    """One tool-wide flag in a help text (a parser's, or a group's of one)."""
    if not flag.metavar:
        parser.add_argument(*names, action="store_true", help=flag.help)
    elif flag.optional:
        parser.add_argument(*names, nargs="?", metavar=flag.metavar, help=flag.help)
    else:
        parser.add_argument(*names, metavar=flag.metavar, help=flag.help)


def run(invocation: _Invocation) -> object:
    """Find the command in argv, read its input, and run it; return its envelope."""
    described = _describe(invocation)
    if described is not None:
        return described
    if invocation.rest and invocation.rest[0] in _EXTRA_COMMANDS:
        # NOTE: `prompt` and `resource`, when the program has some (never a command's name).
        return _EXTRA_COMMANDS[invocation.rest[0]][1](invocation)
    if invocation.rest[:1] == ["help"]:
        # NOTE: a word of the tool's own (`_TOOL_WORDS`), as `output` is.
        return _help(invocation)
    if invocation.rest[:1] == [_OUTPUT_WORD]:
        # NOTE: a word of the tool's own (`_TOOL_WORDS`): no command of the program has it.
        path, rest = _OUTPUT_WORD, invocation.rest[1:]
    else:
        path, rest = _find(invocation.rest)
    if invocation.version and path:
        raise UsageError(
            f"--version is a flag of the tool, not of the command {path!r}",
            hint=_run_hint("--version"),
        )
    if path in GROUPS:
        if invocation.version:
            return _success(_version())
        if rest and rest[0] not in HELP_FLAGS:
            raise UsageError(f"unknown option {rest[0]!r}", hint=f"{_run_hint('--help')} for usage")
        if not rest:
            # NOTE: a usage error, as Click's: a script that left out the command must see it
            # fail, whichever mode it runs in; a person gets the help first, on stderr.
            if not invocation.json:
                sys.stderr.write(_group_help(path))
            children = ", ".join(name for name, _ in GROUPS[path])
            raise UsageError("missing command", hint=f"commands: {children}")
        sys.stdout.write(_group_help(path))
        return _PRINTED
    command = _command(path)
    assert command is not None  # NOTE: `_find` found it
    yes = False
    #: The words before a pass-through argument's (all of them without one): only they
    #: may be the command's own `--yes` or `--help`.
    own = _pass_start(_recorded(command), rest)
    if command.confirm is not None:
        yes, head = _take_yes(rest[:own])
        own, rest = len(head), head + rest[own:]
    if invocation.json_input is not None:
        if ROOT_MODE == "alone" and rest == [path]:
            rest = []  # NOTE: `tool CMD --json '{...}'`, the way --llms says to call every tool
        if rest:
            raise UsageError(
                f"unexpected {rest[0]!r}: with --json input, give every value in the JSON object"
            )
        raw = _read_json_input(invocation.json_input)
        source = "json"
    else:
        explaining = "--explain" in invocation.asked
        quick = None if explaining else _quick_parse(command, rest)
        if quick is not None:
            raw = quick
        else:
            parser = _new_parser(
                PROGRAM if ROOT_MODE == "alone" else f"{PROGRAM} {path}",
                command.description,
                _command_epilog(path, command),
            )
            command.build(parser)
            if any(word in HELP_FLAGS for word in rest[: [*rest[:own], "--"].index("--")]):
                _tool_flags(parser, command, path)
            if explaining:
                _loosen(parser)
            raw = vars(parser.parse_args(rest))
        source = "flag"
    if command.deprecated is not None or command.deprecated_flags:
        _warn_deprecated(path, command, raw, source)
    context = Context(path, invocation.json)
    context._verbose = _debugging(invocation.debug)
    context._person = source == "flag"
    context._answers = invocation.answers

    def rerun(flags: list[str]) -> str:
        return _rerun_line(path, rest, invocation.json_input, flags)

    context._rerun = lambda name, value: rerun(_answer_flags(invocation.answers, name, value))
    if invocation.json:
        # NOTE: in JSON mode stdout carries exactly one envelope, so whatever the handler or
        # its child processes print goes to stderr instead.
        _QUIET.start()
    call = _Call(raw, source, context, _Sources(path, invocation.config()))
    call.spill_dir = invocation.spill_dir
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
        envelope = _execute(command, call, invocation.timeout, invocation.json)
        agent = invocation.json and context.agent is not None
        return _deliver(
            envelope,
            command,
            agent=agent,
            limit=invocation.max_output,
            spill_dir=invocation.spill_dir,
            text=not invocation.json,
        )
    finally:
        try:
            context.close()
        finally:
            _QUIET.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool with `argv` (default: the command line); return the exit code."""
    if argv is None:
        _freeze()
    streams = sys.stdout, sys.stderr
    status = _Status(sys.stderr)
    sys.stdout, sys.stderr = _Redacting(sys.stdout, status), _Redacting(sys.stderr, status)
    try:
        return _main(sys.argv[1:] if argv is None else list(argv))
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
    (`--help` included). Subprocess tests stay for what only a process shows (signals,
    file descriptors, a terminal)."""
    import io

    streams = sys.stdin, sys.stdout, sys.stderr
    environ = dict(os.environ)
    out, err = io.StringIO(), io.StringIO()
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(input), out, err
    os.environ.update(env or {})
    try:
        try:
            code = main(list(argv))
        except SystemExit as stop:  # NOTE: argparse's --help ends with sys.exit(0)
            code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        os.environ.clear()
        os.environ.update(environ)
    return Invoked(code, out.getvalue(), err.getvalue())


def _write_answer(data: object, output_file: str | None) -> None:
    """The answer in text mode: on stdout, or in `--output-file`; an image's or audio's bytes
    as `media._write_media` says (a program whose commands return some: `_MEDIA`)."""
    text = _MEDIA[0](data, output_file, sys.stdout) if _MEDIA else None
    if text is None and output_file is not None:
        try:
            with open(output_file, "w", encoding="utf-8") as file:
                _emit(file, _text(_jsonable(data)) + "\n")
        except OSError as error:
            raise UsageError(f"cannot write {output_file}: {error.strerror or error}") from None
        return
    text = _text(_jsonable(data)) if text is None else text
    if text:
        _emit(sys.stdout, text + "\n")


def _main(args: list[str]) -> int:
    invocation: _Invocation | None = None
    json_mode = False
    try:
        if not args or args[0] not in _BUILTINS:
            invocation = _Invocation(args, strict=False)
            json_mode = invocation.json
        if _INTERRUPTED:
            # NOTE: Ctrl-C while the tool's code was being defined (`_hold_interrupts` held
            # it): answered here, where the tool can say so, instead of as a traceback.
            del _INTERRUPTED[:]
            raise KeyboardInterrupt
        if invocation is None:
            return _builtin(args)
        if invocation.problem is not None:
            raise invocation.problem
        if "--skill" in invocation.asked:
            return _builtin(["--skill", *invocation.rest])
        if invocation.mcp:
            return _serve_mcp(invocation)
        if invocation.batch is not None:
            return _batch(invocation)
        if invocation.version and not invocation.rest:
            if not invocation.json:
                sys.stdout.write(f"{PROGRAM} {_installed_version()}\n")
                return 0
            envelope: Any = _success(_version())
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
            _write_answer(envelope["data"], invocation.asked.get("--output-file"))
            cut = envelope.get("meta", {}).get("truncated")
            if cut:
                # NOTE: text shows a string's cut in place, not a list's: say it, on stderr.
                where = (
                    _command_line(f"{_OUTPUT_WORD} {cut['ref']}")
                    if cut["ref"]
                    else "it was not saved"
                )
                paths = ", ".join(c["path"] for c in cut["cuts"])
                what = f"cut to --max-output at {paths}" if paths else "over --max-output, uncut"
                _emit(sys.stderr, f"{PROGRAM}: {what}; full output: {where}\n")
        # NOTE: a declared outcome (a data state, like diff's 1) exits with its own code.
        return OUTCOMES[envelope["outcome"]][0] if "outcome" in envelope else 0
    except CommandError as error:
        _keep_argv_secrets(args)
        return _write_error(error, json_mode, PROGRAM)
    except KeyboardInterrupt:
        return _write_error(_Interrupted("interrupted (Ctrl-C)"), json_mode, PROGRAM)
    except _Terminated:
        return _write_error(_Stopped("terminated (SIGTERM)"), json_mode, PROGRAM)
    except BrokenPipeError:
        # NOTE: the reader went away (`| head`); point stdout at devnull so the interpreter's
        # final flush does not fail again, and end quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as error:  # noqa: BLE001 (any handler failure becomes an `internal` error)
        debug = _debugging(invocation is not None and invocation.debug)
        return _write_error(_as_error(error, debug), json_mode, PROGRAM)


def _version() -> dict[str, str]:
    """`--version --json`: the tool, its version, and the Python it needs."""
    return {"name": PROGRAM, "version": _installed_version(), "requires_python": REQUIRES_PYTHON}


def _installed_version() -> str:
    """The version `--version` shows: the installed distribution's (read from its metadata
    only here, never on the way to a command), else the one `burgee gen` wrote."""
    if DISTRIBUTION:
        from importlib import metadata

        try:
            return metadata.version(DISTRIBUTION)
        except (metadata.PackageNotFoundError, ValueError):
            pass
    return VERSION


def _batch(invocation: _Invocation) -> int:
    """`--batch [FILE]`: every line of FILE (or stdin) is one call; a batch with a failed call
    ends with its error on stderr (stdout has only the calls' lines, `--json` or not)."""
    try:
        return _batch_calls(invocation)
    except _BatchFailed as error:
        return _write_error(error, False, PROGRAM)


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
    exit_code = BUILTIN_ERRORS["terminated"][0]


def _warn_deprecated(path: str, command: _Command, raw: dict[str, Any], source: str) -> None:
    """A line on stderr for a deprecated command, and for each deprecated option given (by
    its flag, or its key in `--json` input); never in the envelope on stdout."""
    used = [("command " + repr(path), command.deprecated)] if command.deprecated is not None else []
    for key, flag, reason in command.deprecated_flags:
        if key in raw:
            used.append((flag if source == "flag" else repr(key), reason))
    for what, reason in used:
        sys.stderr.write(
            f"{PROGRAM}: warning: {what} is deprecated{': ' + reason if reason else ''}\n"
        )
