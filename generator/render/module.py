"""Render a `Program` into the source of the generated module.

`render()` (`plain=True`: the plain form, every line ordinary code, the imports at the top,
never through `wrap()`): the whole generated module from `templates/cli/module.py.jinja` (with
the PEP 723 block when the handlers import third-party packages, `script_block()`); per command,
its row of `COMMANDS` (`command_row()`: handler, summary, result shape, one input a line
(`parser_arguments()`: flags and `add_argument` keywords; converter, `input_spec()`; default,
`...` when required, a function for one made anew every call; the reader's options), details)
and no code of its own; `EXIT_CODES`, `OUTCOMES`, `GROUPS`, `ALIASES` and `SHADOWS` (from
`render/tables.py`), `SHARED` (`Program.shared`); `PROGRAM = Program(...)` after the tables, one
keyword per table (`runtime/program.TABLES`); `_MEDIA`, the media functions, only when a command
returns an image or audio; each prompt and resource as such a command (`PROMPTS`, `RESOURCES`);
the record shapes; which runtime names the program's own code uses.

The generated module, in this order (the default form; `tests/golden/` shows each):

1. header: the generated-by line, the regenerate command, the map of where the parts begin
   (`render/header_map.py`), a PEP 723 `# /// script` block when the tool needs third-party
   packages; the module docstring (the program description); `from __future__ import
   annotations`, the imports that run at start-up, and the `if TYPE_CHECKING:` block: the
   handlers' imports only annotations use or that wait for the first command, and stubs of
   the runtime's names the module's ordinary code uses and a user's tests call
   (`render/stubs.py`; public members only), since type checkers and linters do not read the
   string (Python parses the block on every run of a script: not the tables' names, which are
   in the string);
2. constants `PROGRAM_NAME`, `VERSION`, `DISTRIBUTION`, `DESCRIPTION`, `REQUIRES_PYTHON`,
   `DEBUG_ENV`, `GROUP_HELP`, `ALIASES`, `ROOT`, `ROOT_MODE`, `EXIT_CODES` (only the start-up
   code reads them, for a start stopped by a second Ctrl-C);
3. the start-up code (`runtime/start/boot.py`) a run from the cache needs; then
   `_hold_interrupts` and `_boot(globals())`: burgee's runtime, from the string at the end,
   runs into the module's namespace;
4. ordinary code: `_import_handlers` (the handlers' imports only their functions use, run once
   before the first command: `runtime/execution/table.py`), the user code from the handlers
   file and its bundled sibling modules, `_to_<Record>` converters;
5. `_tables()` (the tables' section of the string), `_release_interrupts()`, and
   `if __name__ == "__main__": sys.exit(main())`;
6. last, the raw string (`render/sections.py`, packed), the runtime without its docstrings
   and `#:` comments (`catalog.bare`): the runtime's imports and `TYPE_CHECKING` block,
   `_MAX_OUTPUT`, `_CONFIG`, `_DATA` (the tool's documents), `_MCP_LISTS` and `_LAZY` (the
   names each section defines), the start-up code only a cache miss needs (section
   `start`, `boot._missed`), `runtime/core/errors.py` and `runtime/core/context.py` (what the
   handlers' code subclasses and annotates with), then the rest the program reaches, module
   by module (each begins `# -- module: burgee.runtime.NAME`), sections run on first use between
   `# ---- burgee: loaded on first use: NAME ----` lines, and last the `tables` section:
   `COMMANDS` (path -> a row), `PROMPTS`, `RESOURCES`, `GROUPS`, `ERRORS`, `OUTCOMES`,
   `SHADOWS`, `SHARED`, `RECORDS`, the MCP tables, then `PROGRAM = Program(...)` from them
   all, the one value the runtime reads.

Start-up path: `main` → `_Invocation` → `_find` (dict lookups) → `_quick_parse` reads a plainly
valid line from the command's recorded `add_argument` calls (argparse, imported lazily with its
section, is built only for help, errors and what the quick path leaves to it) → `_execute` → the
command's reader (`table._reader`, which runs `_import_handlers` first, once). Nothing else is
built or parsed: only that command's row becomes a `_Command`. `json` is imported only when JSON
is read or written; help, schema, completion and the MCP lists never import what the handlers'
functions import.

The plain form (`burgee gen --plain`, or `plain = true` in `[tool.burgee]`; the header's
regenerate line ends in `--plain`, and `gen` keeps the form of the file on disk unless told) is
the same program as ordinary code in the older order: every import that runs at start-up at the
top, the start-up code, the runtime's head, the handlers' code, the rest of the runtime, the
tables; no `_boot`, `_LAZY`, cache or stubs, every section defined at import, a Ctrl-C held from
the start-up code to the tables' end (`_release_interrupts`) for `main` to answer, a second one
meanwhile stopping the start with one line, as in the default form.
"""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from burgee import __version__
from burgee.describe import documents
from burgee.describe.forms import forms as forms_document
from burgee.describe.mcp import extra_tables, mcp_view, surfaces
from burgee.model.ir import Command, Param, Program, Prompt, Record, Resource, TypeRef
from burgee.model.kinds import has_media, metavar, value_words
from burgee.model.literals import call, py
from burgee.model.reserved import FREE_NAMES
from burgee.render.completions import surface_slots, template_values
from burgee.render.converters import choice_texts, converter, converter_spec, shape
from burgee.render.embedded import encode
from burgee.render.environment import ENVIRONMENT
from burgee.render.format import formatted
from burgee.render.header_map import mapped
from burgee.render.imports import ImportBlock
from burgee.render.join import join
from burgee.render.placed_imports import deferred_imports, placed, third_party
from burgee.render.sections import wrap
from burgee.render.tables import aliases, groups, shadows
from burgee.runtime.catalog import code_names, generated_names
from burgee.runtime.core.context import _Command
from burgee.runtime.core.wording import _characters, _number
from burgee.runtime.execution.quickargs import _BOOL_ACTION, _HIDDEN, _PASS
from burgee.runtime.program import TABLES
from burgee.runtime.rows import (
    _CommandRow,
    _InputRow,
    _MediaRow,
    _RecordRow,
    _ResourceRow,
    _row_of,
)


