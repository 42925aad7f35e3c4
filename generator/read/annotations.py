"""Resolve type annotations, as libcst nodes, into supported `TypeRef`s."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Literal

import libcst as cst
from libcst.helpers import get_full_name_for_node

from burgee.model.ir import Scalar, TypeKind, TypeRef
from burgee.model.kinds import SPELLINGS

Use = Literal["param", "return", "field"]

SUPPORTED = (
    "str, int, float, bool, pathlib.Path, datetime.date, datetime.datetime, datetime.time, "
    "uuid.UUID, decimal.Decimal, Literal[...], an Enum, dataclass or TypedDict defined in "
    "this file, Optional[T] / T | None, list[T], tuple[T1, T2, ...] and dict[str, T] of "
    "those leaf types"
)

_LIST = {"builtins.list", "typing.List", "typing.Sequence", "collections.abc.Sequence"}
_DICT = {"builtins.dict", "typing.Dict", "typing.Mapping", "collections.abc.Mapping"}
_TUPLE = {"builtins.tuple", "typing.Tuple"}
_TYPING = {"typing", "typing_extensions"}
#: What a tuple's values and a dict parameter's values may be: one word each on the command line.
_SCALARS = {"str", "int", "float", "bool", "path", "date", "datetime", "time", "uuid", "decimal"}


class UnsupportedType(Exception):
    """An annotation burgee cannot turn into a command-line or JSON type."""

    def __init__(self, node: cst.CSTNode, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


class NotLiteral(Exception):
    """An expression that should have been a literal; the reader has reported it."""


class Names:
    """What the names of a handlers file refer to: its imports and its own classes."""

    def __init__(self) -> None:
        self.imports: dict[str, str] = {}
        self.enums: dict[str, tuple[Scalar, ...]] = {}
        self.records: set[str] = set()

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """The fully qualified name an expression refers to, or None."""
        dotted = get_full_name_for_node(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.enums or head in self.records:
            return f"local.{dotted}"
        if head in self.imports:
            base = self.imports[head]
            return f"{base}.{rest}" if rest else base
        return f"builtins.{dotted}"

    def is_typing(self, node: cst.BaseExpression, *names: str) -> bool:
        """True when `node` names `typing.<one of names>` (or typing_extensions)."""
        qualified = self.qualify(node)
        if qualified is None:
            return False
        module, _, name = qualified.rpartition(".")
        return module in _TYPING and name in names


def subscript_elements(node: cst.Subscript) -> list[cst.BaseExpression]:
    """The expressions inside `X[...]`."""
    elements = []
    for element in node.slice:
        if not isinstance(element.slice, cst.Index):
            raise UnsupportedType(node, "slices are not types")
        elements.append(element.slice.value)
    return elements


def resolve(node: cst.BaseExpression, names: Names, use: Use, module: cst.Module) -> TypeRef:
    """Resolve an annotation, raising UnsupportedType with a message that says what is."""
    # NOTE: a bare name is its own source; libcst's code generation costs 0.1 ms a node.
    if isinstance(node, cst.Name) and not node.lpar and not node.rpar:
        source = node.value
    else:
        source = module.code_for_node(node)
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString):
        text = node.evaluated_value
        if not isinstance(text, str):
            raise UnsupportedType(node, f"cannot read the annotation {source}")
        try:
            inner = cst.parse_expression(text)
        except cst.ParserSyntaxError as exc:
            raise UnsupportedType(node, f"the annotation {source} is not valid Python") from exc
        return resolve(inner, names, use, cst.Module(body=[]))
    members = list(_union_members(node, names))
    if len(members) > 1:
        others = [m for m in members if not _is_none(m)]
        if len(others) != 1 or len(others) == len(members):
            raise UnsupportedType(
                node, f"unsupported union {source}: only Optional[T] (T | None) is supported"
            )
        resolved = resolve(others[0], names, use, module)
        return resolved.model_copy(update={"nullable": True, "source": source})
    if _is_none(node):
        if use != "return":
            raise UnsupportedType(node, "None alone is not a parameter type")
        return TypeRef(kind="none", source=source)
    if isinstance(node, cst.Subscript):
        return _resolve_subscript(node, names, use, module, source)
    qualified = names.qualify(node)
    if qualified in SPELLINGS:
        return TypeRef(kind=SPELLINGS[qualified], source=source)
    if qualified is not None and qualified.startswith("local."):
        name = qualified.removeprefix("local.")
        if name in names.enums:
            return TypeRef(kind="enum", source=source, name=name, choices=names.enums[name])
        return TypeRef(kind="record", source=source, name=name)
    if qualified in _LIST:
        raise UnsupportedType(node, f"{source} needs an item type, such as list[str]")
    if use != "param" and (qualified in _DICT or names.is_typing(node, "Any")):
        kind: TypeKind = "dict" if qualified in _DICT else "any"
        return TypeRef(kind=kind, source=source)
    raise UnsupportedType(node, f"unsupported type {source}; supported: {SUPPORTED}")


def _resolve_subscript(
    node: cst.Subscript, names: Names, use: Use, module: cst.Module, source: str
) -> TypeRef:
    elements = subscript_elements(node)
    if names.is_typing(node.value, "Annotated"):
        return resolve(elements[0], names, use, module)
    if names.is_typing(node.value, "Optional"):
        inner = resolve(elements[0], names, use, module)
        return inner.model_copy(update={"nullable": True, "source": source})
    if names.is_typing(node.value, "Literal"):
        return TypeRef(kind="choice", source=source, choices=_literal_values(node, elements))
    if use == "field" and names.is_typing(node.value, "NotRequired", "Required"):
        return resolve(elements[0], names, use, module)
    qualified = names.qualify(node.value)
    if qualified in _LIST:
        item = resolve(elements[0], names, use, module)
        if item.kind == "list" and use == "param":
            raise UnsupportedType(node, f"nested lists ({source}) cannot be parameters")
        return TypeRef(kind="list", source=source, item=item)
    if qualified in _DICT and use != "param":
        value = resolve(elements[1], names, use, module) if len(elements) == 2 else None
        return TypeRef(kind="dict", source=source, value=value)
    if use == "param" and qualified in _DICT:
        key = resolve(elements[0], names, use, module) if len(elements) == 2 else None
        value = resolve(elements[1], names, use, module) if len(elements) == 2 else None
        if key is None or key.kind != "str" or key.nullable or not _scalar(value):
            raise UnsupportedType(
                node, f"{source}: a dict parameter is dict[str, T] with T one of {_shown()}"
            )
        return TypeRef(kind="dict", source=source, value=value)
    if use == "param" and qualified in _TUPLE:
        if any(isinstance(e, cst.Ellipsis) for e in elements):
            raise UnsupportedType(node, f"{source}: use list[T] for any number of values")
        items = tuple(resolve(e, names, use, module) for e in elements)
        if not all(_scalar(item) for item in items):
            raise UnsupportedType(node, f"{source}: a tuple's values must be {_shown()}")
        return TypeRef(kind="tuple", source=source, items=items)
    raise UnsupportedType(node, f"unsupported type {source}; supported: {SUPPORTED}")


def _scalar(ref: TypeRef | None) -> bool:
    """A value one word of a command line gives: a leaf type, a choice or an enum."""
    return (
        ref is not None
        and not ref.nullable
        and (ref.kind in _SCALARS or ref.kind in ("choice", "enum"))
    )


def _shown() -> str:
    return ", ".join(sorted(_SCALARS)) + ", a Literal or an Enum"


def _literal_values(node: cst.Subscript, elements: list[cst.BaseExpression]) -> tuple[Scalar, ...]:
    values: list[Scalar] = []
    for element in elements:
        try:
            value = literal_value(element)
        except ValueError:
            value = None
        if not isinstance(value, str | int) or isinstance(value, float):
            raise UnsupportedType(node, "Literal values must be strings, integers or booleans")
        if isinstance(value, str) and has_control_characters(value):
            raise UnsupportedType(
                element,
                f"the choice {value!r} holds a line break or another control character, "
                "which no command line or help text can show",
            )
        values.append(value)
    if len({type(v) for v in values}) > 1:
        raise UnsupportedType(node, "Literal values must all have the same type")
    return tuple(values)


def has_control_characters(text: str) -> bool:
    """True when `text` holds a line break, a tab or another control character."""
    return any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in text)


def literal_value(node: cst.BaseExpression) -> object:
    """The value of a literal expression (strings, numbers, booleans, None, lists, tuples)."""
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString):
        value = node.evaluated_value
        if isinstance(value, bytes):
            raise ValueError("cannot be bytes; use a string, number, boolean, None or list")
        return value
    if isinstance(node, cst.Integer | cst.Float):
        number = node.evaluated_value
        if isinstance(number, float) and number - number != 0:
            # NOTE: 1e400 is infinite: JSON has no spelling for it, Python source only `inf`.
            raise ValueError("must be a finite number (JSON has no infinity)")
        return number
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_value(node.expression)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.List | cst.Tuple):
        items = [literal_value(e.value) for e in node.elements if isinstance(e, cst.Element)]
        # NOTE: a starred element (`[*xs]`) is no literal; the others raised already if not.
        if len(items) == len(node.elements):
            return tuple(items)
    raise ValueError("not a literal")


def _union_members(node: cst.BaseExpression, names: Names) -> Iterator[cst.BaseExpression]:
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        yield from _union_members(node.left, names)
        yield from _union_members(node.right, names)
    elif isinstance(node, cst.Subscript) and names.is_typing(node.value, "Union"):
        for element in subscript_elements(node):
            yield from _union_members(element, names)
    else:
        yield node


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"
