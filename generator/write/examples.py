"""Each command's examples, parsed at generation time the way the tool will parse them.

An example is a command line: the program's name, then argv. It goes through the runtime's own
pieces, given the program's tables as a runtime `Program` (`render.tables.lookup`):
`_Invocation` takes the tool-wide flags out, `argv._find` finds the command path, and the
command's own argparse builder (`table._builder`, given the flags and keywords of its inputs'
rows) parses the rest; each value is then converted by its type's converter
(`kinds.py`); a required value left out may come from an env var or a config file as
`sources._layered` says. Nothing of the handlers file is run.

`check()`: every example of every command parsed at gen time as the tool parses it (its words
and env vars from `clispec.command_words()`; an env var must be one the command reads, its value
converted as the tool converts it), by the runtime's own code given the program's tables as a
runtime `Program` (`render/tables.lookup`, made once per program, `_Facts`): `_Invocation` (with
its commands' recorded arguments, for where a pass-through argument begins), `argv._find` (the
command path), the runtime's quick reading (`quickargs._quick_parse`) of the command's
arguments, recorded once per command by `table._builder` given the inputs' `parser_arguments()`,
and the command's own argparse parser only for what the quick reading leaves to it; each value
through the converter its row names (`render/module.input_spec()`, made by `table._converter`;
bounds and text rules included, not an enum's or a record's, which are the handlers' own
classes); a required value left out only when `sources._layered` says an env var or config file
may give it; the groups of options given apart through `values._apart`), and the warnings (a
list result without `cardinality`); `gen --strict` makes warnings errors.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from burgee.describe.clispec import command_words
from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Command, Param, Program
from burgee.render.module import input_spec, parser_arguments
from burgee.render.tables import lookup
from burgee.runtime.commandline import argv
from burgee.runtime.commandline.argv import _Invocation
from burgee.runtime.commandline.argv_parser import _new_parser
from burgee.runtime.core import kinds
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.flags import HELP_FLAGS
from burgee.runtime.execution import values
from burgee.runtime.execution.quickargs import _asks_help, _long, _quick_parse, _Recorder
from burgee.runtime.execution.sources import _layered
from burgee.runtime.execution.table import _builder, _converter
from burgee.runtime.execution.values import _apart, _as_list, _Call
from burgee.runtime.rows import _InputRow, _row_of

if TYPE_CHECKING:
    import argparse

    from burgee.runtime.core.context import Context
    from burgee.runtime.execution.sources import _Sources
    from burgee.runtime.program import Program as RuntimeProgram

#: The names a row's converter may name (`table._converter`): the types' and the wrappers'.
_RUNTIME = {**vars(kinds), **vars(values)}


class _Refused(Exception):
    """Why an example does not parse."""


@dataclass(frozen=True)
class _Facts:
    """What every example of a program is read against, made once per program (made per
    example, it walked every command for each: generation grew with the square of the commands).
    """

    #: The program as the runtime reads a command line (`render.tables.lookup`).
    tables: RuntimeProgram
    #: Each command by its path, as the runtime names it.
    commands: dict[str, Command]
    #: Each command's arguments as the quick reading records them (`recorded`), made on
    #: first use: `_Invocation` asks for them once per example, or more.
    recorders: dict[str, _Recorder]

    @classmethod
    def of(cls, program: Program) -> _Facts:
        commands = {c.name: c for c in program.commands}
        return cls(tables=lookup(program), commands=commands, recorders={})

    def recorded(self, program: Program, command: Command) -> _Recorder:
        found = self.recorders.get(command.name)
        if found is None:
            found = self.recorders[command.name] = _Recorder()
            _build(program, command)(cast("argparse.ArgumentParser", found))
        return found


def check(program: Program) -> list[Diagnostic]:
    """Every example of every command that does not parse, and the warnings about the program
    an agent or the clispec scorer would stumble on."""
    found: list[Diagnostic] = []
    facts = _Facts.of(program)
    for command in program.commands:
        for index, example in enumerate(command.examples):
            spans = command.example_spans
            span = spans[index] if index < len(spans) else command.span
            try:
                _parse(program, facts, command, example)
            except _Refused as problem:
                message = f"example '{example}' does not parse: {problem}"
                found.append(Diagnostic(span=span, message=message))
        found.extend(_warnings(command, incumbent=program.dialect != "burgee"))
    # NOTE: a prompt's or resource's docstring is its MCP description, as a command's is.
    surfaces: list[tuple[str, str, str, SourceSpan]] = [
        *(("prompt", p.name, p.summary, p.span) for p in program.prompts),
        *(("resource", r.uri, r.summary, r.span) for r in program.resources),
    ]
    for what, name, summary, span in surfaces:
        if not summary:
            found.append(
                Diagnostic(
                    span=span,
                    level="warning",
                    message=f"{what} {name!r} has no docstring: its MCP description is empty",
                )
            )
    return found


def _warnings(command: Command, *, incumbent: bool) -> Iterator[Diagnostic]:
    """What a command leaves undescribed; of a Typer or Click program (`incumbent`), not
    its missing return annotation: its commands print, and return None by design."""
    if not command.summary and not command.hidden:
        yield Diagnostic(
            span=command.span,
            level="warning",
            message=f"command {command.name!r} has no docstring: its help, its MCP tool "
            "description and its line in the skill are empty",
        )
    returns = command.returns
    if returns is None and not incumbent:
        yield Diagnostic(
            span=command.span,
            level="warning",
            message=f"command {command.name!r} has no return annotation: its result is "
            "neither described nor checked; annotate it (-> str, -> None, ...)",
        )
    if returns is not None and returns.kind == "list" and command.cardinality is None:
        yield Diagnostic(
            span=command.span,
            level="warning",
            message=f"command {command.name!r} returns a list but does not say how long: add "
            "cardinality='bounded' (a few items) or 'unbounded' (it can grow without limit); "
            "until then its schema says 'bounded' (burgee_guessed)",
        )


def _parse(program: Program, facts: _Facts, command: Command, example: str) -> None:
    try:
        env, words = command_words(example, program.name)
    except ValueError as error:
        raise _Refused(f"it is not a command line ({error})") from None
    if not words or words[0] != program.name:
        raise _Refused(f"it must start with the program's name, {program.name!r}")
    try:
        # NOTE: with the flags the program's commands take over (`Option(shadows=True)`).
        invocation = _Invocation(words[1:], facts.tables, arguments=_arguments(program, facts))
    except UsageError as error:
        raise _Refused(error.message) from None
    if invocation.batch is not None or invocation.mcp:
        raise _Refused("an example runs one command, not --batch or --mcp")
    try:
        path, rest = argv._find(invocation.rest, facts.tables)
    except UsageError as error:
        raise _Refused(error.message) from None
    if path and path in facts.tables.groups:
        raise _Refused(f"{path!r} is a group, not a command")
    if not path and facts.tables.root and rest[:1] and rest[0] in HELP_FLAGS:
        # NOTE: the tool shows the program's help here, not its root command's.
        raise _Refused("it asks for help; an example runs the command")
    if command.yes:
        _, rest = argv._take_yes(rest)  # NOTE: the --yes/-y of a command that takes it
    if path != command.name:
        if not path:
            raise _Refused("it names no command")
        raise _Refused(f"it runs {path!r}, not {command.name!r}")
    if invocation.json_input is not None:
        given = _json_input(command, invocation.json_input, rest)
        _missing(program, facts, command, given, "json")
        return
    if _asks_help(facts.recorded(program, command), rest):
        raise _Refused("it asks for help; an example runs the command")
    # NOTE: as the tool reads it: a plainly valid line quickly, anything else by argparse.
    raw = _quick_parse(facts.recorded(program, command), rest)
    if raw is None:
        raw = _argparse(program, facts, command, rest)
    for param in command.inputs:
        if param.name in raw:
            _convert(param, raw[param.name])
    _missing(program, facts, command, [*raw.keys(), *_environment(program, command, env)])


def _environment(program: Program, command: Command, env: dict[str, str]) -> Iterator[str]:
    """The inputs the env vars an example sets give (`TOOL_LIMIT=5 tool list`), each value
    read as the tool reads it (`values._Call.value`: an empty one is unset, a list's is split
    by `values._as_list`); an env var the command does not read is refused."""
    reads = {name: param for param in command.inputs for name in program.env_of(param)}
    for name, value in env.items():
        param = reads.get(name)
        if param is None:
            known = ", ".join(sorted(reads)) or "none"
            raise _Refused(f"{name} is not an env var {command.name!r} reads (it reads {known})")
        if value:
            if param.type is not None and param.type.kind == "list":
                try:
                    _convert(param, _as_list(value), name)
                except ValueError as error:
                    raise _Refused(f"{name}: {error}") from None
            else:
                _convert(param, value, name)
            yield param.name


def _argparse(
    program: Program, facts: _Facts, command: Command, rest: list[str]
) -> dict[str, object]:
    parser = _new_parser(facts.tables, f"{program.name} {command.name}")
    _build(program, command)(parser)
    try:
        # NOTE: argparse prints and exits for anything help-like that slipped through.
        with contextlib.redirect_stdout(io.StringIO()):
            return vars(parser.parse_args(rest))
    except UsageError as error:
        raise _Refused(error.message) from None
    except SystemExit:
        raise _Refused("it asks for help; an example runs the command") from None


def _build(program: Program, command: Command) -> Callable[[argparse.ArgumentParser], None]:
    """The tool's own builder, given the flags and add_argument keywords of the command's rows
    in the table (converters and defaults are the reader's, not needed here)."""
    rows = []
    for param in command.inputs:
        flags, options = parser_arguments(param, program)
        keywords = tuple(options.items())
        row = _row_of(
            _InputRow, name=param.name, flags=flags, converter=None, default=None, options=keywords
        )
        rows.append(row)
    return _builder(tuple(rows))


def _arguments(program: Program, facts: _Facts) -> Callable[[str], _Recorder | None]:
    """What `_Invocation` asks of the words that name a command: its arguments as the quick
    reading records them (where a pass-through argument begins, the tool's flags end)."""

    def arguments(named: str) -> _Recorder | None:
        command = facts.commands.get(facts.tables.aliases.get(named, named))
        return None if command is None else facts.recorded(program, command)

    return arguments


def _missing(
    program: Program, facts: _Facts, command: Command, given: Iterable[str], source: str = "flag"
) -> None:
    """A required value the example leaves out, unless an env var or a config file may give
    it; two options of a group given apart (`@command(exclusive=, one_of=)`), or none of a
    `one_of` group that nothing else may give, as the tool's own check (`values._apart`) says."""
    ordered = dict.fromkeys(given)
    present = set(ordered)
    for param in command.inputs:
        if param.required and param.name not in present and not _elsewhere(program, facts, param):
            raise _Refused(f"{param.flag} is required")
    if not command.exclusive:
        return
    call = _Call(ordered, source, cast("Context", None), cast("_Sources", None))
    longs = {param.name: param.flag for param in command.inputs}
    groups = tuple((group.names, group.required) for group in command.exclusive)
    _apart(call, groups, longs, False)
    inputs = {param.name: param for param in command.inputs}
    unreachable = tuple(
        (names, required)
        for names, required in groups
        if not any(_elsewhere(program, facts, inputs[name]) for name in names)
    )
    _apart(call, unreachable, longs, True)
    if call.problems:
        raise _Refused("; ".join(call.problems))


def _elsewhere(program: Program, facts: _Facts, param: Param) -> bool:
    """An env var or a config file may give the input its value, by the tool's own rule
    (`sources._layered`, given what the input's row gives the reader: its flag, its env var)."""
    flags, _ = parser_arguments(param, program)
    return _layered(_long(flags) if flags else None, program.env_of(param) or None, facts.tables)


def _json_input(command: Command, text: str, rest: list[str]) -> Iterable[str]:
    if rest:
        raise _Refused(f"unexpected {rest[0]!r}: with --json input, give every value in it")
    if text == "-":
        return [p.name for p in command.inputs]
    try:
        data = json.loads(text)
    except ValueError as error:
        raise _Refused(f"--json input is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise _Refused("--json input must be a JSON object keyed by parameter name")
    keys = {p.name for p in command.inputs}
    unknown = sorted(set(data) - keys)
    if unknown:
        raise _Refused(f"unknown key {unknown[0]!r}")
    return data.keys()


def _convert(param: Param, value: object, label: str | None = None) -> None:
    """Each value through the converter its row names, made as the tool makes it
    (`table._converter`), but one that needs the handlers' own classes (an enum's, a record's),
    which gen never runs."""
    spec = input_spec(param)
    if isinstance(spec, tuple) and spec[0] == "_checked_path":
        # NOTE: the files an example names are where the tool runs, not here
        spec = cast("str | tuple[object, ...]", spec[1])
    if _needs_handlers(spec):
        return
    convert = _converter(spec, _RUNTIME)
    # NOTE: a list's converter is its items' (`_Call.values`); a tuple's takes its words whole.
    many = param.type is not None and param.type.kind == "list"
    for one in value if many and isinstance(value, list) else [value]:
        if one is None or isinstance(one, bool):
            continue  # NOTE: not given, or a switch argparse has read
        try:
            convert(one)
        except ValueError as error:
            raise _Refused(f"{label or param.flag}: {error}") from None


def _needs_handlers(spec: object) -> bool:
    """The converter `spec` names one of the handlers' classes: an enum's, a record's."""
    if isinstance(spec, str):
        return spec.startswith("_to_")
    # NOTE: read as `table._converter` reads it: a choice's arguments are values, a tuple's
    # are converters, any other wrapper's first one is.
    wrapper, *arguments = cast("tuple[str, ...]", spec)
    if wrapper in ("_member", "_choice"):
        return wrapper == "_member"
    return any(_needs_handlers(part) for part in arguments[: None if wrapper == "_tuple" else 1])