def docstring(text: str) -> str:
    """A module docstring that reads `text` back exactly."""
    if not text:
        return '"""A command-line tool generated by burgee."""'
    plain = '"""' not in text and "\\" not in text and not text.endswith('"')
    if (plain and text.isprintable()) or (
        plain and all(c.isprintable() or c == "\n" for c in text)
    ):
        return f'"""{text}\n"""' if "\n" in text else f'"""{text}"""'
    return repr(text)


def _help(param: Param, program: Program) -> str:
    assert param.type is not None
    parts = [param.help] if param.help else []
    if param.type.kind == "record":
        parts.append("(a JSON object)")
    elif param.type.item is not None and param.type.item.kind == "record":
        parts.append("(a JSON object each)")
    if param.default_factory:
        parts.append(f"(default: computed when it runs, by {param.default_factory}())")
    elif param.required and param.role == "option":
        parts.append("(required)")
    elif param.type.kind == "bool" and param.role == "option" and param.flag in param.negatives:
        pass  # NOTE: `--no-color`: a flag that only turns it off; "(default: on)" would mislead
    elif param.type.kind == "bool" and param.role == "option" and type(param.default) is bool:
        # NOTE: in words: argparse would wrap a `--no-x` at its hyphens.
        parts.append(f"(default: {'on' if param.default else 'off'})")
    elif (
        not param.required
        and not param.secret
        and param.default not in (None, (), {})
        and param.type.kind != "bool"
    ):
        shown = param.default
        if isinstance(shown, tuple):
            shown = " ".join(map(str, shown))
        elif shown == "" or (isinstance(shown, str) and shown.strip() != shown):
            # NOTE: quoted as `--explain` shows every string, where bare it would look like
            # no default, or lose its spaces.
            shown = json.dumps(shown, ensure_ascii=False)
        parts.append(f"(default: {shown})")
    if param.type.kind in ("list", "dict", "count") and param.role == "option":
        parts.append("(repeatable)")
    if param.prompt is not None:
        parts.append("(asked at a terminal when not given)")
    if param.pattern is not None:
        parts.append(f"(matching {param.pattern})")
    lengths = [
        f"{word} {_characters(value)}"
        for word, value in (("at least", param.min_length), ("at most", param.max_length))
        if value is not None
    ]
    if lengths:
        parts.append(f"({' and '.join(lengths)})")
    bounds = [
        f"{word} {_number(value)}"
        for word, value in (("at least", param.minimum), ("at most", param.maximum))
        if value is not None
    ]
    if bounds:
        parts.append(f"({' and '.join(bounds)})")
    if param.path is not None and param.path.note:
        parts.append(param.path.note)
    env = program.env_of(param)
    if env:
        parts.append(f"(env: {', '.join(env)})")
    if param.deprecated is not None:
        parts.append(_deprecation(param.deprecated))
    if param.shared is not None:
        # NOTE: the group's help lists it without this note (`cli._shared_help`).
        where = " ".join((program.name, *param.shared))
        parts.append(f"(shared: also before the command, after '{where}')")
    text = " ".join(parts)
    # NOTE: argparse %-formats help strings, so a literal % must be doubled.
    return text.replace("%", "%%")


