# burgee: joins tail 160
"""Each command as the generated file writes it: one row of data, made into a `_Command` when a
run first asks for it.

A tool of hundreds of commands runs one of them. So the generated `COMMANDS` table holds a plain
tuple per command, not code: its handler, its summary, its result's shape, one tuple per input
(mostly constants, which Python loads in one step) and its other details. `_command(path)` makes
the `_Command` of the command a run names, once: its parser builder gives each input's
`add_argument` keywords to argparse (and to `_quick_parse`, which reads the same calls), and its
reader takes each value through `_Call` (converted, checked, from a flag, JSON, an env var, a
config file or its default) and calls the handler.

An input (`rows._InputRow`: name, flags, converter, default, options, read by those names) is
all constants (Python loads a command's inputs as one). `flags` is `()` for an argument (its
name is the one argparse gets); `converter` names what converts its values (`_converter`);
`default` is `...` when the input is required; `options` are `(keyword, value)` pairs:
`add_argument`'s own (`_PARSER_KEYWORDS`) and the reader's (`env`, `secret`, `prompt`,
`nullable` for `_Call.value`; `many`: a list, read with `_Call.values`; `fresh`: the default is
a function that makes it anew for every call (then the inputs are not all constants);
`positional`: the handler takes it by position only).

A command's row is `rows._CommandRow` (handler, summary, returns, inputs, details); its details
are pairs too: `_Command`'s keywords, and how to call the handler (`context`: the keyword, or
the position, of its injected `Context`; `await_with`: `_await`, which runs an `async def`
handler's coroutine; `discard`: it returns None whatever its body returns; `apart`:
`values._apart`, which checks the groups of options given apart that `_Command.exclusive`
holds; `leaves`: `records._Leaves`, a command's record parameters given leaf by leaf,
`--ship-to.city`; `opening` and `files`: `files._opening`, which gives the handler its file
parameters open).

The command table as data: `_command(path)` makes the `_Command` of a row of `COMMANDS` the
first time a run asks for it (`_from_row`): `_builder` gives argparse (and `_quick_parse`) each
input's flags and keywords, `_reader` reads each value through `_Call` and calls the handler
(positional-only inputs, the injected `Context`, an async handler through `_await`, the groups
of options given apart through `values._apart`); `_import_once`: the handlers' imports that wait
for the first command (the generated `_import_handlers`, None in a program without), run once,
under a lock (MCP over HTTP runs calls on threads), before a command's first input is read and
before a `complete=` function runs (`complete._offered`).
"""

from __future__ import annotations

import _thread
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _OUTPUT_WORD
from burgee.runtime.answers.spill import _PAGE, _read_spill
from burgee.runtime.core.context import _Command
from burgee.runtime.core.kinds import _Any, _Int, _Str
from burgee.runtime.execution.quickargs import _BOOL_ACTION, _HIDDEN, _long, _negatives
from burgee.runtime.execution.values import _REQUIRED, _within
from burgee.runtime.rows import _CommandRow

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from burgee.runtime.execution.values import _Call
    from burgee.runtime.program import Program
    from burgee.runtime.rows import _InputRow

#: The keywords of an input's options that go to `parser.add_argument`; the others are the
#: reader's.
_PARSER_KEYWORDS = frozenset(("action", "nargs", "dest", "metavar", "choices", "help", "off"))
#: The details of a command that say how to call its handler, not what `_Command` keeps.
_CALL_DETAILS = ("context", "await_with", "discard", "apart", "leaves", "opening", "files")

#: Each command's `_Command`, by its program and path, made from its row the first time a run
#: asks for it.
_MADE: dict[tuple[Program, str], _Command] = {}


def _command(program: Program, path: str) -> _Command | None:
    """The command at `path`: `program`'s own, or the built-in `output`."""
    command = _MADE.get((program, path))
    if command is None:
        row = program.commands.get(path)
        if row is None:
            return _OUTPUT if path == _OUTPUT_WORD else None
        # NOTE: setdefault: threads that race here all get the same command.
        command = _MADE.setdefault((program, path), _from_row(row))
    return command


def _from_row(row: tuple[Any, ...], names: dict[str, Any] | None = None) -> _Command:
    """The `_Command` of one row of a generated table (see the module's docstring); the names
    its converters use are the tool's own (`names`: where else to find them)."""
    named = _CommandRow(row)
    inputs = named.inputs
    keywords = dict(named.details)
    how = {name: keywords.pop(name) for name in _CALL_DETAILS if name in keywords}
    checks = bool(inputs) or keywords.get("confirm") is not None
    found = globals() if names is None else names
    converters = tuple(_converter(each.converter, found) for each in inputs)
    leaves = how.get("leaves")
    if leaves is not None:
        how["leaves"] = leaves = leaves(inputs)
    handler = named.handler
    opening = how.get("opening")
    if opening is not None:
        # NOTE: its files open just before it runs, closed after (`files._opening`).
        handler = opening(handler, how["files"], "await_with" in how)
    run = _reader(handler, inputs, converters, how, checks, keywords.get("exclusive", ()))
    keys = tuple(each.name for each in inputs) if leaves is None else leaves.keys(inputs)
    secret = any(("secret", True) in each.options for each in inputs)
    build = _builder(inputs)
    return _Command(named.summary, keys, build, run, named.returns, secret=secret, **keywords)


