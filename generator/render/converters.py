"""The runtime converter each type kind uses, as Python source for the generated module."""

from __future__ import annotations

from burgee.model.ir import TypeRef
from burgee.model.literals import call, py

CONVERTERS = {
    "str": "_to_str",
    "int": "_to_int",
    "float": "_to_float",
    "bool": "_to_bool",
    "path": "_to_path",
    "date": "_to_date",
    "datetime": "_to_datetime",
    "time": "_to_time",
    "uuid": "_to_uuid",
    "decimal": "_to_decimal",
    "any": "_to_any",
    "dict": "_to_any",
}


def converter(ref: TypeRef, *, in_record: bool = False) -> str:
    """The expression that converts raw input into a value of `ref`."""
    if ref.kind == "choice":
        code = call("_choice", (py(c) for c in ref.choices))
    elif ref.kind == "enum":
        code = f"_member({ref.name})"
    elif ref.kind == "record":
        code = f"_to_{ref.name}"
    elif ref.kind == "list":
        assert ref.item is not None
        code = f"_items({converter(ref.item, in_record=True)})"
    else:
        code = CONVERTERS[ref.kind]
    return f"_optional({code})" if in_record and ref.nullable else code