def _deprecation(reason: str) -> str:
    """How help marks a deprecated option or command."""
    return f"(deprecated: {reason})" if reason else "(deprecated)"


#: `parser_arguments` of the inputs of the program asked about last, by identity (each input
#: is kept with its answer, so a reused id cannot answer for another): the examples check and
#: the command table ask for every input's, and change neither part of the answer.
_ARGUMENTS: dict[int, tuple[Param, tuple[tuple[str, ...], dict[str, Any]]]] = {}
_ARGUMENTS_OF: list[Program] = []


def parser_arguments(param: Param, program: Program) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The flags (none for an argument: argparse gets its name) and the `add_argument` keywords
    of one input, as values: its row in the command table, and the examples check, use them
    (shared: do not change them)."""
    if not _ARGUMENTS_OF or _ARGUMENTS_OF[0] is not program:
        _ARGUMENTS_OF[:] = [program]
        _ARGUMENTS.clear()
    found = _ARGUMENTS.get(id(param))
    if found is not None and found[0] is param:
        return found[1]
    made = _parser_arguments(param, program)
    _ARGUMENTS[id(param)] = (param, made)
    return made


def _parser_arguments(param: Param, program: Program) -> tuple[tuple[str, ...], dict[str, Any]]:
    assert param.type is not None
    ref = param.type
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    flags: tuple[str, ...] = ()
    options: dict[str, Any] = {}
    if param.role == "argument":
        if param.passthrough:
            options["nargs"] = _PASS  # NOTE: argparse's REMAINDER; its words: `_pass_start`
        elif ref.kind == "list":
            options["nargs"] = "+" if param.required else "*"
        elif ref.kind == "tuple":
            options["nargs"] = len(ref.items)  # NOTE: always required (read/params.py)
        elif not param.required:
            options["nargs"] = "?"
        if param.metavar:
            options["metavar"] = param.metavar
    else:
        flags = param.flags
        if param.renamed:
            options["dest"] = param.name
        if ref.kind == "bool":
            options["action"] = _BOOL_ACTION
            if param.off is not None:
                options["off"] = param.off
        elif param.nargs is not None:
            # NOTE: `--files a b`; repeated, the lists join (as one list without nargs).
            options["action"] = "extend"
            options["nargs"] = param.nargs
        elif ref.kind in ("list", "dict"):
            options["action"] = "append"
        elif ref.kind == "count":
            options["action"] = "count"
        if item.kind == "tuple":
            # NOTE: `--size W H`, and a list of them repeated (`--set K V --set K2 V2`).
            options["nargs"] = len(item.items)
        shown = metavar(item)
        words = value_words(param)
        if words:
            options["metavar"] = words
        elif ref.kind != "count":
            plain = ref.kind != "bool" and item.kind not in ("choice", "enum")
            if not shown and param.renamed and plain:
                shown = param.placeholder
            if param.metavar:
                shown = param.metavar
            if shown:
                options["metavar"] = shown
    # NOTE: argparse's "invalid choice" would print a secret, and checks a choice's case: the
    # converter checks those instead (help still shows the choices).
    if item.kind in ("choice", "enum") and not param.secret:
        texts = choice_texts(item)
        if param.case_sensitive:
            options["choices"] = texts
        elif "metavar" not in options:
            options["metavar"] = "{" + ",".join(texts) + "}"
    if param.hidden:
        options["help"] = _HIDDEN
    else:
        help_text = _help(param, program)
        if help_text:
            options["help"] = help_text
    return flags, options


def _immutable(value: object) -> bool:
    """A value the command table may hold once for every call (the rest is made anew)."""
    if isinstance(value, tuple):
        return all(_immutable(item) for item in value)
    return value is None or isinstance(value, (str, bytes, int, float, complex))


@lru_cache(maxsize=256)
def _constant(code: str) -> bool:
    """Whether a default's code is a literal that cannot change (the same few defaults, `1`,
    `False`, `[]`, recur on every command: each is read once)."""
    try:
        return _immutable(ast.literal_eval(code))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _default(param: Param) -> tuple[str, bool]:
    """The default in an input's row (`...`: required), and whether it is a function that
    makes it anew for every call (any default but a literal that cannot change)."""
    if param.required:
        return "...", False
    code = param.default_code or "None"
    if _constant(code):
        return code, False
    # NOTE: `list` and `dict` make an empty one, as `lambda: []` would (ruff's PIE807).
    return {"[]": "list", "{}": "dict"}.get(code.replace(" ", ""), f"lambda: {code}"), True


def _input_row(param: Param, program: Program, inputs: tuple[Param, ...] = ()) -> str:
    """One input's row (`runtime/rows._InputRow`, whose fields order it; read in `table.py`);
    a model parameter's converter names each of its leaf options (`inputs`) by its place."""
    assert param.type is not None
    ref = param.type
    flags, parser = parser_arguments(param, program)
    spec = input_spec(param)
    leaves = tuple((".".join(p.key_path), p.flag) for p in inputs if p.part_of == param.name)
    if leaves:
        spec = ("_model_input", spec, "" if param.whole_input else param.name, leaves)
    default, fresh = _default(param)
    options = [f"({py(key)}, {py(value)})" for key, value in parser.items()]
    env = program.env_of(param)
    # NOTE: a list of paths: its env var is split at os.pathsep, as Click's.
    paths = ref.kind == "list" and ref.item is not None and ref.item.kind == "path"
    reader: list[tuple[str, object]] = [
        ("many", "paths" if paths else ref.kind == "list"),
        ("nullable", ref.nullable),
        ("env", env[0] if len(env) == 1 else env),
        ("secret", param.secret),
        ("prompt", param.prompt),
        ("fresh", fresh),
        ("positional", param.positional_only),
        ("part", (param.part_of, param.key_path) if param.part_of else None),
        ("whole", param.whole_input and param.part_of is None),
    ]
    options += [f"({py(key)}, {py(value)})" for key, value in reader if value]
    return _code(
        _InputRow,
        name=py(param.name),
        flags=py(flags),
        converter=py(spec),
        default=default,
        options=_tuple(options),
    )


