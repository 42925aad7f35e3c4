"""Read a record's fields statically (a dataclass's, a TypedDict's, a pydantic model's): each
field's type, whether it is required, its literal default, and what a model's `Field(...)`
says (in the default, or in `Annotated[T, Field(...)]`), never importing pydantic nor the
handlers file.

`read_fields()`: a record's fields, one loop for the three styles; `with_leaves()`: a record
option's one option per leaf field (`--ship-to.city`, `Param.part_of`/`key_path`; a command's
only, required pydantic model: unprefixed, `whole_input`); `model_classes()`: the model
classes the tool makes in `_import_handlers`, never at start-up.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, Literal

from burgee.model.ir import FIELD_KEYWORDS, Field, Param, Record, TypeRef, cli_word, env_word
from burgee.read import docstrings
from burgee.read.annotations import (
    MODEL_BASES,
    NotLiteral,
    UnsupportedType,
    literal_value,
    subscript_elements,
)
from burgee.read.reader import Reader

#: `Field(...)`'s keywords burgee reads: its description is the field's help.
_KEYWORDS = {"description": "help", **FIELD_KEYWORDS}
#: `Field(...)`'s keywords that say nothing a schema or a flag shows.
_IGNORED = frozenset(("title", "examples", "default_factory", "default"))


def read_fields(
    reader: Reader,
    node: ast.ClassDef,
    style: Literal["dataclass", "typeddict", "model"],
    read_type: Callable[[Reader, ast.expr, str], TypeRef],
) -> None:
    """Read a record's annotated fields (a dataclass's, a TypedDict's or a pydantic
    model's) into a `Record`: each field's type, whether it is required, its literal default,
    and what a model's `Field(...)` says."""
    name = node.name
    doc = docstrings.parse(ast.get_docstring(node))
    total = not any(k.arg == "total" and reader.code(k.value) == "False" for k in node.keywords)
    # NOTE: registered before its fields are resolved, so a record may refer to itself.
    reader.records[name] = Record(name=name, style=style, fields=(), span=reader.span(node))
    fields: list[Field] = []
    for small in node.body:
        if not isinstance(small, ast.AnnAssign) or not isinstance(small.target, ast.Name):
            continue
        field_name = small.target.id
        annotation = small.annotation
        wrapper = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        if (style == "model" and field_name.startswith("_")) or reader.names.is_typing(
            wrapper, "ClassVar"
        ):
            continue
        if any(field.name == field_name for field in fields):
            reader.error(small, f"field {name}.{field_name} is declared twice")
            continue
        try:
            type_ref = read_type(reader, annotation, "field")
        except UnsupportedType as exc:
            reader.error(exc.node, f"field {name}.{field_name}: {exc.message}")
            continue
        said: dict[str, Any] = {"help": doc.params.get(field_name, "")}
        if style == "typeddict":
            required = reader.names.is_typing(wrapper, "Required") or (
                total and not reader.names.is_typing(wrapper, "NotRequired")
            )
        else:
            where = f"{name}.{field_name}"
            default, factory = _written_default(reader, small, where, said, style)
            required = default is None and not factory
            if default is not None and not factory:
                said.update(_default(reader, default, type_ref))
        fields.append(Field(name=field_name, type=type_ref, required=required, **said))
    reader.records[name] = Record(
        name=name, style=style, fields=tuple(fields), doc=doc.description, span=reader.span(node)
    )


def _written_default(
    reader: Reader, small: ast.AnnAssign, where: str, said: dict[str, Any], style: str
) -> tuple[ast.expr | None, bool]:
    """A dataclass's or a model's field's default as written (None: none) and whether a
    factory makes it; a model's `Field(...)` (in the default, or in `Annotated[T, Field(...)]`)
    says more, into `said`."""
    value = small.value
    calls = _annotated_fields(reader, small.annotation) if style == "model" else []
    if value is not None and _is_field(reader, value, style):
        assert isinstance(value, ast.Call)
        calls.append(value)
        value = _field_default(value)
    factory = False
    for call in calls:
        if style == "model":
            said.update(_field_keywords(reader, call, where))
        factory = factory or any(k.arg == "default_factory" for k in call.keywords)
    return value, factory


