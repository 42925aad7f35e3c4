"""Read the types that annotations name, with the enums and records (dataclasses,
TypedDicts) they refer to.

`read_type()`: an annotation → a `TypeRef`, reading each enum and record (dataclass, TypedDict,
pydantic model) it names, once; `expand()` puts each module-level type alias it names (`Stage =
Literal[...]`, `Reader.type_aliases`, registered by `read/shared.py`) in its place first.
"""

from __future__ import annotations

import ast
import copy

from burgee.model.ir import EnumDecl, Scalar, TypeRef
from burgee.read import docstrings
from burgee.read.annotations import (
    MODEL_BASES,
    NotLiteral,
    has_control_characters,
    resolve,
)
from burgee.read.models import read_fields
from burgee.read.reader import Reader


def read_type(reader: Reader, node: ast.expr, use: str) -> TypeRef:
    """Resolve an annotation and read every enum and record it mentions."""
    # NOTE: what an annotation resolves to depends on its text and the file's imports and
    # classes, all known before any is read; an enum's values are read with it, so a type
    # that names one of the file's classes is resolved each time.
    key = (use, node.id if isinstance(node, ast.Name) else reader.code(node))
    ref = reader.resolved.get(key)
    if ref is None:
        expanded = expand(reader, node) if reader.type_aliases else node
        ref = resolve(expanded, reader.names, use, reader.code)  # type: ignore[arg-type]
        if not _names_a_class(ref):
            reader.resolved[key] = ref
    _read_classes_of(reader, ref)
    return ref


def expand(reader: Reader, node: ast.expr, seen: frozenset[str] = frozenset()) -> ast.expr:
    """`node` with each module-level type alias it names (`Stage`, `reader.type_aliases`)
    replaced by what it stands for, as if written in place (an alias of an alias too); each
    replacement keeps the place of the name, so messages quote the annotation as written."""
    if isinstance(node, ast.Name):
        alias = reader.type_aliases.get(node.id)
        if alias is None or node.id in seen:
            return node
        return ast.copy_location(expand(reader, alias, seen | {node.id}), node)
    copied = copy.copy(node)
    if isinstance(node, ast.Subscript):
        copied.slice = expand(reader, node.slice, seen)  # type: ignore[attr-defined]
    elif isinstance(node, ast.BinOp):
        copied.left = expand(reader, node.left, seen)  # type: ignore[attr-defined]
        copied.right = expand(reader, node.right, seen)  # type: ignore[attr-defined]
    elif isinstance(node, ast.Tuple):
        copied.elts = [expand(reader, e, seen) for e in node.elts]  # type: ignore[attr-defined]
    return copied


def _names_a_class(ref: TypeRef) -> bool:
    inner = (ref.item, ref.value, *ref.items)
    return ref.name is not None or any(i is not None and _names_a_class(i) for i in inner)


def _read_classes_of(reader: Reader, ref: TypeRef) -> None:
    """Read the enums and records a type refers to, once each."""
    for inner in (ref.item, ref.value):
        if inner is not None:
            _read_classes_of(reader, inner)
    if ref.name is None or ref.name in reader.records or ref.name in reader.enums:
        return
    node = reader.classes[ref.name]
    if ref.kind == "enum":
        read_enum(reader, node)
    else:
        read_record(reader, node)


def read_enum(reader: Reader, node: ast.ClassDef) -> None:
    """Read an Enum's members; their values must be literal strings or integers."""
    members: list[tuple[str, Scalar]] = []
    enum = node.name
    for small in node.body:
        if not (
            isinstance(small, ast.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0], ast.Name)
        ):
            continue
        name = small.targets[0].id
        if name.startswith("_"):
            continue
        if any(name == seen for seen, _ in members):
            reader.error(small, f"enum {enum} defines {name} twice")
            continue
        try:
            value = reader.literal(small.value, f"the value of {enum}.{name}")
        except NotLiteral:
            continue
        if not isinstance(value, str | int) or isinstance(value, bool):
            reader.error(small, f"{enum}.{name} must be a string or an integer")
            continue
        if isinstance(value, str) and has_control_characters(value):
            reader.error(
                small,
                f"{enum}.{name} holds a line break or another control "
                "character, which no command line or help text can show",
            )
            continue
        members.append((name, value))
    if not members:
        reader.error(node, f"enum {enum} has no members with literal values")
    decl = EnumDecl(
        name=enum,
        members=tuple(members),
        doc=docstrings.parse(ast.get_docstring(node)).description,
        span=reader.span(node),
    )
    reader.enums[decl.name] = decl
    reader.names.enums[decl.name] = tuple(value for _, value in members)


def read_record(reader: Reader, node: ast.ClassDef) -> None:
    """Read a dataclass's, TypedDict's or pydantic model's annotated fields."""
    bases = [reader.names.qualify(base) or "" for base in node.bases]
    if any(base in MODEL_BASES for base in bases):
        read_fields(reader, node, "model", read_type)
    elif any(base.endswith(".TypedDict") for base in bases):
        read_fields(reader, node, "typeddict", read_type)
    else:
        read_fields(reader, node, "dataclass", read_type)
