# burgee: joins tail 65
"""Records as a command's input: a dataclass, a TypedDict or a pydantic model, given leaf by
leaf (`--ship-to.city`) or as one JSON object, and built.

Joined only into a tool that has a record parameter: the generated code names what it uses
(`_to_<Record>` converters name `_fields` or `_model`; a command with leaf options names
`_Leaves` among its row's details and `_model_input` among its converters), so the code
every tool runs never refers to this module (`values._Call` asks a problem `within()`,
`_Invalid`'s own, which `_Problems` overrides).

`_Leaves`: a command's leaf options, worked out once per command (`table._reader` asks it):
each leaf's converted value (`_Given`) is put in its record's object (`take`), over the whole
object the record's own flag gave (`gather`); a command whose only input is a pydantic model
takes JSON input as the model's object itself. `_fields` builds a dataclass's or TypedDict's
fields, `_model` asks pydantic to build a model; either tells every failing field with its place
(`_Problems`), which `_model_input` names by its flag and its JSON path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.core.errors import _Invalid
from burgee.runtime.core.jsonread import _load_json
from burgee.runtime.core.wording import _JSON_EXPECTED, _expected
from burgee.runtime.start.boot import _ANNOTATIONS, _file_text

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from burgee.runtime.execution.values import _Call
    from burgee.runtime.rows import _InputRow

    _T = TypeVar("_T")


#: The line above the handlers' pydantic models in a tool: type checkers read them there, and
#: `_run_models` runs the same lines when the first command needs them.
MODELS_BEGIN = "if TYPE_CHECKING:  # NOTE: the models; _import_handlers runs these lines"


def _run_models(namespace: dict[str, Any]) -> None:
    """Define the handlers' pydantic models in `namespace` (the tool's), when the first command
    needs them: the lines under `MODELS_BEGIN` in the tool's file, compiled where they stand
    (a traceback names their lines), never at start-up (pydantic's import is most of it)."""
    path = str(namespace.get("__file__"))
    text = _file_text(path, namespace) or ""
    at = text.find("\n" + MODELS_BEGIN + "\n")
    if at < 0:
        raise SystemExit(f"{path}: the pydantic models are not there (line {MODELS_BEGIN!r})")
    lines = text[at + len(MODELS_BEGIN) + 2 :].split("\n")
    end = next((n for n, line in enumerate(lines) if line[:1] not in ("", " ")), len(lines))
    # NOTE: `if True:` in the place of the opening line: the lines stay where they are.
    padding = "\n" * text.count("\n", 0, at + 1)
    code = f"{padding}if True:\n" + "\n".join(lines[:end])
    exec(compile(code, path, "exec", _ANNOTATIONS, dont_inherit=True), namespace)  # noqa: S102


class _Given:
    """A leaf option's value, converted and checked already: a record's converter takes it as
    it is (a `Path` is no JSON a converter reads), and pydantic is given the value. Wherever
    the tool writes it as data (`--explain`), it is its value, as an enum member is
    (`output._jsonable` reads `_value_`)."""

    __slots__ = ("_value_",)

    def __init__(self, value: object) -> None:
        self._value_ = value


class _Leaves:
    """A command's record parameters with leaf options: which input is whose leaf, at which
    keys (`part`), and the record a command's whole JSON input is (`whole`)."""

    def __init__(self, inputs: tuple[_InputRow, ...]) -> None:
        self.parts: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.wholes: set[str] = set()
        for each in inputs:
            named = dict(each.options)
            if "part" in named:
                self.parts[each.name] = named["part"]
            if named.get("whole"):
                self.wholes.add(each.name)
        self.parents = {parent for parent, _ in self.parts.values()}

    def keys(self, inputs: tuple[_InputRow, ...]) -> tuple[str, ...]:
        """The keys of the command's JSON input: its inputs' names but the leaf options (JSON
        input gives the record's object); for a whole input, the model's own keys (each field
        has a leaf option, its key the first of its place)."""
        keys: dict[str, None] = {}
        for each in inputs:
            part = self.parts.get(each.name)
            if self.wholes and part is not None:
                keys[part[1][0]] = None
            elif not self.wholes and part is None:
                keys[each.name] = None
        return tuple(keys)

    def first(self, plan: list[Any]) -> list[Any]:
        """`plan` (one step per input, its name first) with the leaves read before the records
        they make."""
        return sorted(plan, key=lambda step: step[0] not in self.parts)

    def gather(self, call: _Call, name: str, pieces: dict[str, Any] | None, required: bool) -> None:
        """A record parameter's object on the command line: its leaf options' values
        (`pieces`) over the whole object its own flag gave; a required record given no leaf
        is an empty object, so its converter names each field it needs by its flag. A whole
        input: JSON input is the model's object itself."""
        if name in self.wholes and call.source != "flag":
            call.raw[name] = dict(call.raw)
            if call.refused:
                call.refused.add(name)  # NOTE: the input schema refused a field already
            return
        if call.source != "flag" or not (pieces or required):
            return
        given = call.raw.get(name)
        if isinstance(given, str):
            try:
                given = _load_json(given)
            except (ValueError, RecursionError):
                return  # NOTE: the record's converter says what is wrong with it
        if given is not None and not isinstance(given, dict):
            return
        call.raw[name] = _merged(given or {}, pieces or {})

    def take(
        self, call: _Call, name: str, value: object, before: int, pieces: dict[str, Any]
    ) -> bool:
        """Whether `name` is a leaf option: then its `value` goes to its record's object in
        `pieces`, unless it was refused (`before`: the call's problems before it was read):
        then the record is not made, which would tell the same field again."""
        part = self.parts.get(name)
        if part is None:
            return False
        if len(call.problems) > before:
            call.refused.add(part[0])
        elif value is not None:
            into = pieces.setdefault(part[0], {})
            *above, last = part[1]
            for key in above:
                inner = into.get(key)
                into = into.setdefault(key, {}) if not isinstance(inner, dict) else inner
            into[last] = _Given(value)
        return True


def _merged(whole: dict[str, Any], pieces: dict[str, Any]) -> dict[str, Any]:
    """`whole` with `pieces` over it, object by object."""
    merged = dict(whole)
    for key, value in pieces.items():
        inner = merged.get(key)
        both = isinstance(value, dict) and isinstance(inner, dict)
        merged[key] = _merged(inner, value) if both else value  # type: ignore[arg-type]
    return merged


class _Problems(_Invalid):
    """A record refused its input: each failing field's place (its keys as in JSON, as
    pydantic's `loc`) and what is wrong there."""

    def __init__(self, problems: list[tuple[tuple[Any, ...], str]]) -> None:
        super().__init__("; ".join(f"{_json_path(loc)}: {msg}" for loc, msg in problems))
        self.problems = problems

    def within(
        self, key: str, items: list[Any], convert: Callable[[Any], Any], flag: str | None
    ) -> _Invalid:
        """The problems of every item of a list parameter `key`, each at its index."""
        found = []
        for index, item in enumerate(items):
            try:
                convert(item)
            except _Problems as error:
                found += [_placed((key, index, *at), flag, why) for at, why in error.problems]
        return _Named("; ".join(found))


class _Named(_Invalid):
    """A problem whose text names its places itself (flags, JSON paths): `_Call.value` adds
    no label."""

    placed = True


def _json_path(keys: tuple[Any, ...]) -> str:
    """`ship_to.lines[0].qty`: a place in a JSON object."""
    return "".join(f"[{key}]" if type(key) is int else f".{key}" for key in keys).lstrip(".")


def _placed(place: tuple[Any, ...], flag: str | None, problem: str) -> str:
    """One field's problem, named by its flag (when it has one) and its JSON path."""
    where = _json_path(place)
    return f"{flag} ({where}): {problem}" if flag else f"{where}: {problem}"


def _object(value: object) -> dict[str, Any]:
    """A record's JSON object: a dict, or JSON text on the command line."""
    if isinstance(value, str):
        try:
            value = _load_json(value)
        except (ValueError, RecursionError):
            raise _Invalid(_expected("a JSON object", value)) from None
    if not isinstance(value, dict):
        raise _Invalid(_expected(_JSON_EXPECTED["object"], value))
    return value


def _fields(
    value: object, converters: dict[str, Callable[[Any], Any]], required: tuple[str, ...]
) -> dict[str, Any]:
    """The converted fields of a dataclass's or a TypedDict's JSON object; every field
    missing or refused is told, at its place, as pydantic tells a model's."""
    value = _object(value)
    unknown = sorted(set(value) - set(converters))
    if unknown:
        raise _Invalid(f"unknown field {unknown[0]!r} (fields: {', '.join(converters)})")
    problems = [((key,), "Field required") for key in required if key not in value]
    fields = {}
    for key, item in value.items():
        if type(item) is _Given:
            fields[key] = item._value_
            continue
        try:
            fields[key] = converters[key](item)
        except _Problems as error:
            problems += [((key, *loc), why) for loc, why in error.problems]
        except ValueError as error:
            problems.append(((key,), str(error)))
    if problems:
        raise _Problems(problems)
    return fields


def _unwrapped(value: object) -> object:
    """A record's object with each leaf option's value as itself, for pydantic."""
    if type(value) is _Given:
        return value._value_
    if isinstance(value, dict):
        return {key: _unwrapped(item) for key, item in value.items()}
    return value


def _model(model: Any, value: object) -> Any:
    """A pydantic model made by pydantic itself from a JSON object (a dict, or JSON text on
    the command line); its `ValidationError` becomes `_Problems`, every failing field kept."""
    try:
        return model.model_validate(_unwrapped(_object(value) if isinstance(value, str) else value))
    except ValueError as error:
        found = getattr(error, "errors", None)
        if not callable(found):
            raise
        problems = [(tuple(e["loc"]), str(e["msg"])) for e in found(include_url=False)]
        raise _Problems(problems) from None


def _model_input(
    convert: Callable[[Any], _T], key: str, flags: tuple[tuple[str, str], ...]
) -> Callable[[object], _T]:
    """The converter of a record parameter `key` ("": a command's whole input): each field
    refused is named by its flag (`flags`: a leaf's place under `key`, dotted -> its flag; a
    place with no leaf of its own, a record missing whole: the flags of the leaves under it)
    and its JSON path."""
    named = dict(flags)

    def flag_of(loc: tuple[Any, ...]) -> str | None:
        dotted = ".".join(map(str, loc))
        if dotted in named:
            return named[dotted]
        under = [flag for place, flag in flags if place.startswith(dotted + ".")]
        return ", ".join(under) or None

    def convert_record(value: object) -> _T:
        try:
            return convert(value)
        except _Problems as error:
            problems = [
                _placed((key, *loc) if key else loc, flag_of(loc), msg)
                for loc, msg in error.problems
            ]
            raise _Named("; ".join(problems)) from None

    return convert_record