#: The calls that give a field's default and say more of it, by the record's style.
_FIELD_CALLS = {
    "model": ("pydantic.Field", "pydantic.fields.Field"),
    "dataclass": ("dataclasses.field",),
}


def _is_field(reader: Reader, node: ast.expr, style: str = "model") -> bool:
    """A model's `Field(...)` (`pydantic.Field(...)`), a dataclass's `field(...)`."""
    return isinstance(node, ast.Call) and (reader.names.qualify(node.func) or "") in (
        _FIELD_CALLS.get(style, ())
    )


def _annotated_fields(reader: Reader, annotation: ast.expr) -> list[ast.Call]:
    """The `Field(...)` calls of `Annotated[T, Field(...), ...]`."""
    if not (
        isinstance(annotation, ast.Subscript)
        and reader.names.is_typing(annotation.value, "Annotated")
    ):
        return []
    found = subscript_elements(annotation)[1:]
    return [node for node in found if _is_field(reader, node)]  # type: ignore[misc]


def _field_default(call: ast.Call) -> ast.expr | None:
    """The default a `Field(...)` gives: its first argument or `default=`; None for none
    (`...` is none: the field is required)."""
    node = call.args[0] if call.args else None
    for keyword in call.keywords:
        if keyword.arg == "default":
            node = keyword.value
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return None
    return node


def _field_keywords(reader: Reader, call: ast.Call, where: str) -> dict[str, Any]:
    """What a `Field(...)` says, under the IR's names; a keyword burgee cannot read is an
    error at it."""
    said: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg in _IGNORED:
            continue
        if keyword.arg not in _KEYWORDS:
            known = ", ".join(sorted(_KEYWORDS))
            reader.error(
                keyword.value if keyword.arg is None else keyword,
                f"field {where}: Field({keyword.arg}=...) is not read by burgee (it reads {known})",
            )
            continue
        try:
            value = reader.literal(keyword.value, f"Field({keyword.arg}=...) of {where}")
        except NotLiteral:
            continue
        said[_KEYWORDS[keyword.arg]] = value
    return said


def _default(reader: Reader, node: ast.expr, type_ref: TypeRef) -> dict[str, Any]:
    """A field's default as JSON data, when it is a literal (an enum member: its value); a
    default written otherwise (a call) is the model's to make, and shows nowhere."""
    if type_ref.kind == "enum" and isinstance(node, ast.Attribute):
        enum = reader.enums.get(type_ref.name or "")
        values = dict(enum.members) if enum is not None else {}
        if node.attr in values:
            return {"default": values[node.attr], "has_default": True}
    try:
        value = literal_value(node)
    except ValueError:
        return {}
    if isinstance(value, tuple):
        value = list(value)
    return {"default": value, "has_default": True}


#: The kinds whose option shows its own values, not a word for them.
_METAVARS: dict[str, str | None] = {"bool": None, "choice": None, "enum": None}


def _metavar(field: Field) -> str | None:
    """How help shows a leaf option's value: JSON for records (a list of them, or one that
    holds itself), its own values for a choice, else its field's name."""
    inner = (field.type, field.type.item, field.type.value)
    if any(ref is not None and ref.kind == "record" for ref in inner):
        return "JSON"
    return _METAVARS.get(field.type.kind, field.name.upper())


def with_leaves(reader: Reader, params: list[Param]) -> list[Param]:
    """`params` with each option typed as a record (a pydantic model, a dataclass, a
    TypedDict) followed by one option per leaf field (`--ship-to.city`; a nested record's:
    `--ship-to.geo.lat`). A list or dict of records is no leaf's: it is given as JSON,
    whole. The parameter itself keeps a flag that takes the whole object as JSON, which help
    leaves out. A command's only parameter, a required pydantic model, is its whole input
    (fireargs' input model): its leaves are unprefixed (`--item`), and its JSON input is the
    model's object; a dataclass or TypedDict keeps its name there."""
    found: list[Param] = []
    inputs = [p for p in params if p.role != "context"]
    for param in params:
        record = _record_of(reader, param.type)
        if param.role != "option" or record is None:
            found.append(param)
            continue
        required = param.type is not None and not param.type.nullable
        # NOTE: a dataclass or TypedDict parameter keeps its name in JSON input, as before.
        whole = inputs == [param] and required and record.style == "model"
        found.append(param.model_copy(update={"hidden": True, "whole_input": whole}))
        found += _leaves(reader, param, record, (), (), seen=(), required=required, whole=whole)
    return found


