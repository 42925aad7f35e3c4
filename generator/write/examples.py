"""Each command's examples, parsed at generation time the way the tool will parse them.

An example is a command line: the program's name, then argv. It goes through the runtime's own
pieces: `_Invocation` takes the tool-wide flags out, the command path is found among the
program's commands and groups, and the command's own argparse builder (`table._builder`, given
the flags and keywords of its inputs' rows) parses the rest; each value is then converted by its
type's converter (`runtime/kinds.py`). Nothing of the handlers file is run.
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Command, Param, Program
from burgee.render.module import parser_arguments, shadows
from burgee.runtime import argv
from burgee.runtime.argv import _Invocation
from burgee.runtime.argv_parser import _new_parser
from burgee.runtime.errors import UsageError, _Invalid
from burgee.runtime.flags import HELP_FLAGS
from burgee.runtime.kinds import TYPES
from burgee.runtime.quickargs import _quick_parse, _Recorder
from burgee.runtime.table import _builder
from burgee.runtime.values import _apart, _Call

if TYPE_CHECKING:
    import argparse

    from burgee.runtime.context import Context
    from burgee.runtime.sources import _Sources

#: Where a shell would end one command (`tool list | jq .`): the example is what comes before.
_OPERATORS = frozenset({"|", "||", "&", "&&", ";", ">", ">>", "<", "(", ")"})


class _Refused(Exception):
    """Why an example does not parse."""


@dataclass(frozen=True)
class _Facts:
    """What every example of a program is read against, made once per program (made per
    example, it walked every command for each: generation grew with the square of the commands).
    """

    #: The flags the program's commands take over (`render.module.shadows`).
    shadows: dict[str, tuple[str, ...]]
    commands: frozenset[tuple[str, ...]]
    #: An alias's path -> its command's path.
    aliases: dict[tuple[str, ...], tuple[str, ...]]
    #: Every group's path, and the program's own ().
    groups: frozenset[tuple[str, ...]]
    root: Command | None
    #: The options the program's groups share (`Program.shared`), and what words name.
    shared: dict[str, dict[str, int]]
    paths: dict[str, str]
    #: Each command by its path.
    by_path: dict[tuple[str, ...], Command]
    #: Each command's arguments as the quick reading records them (`_recorded`), made on
    #: first use: `_Invocation` asks for them once per example, or more.
    recorders: dict[tuple[str, ...], _Recorder]

    @classmethod
    def of(cls, program: Program) -> _Facts:
        return cls(
            shadows=shadows(program),
            commands=frozenset(c.path for c in program.commands),
            aliases={(*c.path[:-1], a): c.path for c in program.commands for a in c.aliases},
            groups=frozenset({g.path for g in program.groups} | {()}),
            root=next((c for c in program.commands if c.root), None),
            shared=program.shared,
            paths=program.paths,
            by_path={c.path: c for c in program.commands},
            recorders={},
        )

    def recorded(self, program: Program, command: Command) -> _Recorder:
        found = self.recorders.get(command.path)
        if found is None:
            found = self.recorders[command.path] = _Recorder()
            _build(program, command)(cast("argparse.ArgumentParser", found))
        return found

    def named(self, words: str) -> str:
        """What `words` name, as `argv._named` says for the tool: "command", "group" or ""."""
        return self.paths.get(words, "")


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
        found.extend(_warnings(command))
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


def _warnings(command: Command) -> Iterator[Diagnostic]:
    if not command.summary and not command.hidden:
        yield Diagnostic(
            span=command.span,
            level="warning",
            message=f"command {command.name!r} has no docstring: its help, its MCP tool "
            "description and its line in the skill are empty",
        )
    returns = command.returns
    if returns is None:
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
            "cardinality='bounded' (a few items) or 'unbounded' (it can grow without limit)",
        )


def _words(example: str) -> list[str]:
    lexer = shlex.shlex(example, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError as error:
        raise _Refused(f"it is not a command line ({error})") from None
    for index, word in enumerate(words):
        if word in _OPERATORS:
            return words[:index]
    return words


def _parse(program: Program, facts: _Facts, command: Command, example: str) -> None:
    words = _words(example)
    if not words or words[0] != program.name:
        raise _Refused(f"it must start with the program's name, {program.name!r}")
    try:
        # NOTE: with the flags the program's commands take over (`Option(shadows=True)`).
        invocation = _Invocation(
            words[1:],
            facts.shadows,
            config=program.config,
            arguments=_arguments(program, facts),
            shared=(facts.shared, facts.named),
        )
    except UsageError as error:
        raise _Refused(error.message) from None
    if invocation.batch is not None or invocation.mcp:
        raise _Refused("an example runs one command, not --batch or --mcp")
    path, rest = _find(program, facts, invocation.rest)
    if command.confirm is not None:
        _, rest = argv._take_yes(rest)  # NOTE: the --yes/-y of a command that asks first
    if path != command.path:
        if not path:
            raise _Refused("it names no command")
        raise _Refused(f"it runs {' '.join(path)!r}, not {command.name!r}")
    if invocation.json_input is not None:
        _missing(program, command, _json_input(command, invocation.json_input, rest), "json")
        return
    words_before = rest[: rest.index("--")] if "--" in rest else rest
    if any(word in HELP_FLAGS for word in words_before):
        raise _Refused("it asks for help; an example runs the command")
    # NOTE: as the tool reads it: a plainly valid line quickly, anything else by argparse.
    raw = _quick_parse(facts.recorded(program, command), rest)
    if raw is None:
        raw = _argparse(program, command, rest)
    for param in command.inputs:
        if param.name in raw:
            _convert(param, raw[param.name])
    _missing(program, command, raw.keys())


def _argparse(program: Program, command: Command, rest: list[str]) -> dict[str, object]:
    parser = _new_parser(f"{program.name} {command.name}")
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
        rows.append((param.name, flags, None, None, tuple(options.items())))
    return _builder(tuple(rows))


def _arguments(program: Program, facts: _Facts) -> Callable[[str], _Recorder | None]:
    """What `_Invocation` asks of the words that name a command: its arguments as the quick
    reading records them (where a pass-through argument begins, the tool's flags end)."""

    def arguments(named: str) -> _Recorder | None:
        path = tuple(named.split(" "))
        command = facts.by_path.get(facts.aliases.get(path, path))
        return None if command is None else facts.recorded(program, command)

    return arguments


def _missing(
    program: Program, command: Command, given: Iterable[str], source: str = "flag"
) -> None:
    """A required value the example leaves out, unless an env var or a config file may give
    it; two options of a group given apart (`@command(exclusive=, one_of=)`), or none of a
    `one_of` group that nothing else may give, as the tool's own check (`values._apart`) says."""
    ordered = dict.fromkeys(given)
    present = set(ordered)
    for param in command.inputs:
        if param.required and param.name not in present and not _elsewhere(program, param):
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
        if not any(_elsewhere(program, inputs[name]) for name in names)
    )
    _apart(call, unreachable, longs, True)
    if call.problems:
        raise _Refused("; ".join(call.problems))


