"""Read the types that annotations name, with the enums and records (dataclasses,
TypedDicts) they refer to."""

from __future__ import annotations

import libcst as cst

from burgee.model.ir import EnumDecl, Field, Record, Scalar, TypeRef
from burgee.read import docstrings
from burgee.read.annotations import (
    NotLiteral,
    UnsupportedType,
    has_control_characters,
    resolve,
)
from burgee.read.reader import Reader


def read_type(reader: Reader, node: cst.BaseExpression, use: str) -> TypeRef:
    """Resolve an annotation and read every enum and record it mentions."""
    ref = resolve(node, reader.names, use, reader.module)  # type: ignore[arg-type]
    _read_classes_of(reader, ref)
    return ref


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


def read_enum(reader: Reader, node: cst.ClassDef) -> None:
    """Read an Enum's members; their values must be literal strings or integers."""
    members: list[tuple[str, Scalar]] = []
    for statement in node.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not (
                isinstance(small, cst.Assign)
                and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)
            ):
                continue
            name = small.targets[0].target.value
            if name.startswith("_"):
                continue
            if any(name == seen for seen, _ in members):
                reader.error(small, f"enum {node.name.value} defines {name} twice")
                continue
            try:
                value = reader.literal(small.value, f"the value of {node.name.value}.{name}")
            except NotLiteral:
                continue
            if not isinstance(value, str | int) or isinstance(value, bool):
                reader.error(small, f"{node.name.value}.{name} must be a string or an integer")
                continue
            if isinstance(value, str) and has_control_characters(value):
                reader.error(
                    small,
                    f"{node.name.value}.{name} holds a line break or another control "
                    "character, which no command line or help text can show",
                )
                continue
            members.append((name, value))
    if not members:
        reader.error(node, f"enum {node.name.value} has no members with literal values")
    decl = EnumDecl(
        name=node.name.value,
        members=tuple(members),
        doc=docstrings.parse(node.get_docstring()).description,
        span=reader.span(node),
    )
    reader.enums[decl.name] = decl
    reader.names.enums[decl.name] = tuple(value for _, value in members)


def read_record(reader: Reader, node: cst.ClassDef) -> None:
    """Read a dataclass's or TypedDict's annotated fields."""
    name = node.name.value
    is_typeddict = any(
        (reader.names.qualify(base.value) or "").endswith(".TypedDict") for base in node.bases
    )
    total = True
    for keyword in node.keywords:
        if keyword.keyword is not None and keyword.keyword.value == "total":
            total = reader.code(keyword.value) != "False"
    doc = docstrings.parse(node.get_docstring())
    # NOTE: registered before its fields are resolved, so a record may refer to itself.
    reader.records[name] = Record(name=name, style="dataclass", fields=(), span=reader.span(node))
    fields: list[Field] = []
    for statement in node.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                continue
            annotation = small.annotation.annotation
            if reader.names.is_typing(
                annotation.value if isinstance(annotation, cst.Subscript) else annotation,
                "ClassVar",
            ):
                continue
            field_name = small.target.value
            if any(field.name == field_name for field in fields):
                reader.error(small, f"field {name}.{field_name} is declared twice")
                continue
            try:
                type_ref = read_type(reader, annotation, "field")
            except UnsupportedType as exc:
                reader.error(exc.node, f"field {name}.{field_name}: {exc.message}")
                continue
            not_required = isinstance(annotation, cst.Subscript) and reader.names.is_typing(
                annotation.value, "NotRequired"
            )
            required = not not_required and (
                (is_typeddict and total) or (not is_typeddict and small.value is None)
            )
            if (
                is_typeddict
                and isinstance(annotation, cst.Subscript)
                and reader.names.is_typing(annotation.value, "Required")
            ):
                required = True
            fields.append(
                Field(
                    name=field_name,
                    type=type_ref,
                    required=required,
                    help=doc.params.get(field_name, ""),
                )
            )
    reader.records[name] = Record(
        name=name,
        style="typeddict" if is_typeddict else "dataclass",
        fields=tuple(fields),
        doc=doc.description,
        span=reader.span(node),
    )