def input_spec(param: Param) -> str | tuple[object, ...]:
    """The converter an input's row names, as data (`table._converter` makes it): its
    type's (each item's, for a list), checked against its bounds or text rules if it has some;
    the examples check makes it too."""
    assert param.type is not None
    ref = param.type
    spec = converter_spec(
        ref.item if ref.kind == "list" and ref.item else ref, any_case=not param.case_sensitive
    )
    if param.pattern is not None or param.min_length is not None or param.max_length is not None:
        spec = ("_matching", spec, param.pattern, param.min_length, param.max_length)
    if param.minimum is not None or param.maximum is not None:
        spec = ("_within", spec, param.minimum, param.maximum)
    if param.path is not None:
        spec = ("_checked_path", spec, *dict(param.path).values())
    return spec


def _converter_code(param: Param) -> str:
    """The converter an input's row names (`converter_spec`), as the code it stands for."""
    assert param.type is not None
    ref = param.type
    item = ref.item if ref.kind == "list" and ref.item else ref
    return _bounded(converter(item, any_case=not param.case_sensitive), param)


def _bounded(convert: str, param: Param) -> str:
    """Wrap a converter with the parameter's `min=`/`max=` check, or its `pattern=`,
    `min_length=`/`max_length=` check, and its `click.Path` checks, if it has some."""
    if param.pattern is not None or param.min_length is not None or param.max_length is not None:
        rules = (py(param.pattern), repr(param.min_length), repr(param.max_length))
        convert = f"_matching({convert}, {', '.join(rules)})"
    if param.minimum is not None or param.maximum is not None:
        convert = f"_within({convert}, {param.minimum!r}, {param.maximum!r})"
    if param.path is not None:
        convert = call("_checked_path", (convert, *map(repr, dict(param.path).values())))
    return convert