def _elsewhere(program: Program, param: Param) -> bool:
    """An env var or a config file may give the option its value."""
    return bool(program.config or (param.env if param.env is not None else program.env_prefix))


def _find(program: Program, facts: _Facts, tokens: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """The command path at the start of `tokens`, as the tool's `_find` reads it (aliases
    and the root command included)."""
    commands, aliases, groups, root = facts.commands, facts.aliases, facts.groups, facts.root
    if root is not None and len(program.commands) == 1:
        return root.path, tokens  # NOTE: no subcommand level at all
    node: tuple[str, ...] = ()
    index = 0
    while index < len(tokens) and node in groups:
        token = tokens[index]
        if token.startswith("-"):
            break
        child = aliases.get((*node, token), (*node, token))
        if child not in commands and child not in groups:
            if not node and root is not None and any(p.role == "argument" for p in root.inputs):
                return root.path, tokens  # NOTE: the root command's argument
            raise _Refused(f"unknown command {token!r}")
        node = child
        index += 1
    if not node and root is not None:
        return root.path, tokens[index:]
    if node in groups and node:
        raise _Refused(f"{' '.join(node)!r} is a group, not a command")
    return node, tokens[index:]


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


def _convert(param: Param, value: object) -> None:
    """Each value through its type's converter, as the tool converts it before the handler."""
    ref = param.type
    if ref is None:
        return
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    kind = TYPES.get(item.kind)
    if kind is None:
        return
    values = value if isinstance(value, list) else [value]
    for one in values:
        if one is None or (item.kind == "bool" and isinstance(one, bool)):
            continue
        try:
            kind.convert(one)
        except _Invalid as error:
            raise _Refused(f"{param.flag}: {error}") from None
