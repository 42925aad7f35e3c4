# burgee: joins tail 12
# burgee: section mcp: _ToolRow
# burgee: section describe: _CompletionOption _CompletionPositional _CompletionRow _SharedRow
"""The rows of the generated file's tables, each read by the names of its fields.

A generated file writes a table's rows as plain tuples: constants Python loads in one step,
nothing built at start-up for the commands a run never names. The runtime reads a row through
its class here, made from the plain tuple where it is read (`_CommandRow(row)`): a tuple whose
fields are properties (`_row`), so nothing is copied into attributes; each class costs some tens
of microseconds to make, once (docs/performance.md). Each class is the one declaration of its
row's shape, its fields in order with their types: `burgee gen` makes a row by the names of its
fields (`_row_of`: in `render/module.py`, `render/completions.py`, `describe/mcp.py`,
`describe/forms.py`, `write/examples.py`), and the runtime reads them by name. A row the runtime
makes itself (a question's field) is made so too. `tests/test_runtime_rows.py` finds no row read
by position.

Imports no other runtime module, as `program.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    _Row = TypeVar("_Row")


def _row(cls: type[_Row]) -> type[_Row]:
    """Give a row class a property for each of its fields (its annotations, in order); a field
    named in `_nested` holds rows of that class, each made one when the field is read."""
    nested = dict(cls.__dict__.get("_nested", ()))
    optional = dict(cls.__dict__.get("_optional", ()))
    # NOTE: no loop variable a handlers file may import (`field`): the tool is one module.
    for index, each_field in enumerate(cls.__annotations__):
        if each_field in optional:
            read = _optional_reader(index, optional[each_field])
        else:
            read = _field_reader(index, nested.get(each_field))
        setattr(cls, each_field, property(read))
    return cls


def _optional_reader(index: int, default: object) -> Callable[[tuple[Any, ...]], Any]:
    """A field a row may leave out at its end (`_optional`): its default then."""

    def read(row: tuple[Any, ...]) -> Any:
        return row[index] if len(row) > index else default

    return read


def _field_reader(index: int, inner: type | None) -> Callable[[tuple[Any, ...]], Any]:
    if inner is None:

        def read(row: tuple[Any, ...]) -> Any:
            return row[index]

        return read

    def read_rows(row: tuple[Any, ...]) -> Any:
        return tuple(map(inner, row[index]))

    return read_rows


def _row_fields(cls: type) -> tuple[str, ...]:
    """The fields of a row class, in the order a row holds them."""
    return tuple(cls.__annotations__)


def _row_of(cls: type[_Row], **values: Any) -> _Row:
    """A row made by the names of its fields (how `burgee gen` makes one, as code or as
    values): every one given, but the optional ones at its end (`_optional`) it leaves out."""
    fields = _row_fields(cls)
    optional = dict(cls.__dict__.get("_optional", ()))
    given = [field in values for field in fields]
    kept = given.index(False) if False in given else len(fields)
    if set(values) != set(fields[:kept]) or any(f not in optional for f in fields[kept:]):
        raise TypeError(f"{cls.__name__} has the fields {fields}, not {tuple(values)}")
    return cls(values[field] for field in fields[:kept])  # type: ignore[call-arg]


@_row
class _InputRow(tuple):  # type: ignore[type-arg]
    """One input of a command (`table.py`): all constants, so Python loads a command's inputs as
    one."""

    __slots__ = ()

    name: str
    #: `()` for an argument (its name is the one argparse gets).
    flags: tuple[str, ...]
    #: What converts its values, by name (`table._converter`).
    converter: Any
    #: `...` when the input is required; with the option `fresh`, the function that makes it.
    default: Any
    #: `(keyword, value)` pairs: `add_argument`'s own and the reader's (`table.py`).
    options: tuple[tuple[str, Any], ...]


@_row
class _CommandRow(tuple):  # type: ignore[type-arg]
    """One command of `COMMANDS` (and of `PROMPTS` and `RESOURCES`), made into a `_Command`
    the first time a run asks for it (`table._from_row`)."""

    __slots__ = ()
    _nested = (("inputs", _InputRow),)

    handler: Callable[..., Any]
    summary: str
    #: The result's shape (`output._conform`).
    returns: Any
    inputs: tuple[_InputRow, ...]
    #: `(keyword, value)` pairs: `_Command`'s keywords, and how to call the handler.
    details: tuple[tuple[str, Any], ...]


@_row
class _RecordRow(tuple):  # type: ignore[type-arg]
    """A record's result shape, in `RECORDS` (`output._conform`, `truncate.py`)."""

    __slots__ = ()

    #: Each field's key -> its shape.
    fields: dict[str, Any]
    #: The keys of the fields every value has.
    required: tuple[str, ...]


@_row
class _ResourceRow(tuple):  # type: ignore[type-arg]
    """A resource of `RESOURCES`, by its URI or URI template."""

    __slots__ = ()

    mime: str | None
    #: The `_Command` its reads run (`surfaces.py`).
    command: Any