def _code(row: type[tuple[Any, ...]], **fields: str) -> str:
    """A row of a table (`runtime/rows.py`), as code: each field's code, in the row's order."""
    return f"({', '.join(_row_of(row, **fields))})"


def _tuple(items: list[str]) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


#: The details a command's row may leave out: the runtime's own defaults (`_Command`).
_ROW_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(_Command.__init__).parameters.items()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY
}


def command_row(command: Command, program: Program, indent: str = "    ") -> str:
    """One command's row of its table (`runtime/rows._CommandRow`, whose fields order it;
    read in `table.py`), each input on a line of its own (the table is left as written by
    the formatter), indented under a row that starts at `indent`."""
    details: list[tuple[str, str]] = []
    description = command.description
    if command.deprecated is not None:
        description = f"{description}\n\n{_deprecation(command.deprecated)}".lstrip()
    if description != command.summary:
        details.append(("description", py(description)))
    if command.examples:
        details.append(("examples", py(command.examples)))
    chosen = (
        ("effects", command.effects),
        ("max_output", command.max_output),
        ("sanitize", command.sanitize),
        ("trust", command.trust),
        ("confirm", command.confirm),
        ("questions", command.asked),
        ("yes", command.yes and command.confirm is None),
        ("deprecated", command.deprecated),
        (
            "deprecated_flags",
            tuple(
                (p.name, p.flag, p.deprecated) for p in command.inputs if p.deprecated is not None
            ),
        ),
        ("exclusive", tuple((group.names, group.required) for group in command.exclusive)),
    )
    # NOTE: a value the runtime's `_Command` takes by default is left out of the row.
    details += [(key, py(value)) for key, value in chosen if value != _ROW_DEFAULTS[key]]
    for index, param in enumerate(command.params):
        if param.role == "context":
            details.append(("context", str(index) if param.positional_only else py(param.name)))
    if command.exclusive:
        details.append(("apart", "_apart"))
    if any(param.part_of for param in command.inputs):
        details.append(("leaves", "_Leaves"))
    files = tuple(
        (p.name, p.flag if p.role == "option" else p.name, p.mode, None)
        for p in command.inputs
        if p.mode is not None
    )
    if files:
        details += [("opening", "_opening"), ("files", py(files))]
    if command.is_async:
        details.append(("await_with", "_await"))
    elif command.returns is not None and command.returns.kind == "none":
        details.append(("discard", "True"))
    pairs = _tuple([f"({py(key)}, {value})" for key, value in details]) if details else "()"
    inputs = "()"
    if command.inputs:
        lines = "".join(
            f"{indent}    {_input_row(param, program, command.inputs)},\n"
            for param in command.inputs
        )
        inputs = f"(\n{lines}{indent})"
    return _code(
        _CommandRow,
        handler=command.function,
        summary=py(command.summary),
        returns=shape(command.returns),
        inputs=inputs,
        details=pairs,
    )


def surface_command(surface: Prompt | Resource) -> Command:
    """A prompt or a resource as the command `_execute` runs (`prompt NAME`, `resource NAME`)."""
    word = "prompt" if isinstance(surface, Prompt) else "resource"
    return Command(
        path=(word, surface.name),
        function=surface.function,
        summary=surface.summary,
        description=surface.description,
        effects="read_only",
        params=surface.params,
        returns=TypeRef(kind="any", source="object"),
        span=surface.span,
    )


def surface_entries(program: Program) -> tuple[list[str], list[str]]:
    """The table entry of each prompt and each resource: the `_Command` made from its row."""
    prompts = [
        f"    {py(p.name)}: _from_row({command_row(surface_command(p), program)}),"
        for p in program.prompts
    ]
    resources = [
        f"    {py(r.uri)}: "
        + _code(
            _ResourceRow,
            mime=py(r.mime_type),
            command=f"_from_row({command_row(surface_command(r), program)})",
        )
        + ","
        for r in program.resources
    ]
    return prompts, resources