def _builder(inputs: tuple[_InputRow, ...]) -> Callable[[argparse.ArgumentParser], None]:
    """The function that adds the inputs to a command's parser (argparse's or `_Recorder`)."""

    def build(parser: argparse.ArgumentParser) -> None:
        for each in inputs:
            flags = each.flags
            keywords = {key: value for key, value in each.options if key in _PARSER_KEYWORDS}
            if "choices" in keywords and not flags and keywords.get("nargs") in ("?", "*"):
                keywords["choices"] = _Choices(keywords["choices"])
            if keywords.get("help") == _HIDDEN:
                # NOTE: argparse tells `SUPPRESS` by identity, and the table's string is another
                # object. argparse is loaded whenever it is its parser being built (the quick
                # reading's `_Recorder` needs no argparse, and takes the string as it is).
                keywords["help"] = getattr(sys.modules.get("argparse"), "SUPPRESS", _HIDDEN)
            parser.add_argument(*(flags or (each.name,)), **keywords)

    return build


def _paths_of(call: _Call) -> Callable[..., Any]:
    """`call.values` of a list of paths: its env var is split at `os.pathsep` (Click's)."""

    def read(*args: Any, **keywords: Any) -> Any:
        return call.values(*args, paths=True, **keywords)

    return read


class _Choices(tuple):  # type: ignore[type-arg]
    """The choices of an optional positional (`?`, or a list's `*`). Left out, it gets its
    default, which argparse checks against them, and the parsers' default is `SUPPRESS`: that
    check passes (every supported Python's argparse makes it)."""

    def __contains__(self, value: object) -> bool:
        return value == _HIDDEN or tuple.__contains__(self, value)


def _converter(spec: Any, names: dict[str, Any]) -> Callable[[Any], Any]:
    """The converter a row names: a type's class (its `convert`) or a record's converter, by
    name; or `(wrapper, arguments...)`, as `_within("_Int", 1, 5)` stands for
    `_within(_Int.convert, 1, 5)`. The wrappers are `values.py`'s."""
    if isinstance(spec, str):
        found = names[spec]
        return getattr(found, "convert", found)  # type: ignore[no-any-return]
    wrapper, *arguments = spec
    make = names[wrapper]
    if wrapper == "_choice":
        return make(*arguments)  # type: ignore[no-any-return]
    if wrapper == "_member":
        return make(names[arguments[0]])  # type: ignore[no-any-return]
    if wrapper == "_tuple":
        return make(*(_converter(item, names) for item in arguments))  # type: ignore[no-any-return]
    return make(_converter(arguments[0], names), *arguments[1:])  # type: ignore[no-any-return]


#: Whether the handlers' imports that wait for the first call have run (`_import_once`).
_IMPORTED: list[bool] = []
_IMPORTING = _thread.allocate_lock()


def _import_once(program: Program) -> None:
    """Run the handlers' imports that only their functions use (`program.import_handlers`),
    once, before the first handler or `complete=` function runs: help, schema, completion
    and the MCP lists never import what the handlers import. Callers check first that there
    are some (`_import_handlers` is None in a program without), and that they have not run."""
    with _IMPORTING:  # NOTE: MCP over HTTP runs calls on threads: one runs them, others wait
        if not _IMPORTED and program.import_handlers is not None:
            program.import_handlers()
            _IMPORTED.append(True)