@_row
class _ToolRow(tuple):  # type: ignore[type-arg]
    """An MCP tool of `_MCP_NAMES`, by the tool's name (`mcp_call.py`)."""

    __slots__ = ()

    #: The path of the command it runs.
    command: str
    #: Whether `structuredContent` wraps the data as `{"result": ...}`.
    wrapped: bool


@_row
class _ExtraCommandRow(tuple):  # type: ignore[type-arg]
    """A built-in command a program adds (`prompt`, `resource`), in `_EXTRA_COMMANDS`."""

    __slots__ = ()

    help: str
    run: Callable[..., Any]


@_row
class _MediaRow(tuple):  # type: ignore[type-arg]
    """`_MEDIA` of a program whose commands return images or audio (`media.py`); `()` in any
    other, which nothing reads."""

    __slots__ = ()

    #: How text mode writes an answer's media (`_write_media`).
    write: Callable[..., Any]
    #: How an MCP answer carries them (`_media_text`).
    text: Callable[..., Any]
    #: Text mode's refusal before a call whose bytes could go nowhere (`_bytes_for_terminal`).
    for_terminal: Callable[..., Any]
    #: The check of one answer's total (`_media_total`).
    total: Callable[..., Any]


@_row
class _FieldRow(tuple):  # type: ignore[type-arg]
    """A field a person or an MCP client is asked for: one of a form (`ctx.form`: the `forms`
    document's row, with the default the class has added at run time, `fields._form_fields`),
    or a question's one (`ctx.ask`, `ctx.confirm`, `prompt=`: `context._question_field`)."""

    __slots__ = ()

    name: str
    #: The question asked (a form field's: its name).
    title: str
    description: str
    #: Its JSON Schema type: `boolean`, `string`, `integer` or `number`.
    kind: str
    #: It takes several of its choices.
    several: bool
    choices: Sequence[str]
    #: A title for each choice (an enum member's, as words), or none.
    titles: Sequence[str]
    required: bool
    #: None: it has none.
    default: Any


@_row
class _CompletionOption(tuple):  # type: ignore[type-arg]
    """An option of the completion table (a JSON list), as `shells._completion_nodes` reads
    it."""

    __slots__ = ()

    _optional = (("takes", 1),)

    spellings: list[str]
    #: How its value completes (`_Values`; None: it takes none).
    values: str | list[str] | None
    help: str
    #: How many words it takes (`nargs=N` or a tuple: N; "+": every word up to the next
    #: flag); left out when one.
    takes: int | str


@_row
class _CompletionPositional(tuple):  # type: ignore[type-arg]
    """A positional of the completion table (a JSON list)."""

    __slots__ = ()

    #: How it completes (`_Values`).
    values: str | list[str] | None
    #: It takes every word after it.
    variadic: bool


@_row
class _CompletionRow(tuple):  # type: ignore[type-arg]
    """A command of the completion table (`_DATA`'s `completion`, JSON: a list), as
    `shells._completion_nodes` reads it."""

    __slots__ = ()
    _nested = (("options", _CompletionOption), ("positionals", _CompletionPositional))

    path: str
    #: The paths of its aliases.
    aliases: list[str]
    #: 1 when it asks first (so `--yes` is offered), else 0.
    confirm: int
    options: tuple[_CompletionOption, ...]
    positionals: tuple[_CompletionPositional, ...]


@_row
class _SharedRow(tuple):  # type: ignore[type-arg]
    """The options a group's `options=` (the program's: "") shares, in the completion table:
    they complete before the command too, as the command's at `command`."""

    __slots__ = ()
    _nested = (("options", _CompletionOption),)

    scope: str
    command: str
    options: tuple[_CompletionOption, ...]


@_row
class _SlotRow(tuple):  # type: ignore[type-arg]
    """One input of a command that has `complete=` inputs, as its shell completion reads it
    (`PROGRAM.completion_slots`, `complete._candidates`); a bool's off form is one of its own."""

    __slots__ = ()

    name: str
    #: The flags that give it (`()` for an argument).
    flags: tuple[str, ...]
    #: `arg`, `args`, `flag` (True), `off` (a bool's off form: False), `value` or `append`.
    mode: str
    #: Its converter, for the values typed before (`complete._coerce`); None for an off form.
    convert: Callable[[str], Any] | None
    #: Its `complete=` function, or None.
    complete: Callable[..., Any] | None
    #: How many arguments the `complete=` function takes (`complete._offered`).
    arity: int
    #: How many words an option of several takes (-1: every word up to the next flag); left
    #: out for one.
    words: int

    _optional = (("words", 1),)


@_row
class _McpSlotRow(tuple):  # type: ignore[type-arg]
    """One argument of a prompt or resource template that has one that completes, as MCP's
    `completion/complete` reads it (`PROGRAM.mcp_completions`, `surfaces._mcp_complete`)."""

    __slots__ = ()

    name: str
    convert: Callable[[str], Any]
    #: Its `complete=` function, or None.
    complete: Callable[..., Any] | None
    arity: int
    #: The values its type allows (an enum's, a Literal's), offered first.
    choices: tuple[str, ...]
