"""`ctx.form(message, Form, legacy_titles=[...])`: the dataclasses and TypedDicts a handler asks
for as a form, checked where gen can see them (the tool asks with what `forms()` says of each:
`describe/forms.py`'s document, read by `runtime/core/fields._form_fields`).

`read_form()`, each `ctx.form(message, Form, legacy_titles=...)` call a handler makes
(`check_context_uses` finds them): `Form` a record of the file whose every field is `str`,
`int`, `float`, `bool`, a choice of strings or a list of one; `legacy_titles` its Enum fields;
the record then joins `Program.forms`.
"""

from __future__ import annotations

import ast

from burgee.model.ir import Record, TypeRef
from burgee.model.kinds import FORM_KINDS
from burgee.read.annotations import NotLiteral, UnsupportedType
from burgee.read.classes import read_type
from burgee.read.reader import Reader

_FIELD_RULE = "str, int, float, bool, a Literal or an Enum of strings, or a list of such a choice"


def read_form(reader: Reader, call: ast.Call) -> Record | None:
    """One `ctx.form(...)` call: its form must be a record of the file whose every field a
    form can ask; `legacy_titles` names its Enum fields. The record joins `reader.forms`, and
    is returned (None: no form gen can ask)."""
    named = call.args[1] if len(call.args) > 1 else None
    settings = {keyword.arg: keyword.value for keyword in call.keywords}
    named = settings.get("form", named)
    if named is None:
        return None  # NOTE: Python says what is missing when the call runs
    if not isinstance(named, ast.Name) or named.id not in reader.classes:
        reader.error(named, "ctx.form takes a dataclass or TypedDict this file defines, by name")
        return None
    try:
        ref = read_type(reader, named, "field")
    except UnsupportedType as error:
        reader.error(error.node, f"ctx.form: {error.message}")
        return None
    record = reader.records.get(ref.name or "")
    if ref.kind != "record" or record is None:
        reader.error(named, f"ctx.form takes a dataclass or TypedDict; {named.id} is neither")
        return None
    wrong = [f for f in record.fields if not _askable(f.type)]
    for field in wrong:
        reader.error(
            named,
            f"ctx.form({named.id}): field {field.name} is {field.type.source}; a form's field is"
            f" {_FIELD_RULE}",
        )
    legacy = settings.get("legacy_titles")
    if legacy is not None:
        _check_legacy(reader, legacy, record)
    if wrong:
        return None
    reader.forms[record.name] = record
    return record


def _askable(ref: TypeRef) -> bool:
    """A type a form's field may have: one value, a choice of strings, or several choices."""
    if ref.nullable:
        return False
    if ref.kind == "list":
        return ref.item is not None and ref.item.kind in ("choice", "enum") and _askable(ref.item)
    if ref.kind in ("choice", "enum"):
        return all(isinstance(choice, str) for choice in ref.choices)
    return ref.kind in FORM_KINDS


def _check_legacy(reader: Reader, node: ast.expr, record: Record) -> None:
    """`legacy_titles=`: a literal list of the names of the form's Enum fields."""
    try:
        names = reader.literal(node, "legacy_titles")
    except NotLiteral:
        return
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        reader.error(node, "legacy_titles takes a list of field names")
        return
    enums = {f.name for f in record.fields if f.type.kind == "enum"}
    for name in names:
        if name not in enums:
            reader.error(
                node, f"legacy_titles: {record.name} has no Enum field {name!r} (its titles)"
            )