def record_converter(record: Record) -> str:
    """A function that builds a dataclass, TypedDict or pydantic model from a JSON object (a
    model: pydantic builds it, and checks it)."""
    if record.style == "model":
        return (
            f"def _to_{record.name}(value: object) -> {record.name}:\n"
            f"    return _model({record.name}, value)  # type: ignore[no-any-return]"
        )
    converters = (
        "{"
        + ", ".join(f"{py(f.name)}: {converter(f.type, in_record=True)}" for f in record.fields)
        + "}"
    )
    required = py(tuple(f.name for f in record.fields if f.required))
    fields = f"_fields(value, {converters}, {required})"
    body = (
        f"{record.name}(**{fields})"
        if record.style == "dataclass"
        else f"cast({py(record.name)}, {fields})"
    )
    return f"def _to_{record.name}(value: object) -> {record.name}:\n    return {body}"


def _group_entries(program: Program) -> Iterator[str]:
    """Each group's visible children, in the order the handlers file defines them."""
    for path, children in groups(program).items():
        yield call("", [py(child) for child in children], "    ", f"{py(path)}: ", ",")


def script_block(program: Program) -> str:
    """The PEP 723 `# /// script` block (`uv run tool.py`, `pipx run tool.py`), when the
    tool needs third-party packages."""
    if not program.third_party:
        return ""
    lines = [
        "# /// script",
        f'# requires-python = ">=3.{program.python_minor}"',
        "# dependencies = [",
        *(f"#     {json.dumps(d)}," for d in program.dependencies),
        "# ]",
        "# ///",
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class _Rows:
    """The tables' rows as code (each a line of the template), and the converters of the
    records the commands take."""

    converters: list[str]
    commands: list[str]
    prompts: list[str]
    resources: list[str]
    completions: list[str]
    extra_methods: list[str]
    extra_commands: list[str]
    media: str
    shapes: list[str]


def render(
    program: Program,
    regenerate: str,
    *,
    plain: bool = False,
    meanwhile: Callable[[], None] | None = None,
) -> str:
    """The complete source of the generated module; `plain`: its plain form (`gen --plain`),
    every line ordinary code, nothing compiled from a string or cached. `meanwhile`: work
    done while ruff formats it (gen's checks)."""
    rows = _rows(program)
    completion = template_values(program)
    mcp = mcp_view(program)
    data = _data(program, mcp.tools_json, completion.pop("documents"))  # type: ignore[arg-type]
    roots = _runtime_roots(program, rows, completion, plain=plain)
    joined = join(roots, plain=plain)
    # NOTE: in the default form the tables are in the string: type checkers need stubs only
    # of the runtime names the module's ordinary code uses.
    own = roots if plain else _own_roots(program, rows)
    if not plain:
        # NOTE: the tables are a section of the compiled-once code, run where they stood.
        joined = replace(joined, lazy=dict(sorted({**joined.lazy, "tables": ("_tables",)}.items())))
    blocks = placed(program, joined, own, plain=plain)
    errors = sorted((e.exit_code, e.kind, e.description) for e in program.errors)
    template = ENVIRONMENT.get_template("cli/module.py.jinja")
    source = template.render(
        burgee_version=__version__,
        program=program,
        regenerate=regenerate,
        plain=plain,
        script_block=script_block(program),
        third_party=blocks.guarded,
        deferred=blocks.deferred,
        docstring=docstring(program.description),
        constants=_constants(program),
        imports=blocks.top,
        runtime_imports=blocks.runtime,
        runtime_checking=blocks.runtime_checking,
        type_checking=blocks.checking,
        runtime=joined,
        input_records=[{"converter": c} for c in rows.converters],
        commands=rows.commands,
        prompts=rows.prompts,
        resources=rows.resources,
        mcp_completions=rows.completions,
        extra_methods=rows.extra_methods,
        extra_commands=rows.extra_commands,
        media=rows.media,
        frameworks="_framework_call" if program.frameworks else "None",
        records=rows.shapes,
        max_output=py(program.max_output),
        data=data,
        groups=[{"table_entry": e} for e in _group_entries(program)],
        errors=[f"{py(kind)}: ({code}, {py(text)})," for code, kind, text in errors],
        outcomes=[
            f"{py(o.name)}: ({o.exit_code}, {py(o.description)}),"
            for o in sorted(program.outcomes, key=lambda o: o.exit_code)
        ],
        shadows=py(shadows(program)),
        shared=py(program.shared),
        program_facts=_facts(
            resources=bool(rows.resources),
            mcp_completions=bool(rows.completions),
            completion_slots=bool(completion["slot_tables"]),
        ),
        **completion,
        **_user_code_facts(program),
        mcp=mcp,
    )
    text = formatted(source, f"{program.name.replace('-', '_')}.py", meanwhile)
    return mapped(text if plain else wrap(text), program.source_name)


def _user_code_facts(program: Program) -> dict[str, bool]:
    """What the template says of the handlers' code: whether it uses a deferred import (ruff's
    TC004 fires only there), and whether a handler has a list or dict default."""
    return {
        "deferred_used": bool(
            (ImportBlock.of(program.user_deferred).bound() - set(program.user_made_later))
            & code_names(program.user_code)
        ),
        "list_defaults": any(
            p.default_code not in (None, "None")
            and p.type is not None
            and p.type.kind in ("list", "dict")
            for c in program.commands
            for p in c.inputs
        ),
    }


def _constants(program: Program) -> list[str]:
    """The constants before the start-up code (which alone reads them, for a start stopped
    by a second Ctrl-C)."""
    return [
        f"PROGRAM_NAME = {py(program.name)}",
        f"VERSION = {py(program.version)}",
        f"VERSION_SHORT = {py(program.version_short)}",
        f"DISTRIBUTION = {py(program.distribution or '')}",
        f"DESCRIPTION = {py(program.description)}",
        f"REQUIRES_PYTHON = {py(f'>=3.{program.python_minor}')}",
        f"DEBUG_ENV = {py(program.debug_env)}",
        "GROUP_HELP: dict[str, str] = " + py({" ".join(g.path): g.help for g in program.groups}),
        *_root_constants(program),
        "EXIT_CODES: dict[str, int] = " + py(dict(program.exit_codes)),
    ]


def _rows(program: Program) -> _Rows:
    refs = [p.type for c in program.commands for p in c.inputs if p.type is not None]
    records = {r.name: r for r in program.records}
    # NOTE: a form's answers are built by its converter (`_to_FORM`), as JSON input is.
    forms = [TypeRef(kind="record", source=name, name=name) for name in program.forms]
    prompts, resources = surface_entries(program)
    extra_methods, extra_commands = extra_tables(program)
    media = "()"
    if any(has_media(c.returns) for c in program.commands):
        media = _code(
            _MediaRow,
            write="_write_media",
            text="_media_text",
            for_terminal="_bytes_for_terminal",
            total="_media_total",
        )
    return _Rows(
        converters=[record_converter(r) for r in _input_records(refs + forms, records)],
        commands=[f"    {py(c.name)}: {command_row(c, program)}," for c in program.commands],
        prompts=prompts,
        resources=resources,
        completions=surface_slots(program),
        extra_methods=extra_methods,
        extra_commands=extra_commands,
        media=media,
        shapes=[f"    {py(r.name)}: {_record_shape(r)}," for r in _output_records(program)],
    )


def _data(program: Program, mcp_tools: str, completion_documents: dict[str, str]) -> str:
    """`_DATA`: the tool's documents, encoded once into the module."""
    texts = documents.embedded(program)
    lists = surfaces(program)
    return encode(
        {
            "schema": texts["schema"],
            "llms": texts["llms"],
            "inputs": texts["inputs"],
            "mcp_tools": mcp_tools,
            **{
                f"mcp_{name}": documents.compact({key: lists[key]})
                for name, key in (
                    ("prompts", "prompts"),
                    ("resources", "resources"),
                    ("templates", "resourceTemplates"),
                )
                if key in lists
            },
            **completion_documents,
            **({"forms": documents.compact(forms_document(program))} if program.forms else {}),
        }
    )


def _own_code(program: Program, rows: _Rows) -> list[str]:
    """The code of the module's own the default form keeps out of the string: the handlers'
    imports, the aliases of runtime names and the record converters (the handlers' own code
    is in `program.user_code`)."""
    return [
        *third_party(program, program.user_imports)[1],
        deferred_imports(program)[0],
        *(f"{local} = {api}" for local, api in program.aliases),
        *rows.converters,
    ]


def _own_roots(program: Program, rows: _Rows) -> set[str]:
    """The runtime's names the default form's ordinary code uses, which type checkers and
    linters must see stubbed (`placed_imports.PUBLIC` adds what a user's tests call)."""
    roots = {"main", "asgi"} | generated_names("\n\n".join(_own_code(program, rows)))
    return (roots | code_names(program.user_code)) - (FREE_NAMES - set(program.kept))


def _runtime_roots(
    program: Program, rows: _Rows, completion: dict[str, Any], *, plain: bool
) -> set[str]:
    """The runtime's names the tool starts from: the names the program's own code uses
    decide which parts of the runtime it gets."""
    own = [
        *_own_code(program, rows),
        "x = {" + "\n".join(rows.commands) + "}",
        # NOTE: the rows name their converters as data; as code, they say what the tool needs.
        *(_converter_code(p) for c in program.commands for p in c.inputs),
        # NOTE: a model parameter's converter names each of its leaves (`_input_row`).
        *(["_model_input"] if any(p.part_of for c in program.commands for p in c.inputs) else []),
        # NOTE: `_import_handlers` defines the pydantic models with it.
        *(["_run_models"] if program.user_models else []),
        *(_converter_code(p) for s in program.prompts for p in surface_command(s).inputs),
        *(_converter_code(p) for s in program.resources for p in surface_command(s).inputs),
        "x = {" + "\n".join(rows.prompts + rows.resources + rows.completions) + "}",
        "x = {" + "\n".join(rows.extra_methods + rows.extra_commands) + "}",
        f"x = {rows.media}",
        "x = _framework_call" if program.frameworks else "",
        "x = {" + "\n".join(rows.shapes) + "}",
        *(row for _, rows_ in completion["slot_tables"] for row in rows_),
        # NOTE: only a tool with `complete=` options carries the dynamic-completion code.
        "_complete_values = _candidates" if completion["slot_tables"] else "",
    ]
    roots = {"main", "invoke", "asgi", "_Command", "_from_row", "Any", "Program"}
    if plain:
        roots.add("_hold_interrupts")  # NOTE: the template holds a Ctrl-C as _boot does
    # NOTE: the handlers' own code was parsed when it was read (`code_names` keeps it).
    roots |= generated_names("\n\n".join(own)) | code_names(program.user_code)
    return roots - (FREE_NAMES - set(program.kept))


def _facts(**written: bool) -> list[tuple[str, str]]:
    """`PROGRAM = Program(...)`'s keywords: each fact's table, or its empty value where the
    program has no such table (`written`: which of those it has)."""
    empty = {"resources": "{}", "mcp_completions": "{}", "completion_slots": "None"}
    return [
        (fact, name if written.get(fact, True) else empty[fact]) for fact, name in TABLES.items()
    ]


def _root_constants(program: Program) -> list[str]:
    """`ALIASES`, `ROOT` and `ROOT_MODE`: how argv names a command other than by its path."""
    root, mode = program.root()
    return [
        "ALIASES: dict[str, str] = " + py(aliases(program)),
        f"ROOT = {py(root)}",
        f"ROOT_MODE = {py(mode)}",
    ]


def _input_records(refs: list[TypeRef], records: dict[str, Record]) -> list[Record]:
    """The records reachable from input types, each once, in a stable order."""
    found: dict[str, Record] = {}

    def visit(ref: TypeRef) -> None:
        if ref.kind == "record" and ref.name in records and ref.name not in found:
            record = records[ref.name]
            found[record.name] = record
            for field in record.fields:
                visit(field.type)
        for inner in (ref.item, ref.value):
            if inner is not None:
                visit(inner)

    for ref in refs:
        visit(ref)
    return sorted(found.values(), key=lambda r: r.name)


def _record_shape(record: Record) -> str:
    """A record's entry in RECORDS: each field's shape, and the required fields."""
    fields = "{" + ", ".join(f"{py(f.key)}: {shape(f.type)}" for f in record.fields) + "}"
    required = py(tuple(f.key for f in record.fields if f.required))
    return _code(_RecordRow, fields=fields, required=required)


def _output_records(program: Program) -> list[Record]:
    """The records reachable from any command's result type, in a stable order."""
    by_name = {r.name: r for r in program.records}
    names: set[str] = set()

    def visit(ref: TypeRef | None) -> None:
        if ref is None:
            return
        if ref.kind == "record" and ref.name in by_name and ref.name not in names:
            names.add(ref.name)
            for field in by_name[ref.name].fields:
                visit(field.type)
        visit(ref.item)
        visit(ref.value)

    for command in program.commands:
        visit(command.returns)
    return [by_name[name] for name in sorted(names)]
