"""What the runtime uses for each type: its converter and its result shape, as Python source.

Both come from the runtime's type table (`burgee.runtime.core.kinds.TYPES`): the generated code
names the type's class (`_Int.convert`, `_Int`), so a tool carries only the classes it uses.
"""

from __future__ import annotations

from burgee.model.ir import TypeRef
from burgee.model.literals import call, py
from burgee.runtime.core.kinds import TYPES, _Any
from burgee.runtime.core.wording import _choice_text

#: Kinds that are not leaves of the type table but read like one.
_ALIASES = {"dict": _Any}


def _leaf(kind: str) -> str:
    return (_ALIASES.get(kind) or TYPES[kind]).__name__


def converter(ref: TypeRef, *, in_record: bool = False, any_case: bool = False) -> str:
    """The expression that converts raw input into a value of `ref` (`any_case`: its choices,
    a tuple's items' too, taken in any case: `case_sensitive=False`)."""
    if ref.kind == "choice":
        code = call("_choice", (py(c) for c in ref.choices))
    elif ref.kind == "enum":
        code = f"_member({ref.name})"
    elif ref.kind == "record":
        code = f"_to_{ref.name}"
    elif ref.kind == "list":
        assert ref.item is not None
        code = f"_items({converter(ref.item, in_record=True)})"
    elif ref.kind == "tuple":
        code = call("_tuple", (converter(item, any_case=any_case) for item in ref.items))
    elif ref.kind == "dict" and not in_record and ref.value is not None:
        code = f"_pairs({converter(ref.value)})"
    else:
        code = f"{_leaf(ref.kind)}.convert"
    if any_case and ref.kind in ("choice", "enum"):
        code = call("_any_case", (code, *(py(text) for text in choice_texts(ref))))
    return f"_optional({code})" if in_record and ref.nullable else code


def converter_spec(
    ref: TypeRef, *, in_record: bool = False, any_case: bool = False
) -> str | tuple[object, ...]:
    """The converter of `ref` as data (`table._converter` makes it when a command is
    first used): the name of a type's class (or of a record's converter), or a wrapper's name
    with its arguments; the same converter `converter()` writes as code."""
    spec: str | tuple[object, ...]
    if ref.kind == "choice":
        spec = ("_choice", *ref.choices)
    elif ref.kind == "enum":
        spec = ("_member", ref.name)
    elif ref.kind == "record":
        spec = f"_to_{ref.name}"
    elif ref.kind == "list":
        assert ref.item is not None
        spec = ("_items", converter_spec(ref.item, in_record=True))
    elif ref.kind == "tuple":
        spec = ("_tuple", *(converter_spec(item, any_case=any_case) for item in ref.items))
    elif ref.kind == "dict" and not in_record and ref.value is not None:
        spec = ("_pairs", converter_spec(ref.value))
    else:
        spec = _leaf(ref.kind)
    if any_case and ref.kind in ("choice", "enum"):
        spec = ("_any_case", spec, *choice_texts(ref))
    return ("_optional", spec) if in_record and ref.nullable else spec


def choice_texts(ref: TypeRef) -> tuple[str, ...]:
    """A choice's or an Enum's choices as the command line writes them."""
    return tuple(_choice_text(choice) for choice in ref.choices)


def shape(ref: TypeRef | None) -> str:
    """The result shape `_conform` checks normalised data against, for the type `ref` (None: no
    return annotation, so any value, as the schemas say)."""
    if ref is None:
        return _leaf("any")
    if ref.kind in ("choice", "enum"):
        code = f'("in", {py(tuple(ref.choices))})'
    elif ref.kind == "list":
        assert ref.item is not None
        code = f'("list", {shape(ref.item)})'
    elif ref.kind == "dict":
        code = f'("map", {shape(ref.value) if ref.value is not None else _leaf("any")})'
    elif ref.kind == "record":
        code = f'("record", {py(ref.name)})'
    elif ref.kind == "content":
        code = f'("union", ({"".join(shape(item) + ", " for item in ref.items)}))'
    else:
        code = _leaf(ref.kind)
    return f'("null", {code})' if ref.nullable and ref.kind != "none" else code