def _leaf_help(field: Field, *, required: bool) -> str:
    """A leaf option's help: its field's description, and "(required)" when the record needs
    it and every record above is required."""
    return f"{field.help} (required)".strip() if required and field.required else field.help


def _leaf_env(param: Param, path: tuple[str, ...]) -> str | tuple[str, ...] | None:
    """A leaf option's env var: under its record's own (`ADDR_CITY` of `env="ADDR"`), none
    when the record has none (`env=False`), else the program's prefix and its name."""
    if param.env:
        words = tuple(env_word(word) for word in path)
        if isinstance(param.env, str):
            return "_".join((param.env, *words))
        return tuple("_".join((name, *words)) for name in param.env)
    return None if param.env is None else ""


def _record_of(reader: Reader, ref: TypeRef | None) -> Record | None:
    """The record `ref` names (Optional too), or None."""
    if ref is None or ref.kind != "record":
        return None
    return reader.records.get(ref.name or "")


def _leaves(
    reader: Reader,
    param: Param,
    record: Record,
    names: tuple[str, ...],
    keys: tuple[str, ...],
    *,
    seen: tuple[str, ...],
    required: bool,
    whole: bool = False,
) -> list[Param]:
    """The leaf options of `record`'s fields under `param` (`names`: the Python names of the
    fields above, `keys`: their JSON keys; `seen`: the models above, so a model that holds
    itself stops there: its field is given as JSON; `required`: every model above is, so a
    field the model requires is required on the command line too)."""
    found: list[Param] = []
    for field in record.fields:
        inner = _record_of(reader, field.type)
        path, key_path = (*names, field.name), (*keys, field.key)
        if inner is not None and inner.name not in (*seen, record.name):
            needed = required and field.required and not field.type.nullable
            above = (*seen, record.name)
            found += _leaves(
                reader, param, inner, path, key_path, seen=above, required=needed, whole=whole
            )
            continue
        minimum, maximum = field.minimum, field.maximum
        if field.type.kind == "int":
            # NOTE: an integer's exclusive bound is an inclusive one a step inside.
            if field.exclusive_minimum is not None and minimum is None:
                minimum = int(field.exclusive_minimum) + 1
            if field.exclusive_maximum is not None and maximum is None:
                maximum = int(field.exclusive_maximum) - 1
        name = ".".join((param.name, *path))
        found.append(
            Param(
                name=name,
                role="option",
                type=field.type,
                help=_leaf_help(field, required=required),
                metavar=_metavar(field),
                long="--"
                + ".".join(cli_word(word) for word in (path if whole else (param.name, *path))),
                env=_leaf_env(param, path),
                hidden=param.hidden,
                minimum=minimum,
                maximum=maximum,
                pattern=field.pattern,
                min_length=field.min_length,
                max_length=field.max_length,
                required=False,
                default_code="None",
                default=field.default if field.has_default else None,
                part_of=param.name,
                key_path=key_path,
                whole_input=whole,
                span=param.span,
            )
        )
    return found


def model_classes(reader: Reader) -> frozenset[str]:
    """The file's top-level pydantic model classes (of `BaseModel`, or of another of them):
    the tool makes them when the first command runs, never at start-up."""
    found: set[str] = set()
    for node in reader.tree.body:
        if isinstance(node, ast.ClassDef) and any(
            (reader.names.qualify(base) or "") in MODEL_BASES
            or (isinstance(base, ast.Name) and base.id in found)
            for base in node.bases
        ):
            found.add(node.name)
    return frozenset(found)