def _reader(
    handler: Callable[..., Any],
    inputs: tuple[_InputRow, ...],
    converters: tuple[Callable[[Any], Any], ...],
    how: dict[str, Any],
    checks: bool,
    exclusive: tuple[tuple[tuple[str, ...], bool], ...] = (),
) -> Callable[[_Call], object]:
    """The function that reads every input of one call and calls the handler with them
    (`exclusive`: its groups of options given apart, which `how["apart"]` checks before and
    after)."""
    context = how.get("context")
    await_with = how.get("await_with")
    discard = bool(how.get("discard"))
    apart = how.get("apart")
    # NOTE: what each input needs is worked out once per command, not on every call (an MCP
    # server runs the same command thousands of times).
    plan = []
    for index, each in enumerate(inputs):
        flags, named = each.flags, dict(each.options)
        off = named.get("off", _negatives(flags)) if named.get("action") == _BOOL_ACTION else ()
        plan.append(
            (
                each.name,
                converters[index],
                each.default,
                named.get("many") or False,
                bool(named.get("fresh")),
                bool(named.get("positional")),
                _long(flags) if flags else None,
                off[-1] if off else None,
                bool(named.get("nullable")),
                named.get("env"),
                bool(named.get("secret")),
                named.get("prompt"),
            )
        )
    leaves = how.get("leaves")
    if leaves is not None:
        plan = leaves.first(plan)

    #: The options whose flag takes N words (`nargs=N`) and may be repeated: the list JSON
    #: input gives holds whole groups of N, as the command line can only give them.
    groups = {
        each.name: nargs
        for each in inputs
        if dict(each.options).get("action") == "extend"
        for key, nargs in each.options
        if key == "nargs" and isinstance(nargs, int) and nargs > 1
    }
    #: Each option's long flag, for what a group's problem names.
    longs = {i.name: _long(i.flags) for i in inputs if i.flags} if apart is not None else {}

    def run(call: _Call) -> object:
        program = call.context._program
        if program.import_handlers is not None and not _IMPORTED:
            _import_once(
                program
            )  # NOTE: before any default factory or converter of the handlers' runs
        args: list[Any] = []
        given: dict[str, Any] = {}
        pieces: dict[str, Any] = {}
        if apart is not None:
            apart(call, exclusive, longs, False)
        for (
            name,
            convert,
            written,
            many,
            fresh,
            positional,
            flag,
            off,
            nullable,
            env,
            secret,
            prompt,
        ) in plan:
            if leaves is not None and name in leaves.parents:
                leaves.gather(call, name, pieces.get(name), written is ...)
            default = written() if fresh else written
            if default is ...:
                default = _REQUIRED
            read = call.values if many else call.value
            if many == "paths":
                read = _paths_of(call)
            # NOTE: a False from the command line came from the off form (`--deep`).
            typed = off if off and call.source == "flag" and call.raw.get(name) is False else flag
            # NOTE: each keyword by name, not `**options`: a call with a dict of keywords copies
            # it, and the reader runs once per input of every call.
            problems = len(call.problems)
            value = read(
                name,
                convert,
                default,
                flag=typed,
                nullable=nullable,
                env=env,
                secret=secret,
                prompt=prompt,
            )
            if many and name in groups and isinstance(value, list) and len(value) % groups[name]:
                each = groups[name]
                call.problems.append(
                    f"{call._label(name, typed)}: {len(value)} value(s), not whole groups of"
                    f" {each} (each {flag or name} takes {each})"
                )
            if leaves is not None and leaves.take(call, name, value, problems, pieces):
                continue  # NOTE: a record's leaf option, in its record's object
            if positional:
                args.append(value)
            else:
                given[name] = value
        if apart is not None:
            apart(call, exclusive, longs, True)
        if isinstance(context, int):
            args.insert(context, call.context)
        elif context is not None:
            given[context] = call.context
        # NOTE: a command without inputs has problems only when a JSON input had keys.
        if checks or call.problems:
            call.check()
        if program.frameworks is None:
            result = handler(*args, **given)
        else:
            result = program.frameworks(call.context, handler, args, given)
        if await_with is not None:
            return await_with(call.context, result)
        return None if discard else result

    return run


#: The inputs of `output`, read by its reader, argparse, completion and every document that
#: describes it (`burgee.describe.builtins`): name, flag (None: the positional), metavar, the
#: least value and the default of an option, help.
_OUTPUT_INPUTS: tuple[tuple[str, str | None, str, int, int, str], ...] = (
    ("ref", None, "REF", 0, 0, "the reference a cut answer names (`full output: REF`)"),
    ("offset", "--offset", "CHARS", 0, 0, "where the page starts"),
    ("limit", "--limit", "CHARS", 1, _PAGE, "how long it is"),
)


def _output_help(flag: str | None, default: int, text: str) -> str:
    """An input's help line, with the default of an option."""
    return text if flag is None else f"{text} (default: {default})"


def _build_output(parser: argparse.ArgumentParser) -> None:
    for name, flag, metavar, _, default, text in _OUTPUT_INPUTS:
        help_text = _output_help(flag, default, text)
        if flag is None:
            parser.add_argument(name, metavar=metavar, help=help_text)
        else:
            parser.add_argument(flag, dest=name, metavar=metavar, help=help_text)


def _run_output(call: _Call) -> object:
    found: dict[str, Any] = {}
    for name, flag, _, least, default, _ in _OUTPUT_INPUTS:
        if flag is None:
            found[name] = call.value(name, _Str.convert)
        else:
            convert = _within(_Int.convert, least, None)
            found[name] = call.value(name, convert, default, flag=flag)
    call.check()
    name = call.context._program.name
    return _read_spill(
        found["ref"], name, found["offset"], found["limit"], call.spill_dir, call.bound
    )


#: The built-in `output` command: every surface (flags, `--json` input, MCP, `--batch`) pages
#: a cut answer back through it. Never cut itself (max_output=0): a page is what was asked for.
_OUTPUT = _Command(
    "Read back the full text of an answer that was cut.",
    tuple(name for name, *_ in _OUTPUT_INPUTS),
    _build_output,
    _run_output,
    # NOTE: a page is a record of fixed keys (ref, offset, length, text, next), never a map:
    # cut, it loses the middle of its text, not a key.
    _Any,
    description="Read back the full text of an answer that was cut, a page at a time: the"
    " reference is in\nthe answer's marker and in meta.truncated.ref.",
    examples=(f"{_OUTPUT_WORD} 0123456789abcdef --offset 0 --limit {_PAGE}",),
    max_output=0,
)
