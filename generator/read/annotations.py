"""Resolve type annotations, as `ast` nodes, into supported `TypeRef`s.

The supported annotations → `TypeRef`s (parameters may be `tuple[T1, T2]` and `dict[str, T]` of
leaf types; a result may be an `Image`, `Audio` or `EmbeddedResource`, or a list of them or of
content, `Image | Audio | str` (kind `content`, its members in `items`), and nowhere else:
refused at the annotation), and what imported names refer to (`Names`).
"""

from __future__ import annotations

import ast
import unicodedata
from collections.abc import Callable, Iterator
from typing import Literal

from burgee.model.ir import Scalar, TypeKind, TypeRef
from burgee.model.kinds import FILES, MEDIA, SPELLINGS, has_media
from burgee.runtime.core.kinds import TYPES

Use = Literal["param", "return", "field"]

SUPPORTED = (
    "str, int, float, bool, pathlib.Path, datetime.date, datetime.datetime, datetime.time, "
    "uuid.UUID, decimal.Decimal, Literal[...], an Enum, dataclass, TypedDict or pydantic model "
    "defined in "
    "this file, Optional[T] / T | None, list[T], tuple[T1, T2, ...] and dict[str, T] of "
    "those leaf types"
)


def _supported(use: Use) -> str:
    """What a parameter, a result or a result's field may be, for the message."""
    if use == "param":
        return SUPPORTED
    extra = "typing.Any, dict" + (
        " and None; burgee.Image, burgee.Audio, burgee.EmbeddedResource, a list of them or of"
        " `Image | Audio | EmbeddedResource | str`"
        if use == "return"
        else ""
    )
    # NOTE: no tuple in a result: an answer cut for an agent loses the middle of a long list,
    # and a tuple's schema says how many items it has (use a list, or a dataclass).
    plain = SUPPORTED.replace(", tuple[T1, T2, ...]", "")
    return f"{plain}; in a result also {extra}"


#: What a pydantic model's class derives from (a model of the file's own is a record too).
MODEL_BASES = frozenset(("pydantic.BaseModel", "pydantic.main.BaseModel"))
_LIST = {"builtins.list", "typing.List", "typing.Sequence", "collections.abc.Sequence"}
_DICT = {"builtins.dict", "typing.Dict", "typing.Mapping", "collections.abc.Mapping"}
_TUPLE = {"builtins.tuple", "typing.Tuple"}
_TYPING = {"typing", "typing_extensions"}
#: What a tuple's values and a dict parameter's values may be: one word each on the command line.
_SCALARS = {name for name, kind in TYPES.items() if kind.word}
#: Where a result's media may be: the result itself, or its list's items (mixed with strings).
_MEDIA_PLACES = "a command's result or its list's items (`-> Image`, `-> list[Image | str]`)"


class UnsupportedType(Exception):
    """An annotation burgee cannot turn into a command-line or JSON type."""

    def __init__(self, node: ast.AST, message: str) -> None:
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

    def qualify(self, node: ast.expr) -> str | None:
        """The fully qualified name an expression refers to, or None."""
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in self.enums or head in self.records:
            return f"local.{dotted}"
        if head in self.imports:
            base = self.imports[head]
            return f"{base}.{rest}" if rest else base
        return f"builtins.{dotted}"

    def is_typing(self, node: ast.expr, *names: str) -> bool:
        """True when `node` names `typing.<one of names>` (or typing_extensions)."""
        if type(node) is ast.Name:
            # NOTE: `qualify`'s answer for a bare name, without its steps: asked several times
            # of every parameter's annotation (`Annotated`, `Optional`, `Union`).
            head = node.id
            imported = self.imports.get(head)
            if imported is None or head in self.enums or head in self.records:
                return False
            module, _, name = imported.rpartition(".")
            return module in _TYPING and name in names
        qualified = self.qualify(node)
        if qualified is None:
            return False
        module, _, name = qualified.rpartition(".")
        return module in _TYPING and name in names


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` for a name or an attribute chain (a call or subscript: of what it calls)."""
    if isinstance(node, ast.Call):
        return dotted_name(node.func)
    if isinstance(node, ast.Subscript):
        return dotted_name(node.value)
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def subscript_elements(node: ast.Subscript) -> list[ast.expr]:
    """The expressions inside `X[...]`."""
    inner = node.slice
    elements = inner.elts if isinstance(inner, ast.Tuple) else [inner]
    if any(isinstance(element, ast.Slice) for element in elements):
        raise UnsupportedType(node, "slices are not types")
    return list(elements)


#: The source text of a node.
Code = Callable[[ast.AST], str]


def quoted(node: ast.expr) -> ast.expr | None:
    """The expression a string annotation holds (`"Context | None"`); None when it holds no
    valid Python (Python 3.10 refuses a NUL with ValueError, later ones with SyntaxError)."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return None
    try:
        return ast.parse(node.value, mode="eval").body
    except (SyntaxError, ValueError):
        return None


def resolve(node: ast.expr, names: Names, use: Use, code: Code) -> TypeRef:
    """Resolve an annotation, raising UnsupportedType with a message that says what is."""
    source = node.id if isinstance(node, ast.Name) else code(node)
    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        text = node.value
        if not isinstance(text, str):
            raise UnsupportedType(node, f"cannot read the annotation {source}")
        inner = quoted(node)
        if inner is None:
            raise UnsupportedType(node, f"the annotation {source} is not valid Python")
        try:
            return resolve(inner, names, use, lambda n: ast.get_source_segment(text, n) or "")
        except UnsupportedType as exc:
            # NOTE: the string's own nodes have no place in the file; the string has.
            raise UnsupportedType(node, exc.message) from None
    members = list(_union_members(node, names))
    if len(members) > 1:
        others = [m for m in members if not _is_none(m)]
        content = _content(others, names, use, code, source)
        if content is not None:
            return content.model_copy(update={"nullable": len(others) < len(members)})
        if len(others) != 1 or len(others) == len(members):
            raise UnsupportedType(
                node, f"unsupported union {source}: only Optional[T] (T | None) is supported"
            )
        resolved = resolve(others[0], names, use, code)
        return resolved.model_copy(update={"nullable": True, "source": source})
    if _is_none(node):
        if use != "return":
            raise UnsupportedType(node, "None alone is not a parameter type")
        return TypeRef(kind="none", source=source)
    if isinstance(node, ast.Subscript):
        return _resolve_subscript(node, names, use, code, source)
    qualified = names.qualify(node)
    if qualified in SPELLINGS:
        kind = SPELLINGS[qualified]
        if kind in MEDIA and use != "return":
            raise UnsupportedType(node, f"{source} is only {_MEDIA_PLACES}, never an input")
        if kind in FILES and use != "param":
            raise UnsupportedType(
                node, f"{source} is only a parameter's type (the handler takes the file open)"
            )
        return TypeRef(kind=kind, source=source)
    if qualified is not None and qualified.startswith("local."):
        name = qualified.removeprefix("local.")
        if name in names.enums:
            return TypeRef(kind="enum", source=source, name=name, choices=names.enums[name])
        return TypeRef(kind="record", source=source, name=name)
    if qualified in _LIST:
        raise UnsupportedType(node, f"{source} needs an item type, such as list[str]")
    if use != "param" and (qualified in _DICT or names.is_typing(node, "Any")):
        loose: TypeKind = "dict" if qualified in _DICT else "any"
        return TypeRef(kind=loose, source=source)
    if qualified is not None and qualified.startswith("builtins."):
        # NOTE: a supported type's name that the file never imported (`"Path"` in quotes).
        bare = qualified.removeprefix("builtins.")
        for spelling in SPELLINGS:
            module, _, name = spelling.rpartition(".")
            if name == bare and module != "builtins":
                raise UnsupportedType(
                    node, f"{bare} is not imported here: add `from {module} import {bare}`"
                )
    raise UnsupportedType(node, f"unsupported type {source}; supported: {_supported(use)}")


def _resolve_subscript(
    node: ast.Subscript, names: Names, use: Use, code: Code, source: str
) -> TypeRef:
    elements = subscript_elements(node)
    if names.is_typing(node.value, "Annotated"):
        return resolve(elements[0], names, use, code)
    if names.is_typing(node.value, "Optional"):
        inner = resolve(elements[0], names, use, code)
        return inner.model_copy(update={"nullable": True, "source": source})
    if names.is_typing(node.value, "Literal"):
        return TypeRef(kind="choice", source=source, choices=_literal_values(node, elements))
    if use == "field" and names.is_typing(node.value, "NotRequired", "Required"):
        return resolve(elements[0], names, use, code)
    qualified = names.qualify(node.value)
    if qualified in _LIST:
        item = resolve(elements[0], names, use, code)
        if item.kind == "list" and use == "param":
            raise UnsupportedType(node, f"nested lists ({source}) cannot be parameters")
        if (item.kind != "list" and has_media(item) and item.nullable) or (
            item.kind == "list" and has_media(item)
        ):
            raise UnsupportedType(node, f"{source}: media is only {_MEDIA_PLACES}, never None")
        return TypeRef(kind="list", source=source, item=item)
    if qualified in _DICT and use != "param":
        value = resolve(elements[1], names, use, code) if len(elements) == 2 else None
        if has_media(value):
            raise UnsupportedType(node, f"{source}: media is only {_MEDIA_PLACES}")
        return TypeRef(kind="dict", source=source, value=value)
    if use == "param" and qualified in _DICT:
        key = resolve(elements[0], names, use, code) if len(elements) == 2 else None
        value = resolve(elements[1], names, use, code) if len(elements) == 2 else None
        if key is None or key.kind != "str" or key.nullable or not _scalar(value):
            raise UnsupportedType(
                node, f"{source}: a dict parameter is dict[str, T] with T one of {_shown()}"
            )
        return TypeRef(kind="dict", source=source, value=value)
    if use == "param" and qualified in _TUPLE:
        if any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in elements):
            raise UnsupportedType(node, f"{source}: use list[T] for any number of values")
        items = tuple(resolve(e, names, use, code) for e in elements)
        if not items:
            raise UnsupportedType(node, f"{source}: a tuple holds at least one value")
        if not all(_scalar(item) for item in items):
            raise UnsupportedType(node, f"{source}: a tuple's values must be {_shown()}")
        return TypeRef(kind="tuple", source=source, items=items)
    raise UnsupportedType(node, f"unsupported type {source}; supported: {_supported(use)}")


def _content(
    members: list[ast.expr], names: Names, use: Use, code: Code, source: str
) -> TypeRef | None:
    """`Image | str`, `Image | Audio | str`, ...: content, when the union names media; None
    for any other union (refused as unions are)."""
    if len(members) < 2 or use != "return":
        return None
    try:
        refs = [resolve(member, names, use, code) for member in members]
    except UnsupportedType:
        return None
    if not any(ref.kind in MEDIA for ref in refs):
        return None
    kinds = [ref.kind for ref in refs]
    wrong = [ref.source for ref in refs if ref.kind not in MEDIA | {"str"} or ref.nullable]
    if wrong or len(set(kinds)) < len(kinds):
        raise UnsupportedType(
            members[0],
            f"unsupported union {source}: content is Image, Audio, EmbeddedResource and str,"
            " each at most once",
        )
    order = ("str", "image", "audio", "resource")
    ordered = tuple(sorted(refs, key=lambda ref: order.index(ref.kind)))
    return TypeRef(kind="content", source=source, items=ordered)


def _scalar(ref: TypeRef | None) -> bool:
    """A value one word of a command line gives: a leaf type, a choice or an enum."""
    return (
        ref is not None
        and not ref.nullable
        and (ref.kind in _SCALARS or ref.kind in ("choice", "enum"))
    )


def _shown() -> str:
    return ", ".join(sorted(_SCALARS)) + ", a Literal or an Enum"


def _literal_values(node: ast.Subscript, elements: list[ast.expr]) -> tuple[Scalar, ...]:
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


def literal_value(node: ast.expr) -> object:
    """The value of a literal expression (strings, numbers, booleans, None, lists, tuples)."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bytes):
            raise ValueError("cannot be bytes; use a string, number, boolean, None or list")
        if isinstance(value, float) and value - value != 0:
            # NOTE: 1e400 is infinite: JSON has no spelling for it, Python source only `inf`.
            raise ValueError("must be a finite number (JSON has no infinity)")
        if value is None or isinstance(value, str | int | float):
            return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_value(node.operand)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner
    if isinstance(node, ast.List | ast.Tuple):
        # NOTE: a starred element (`[*xs]`) is no literal.
        return tuple(literal_value(e) for e in node.elts)
    raise ValueError("not a literal")


def without_none(node: ast.expr, names: Names) -> ast.expr:
    """`T` of `Optional[T]`, `T | None` or `Union[T, None]`; else the node itself."""
    if isinstance(node, ast.Subscript) and names.is_typing(node.value, "Optional"):
        elements = subscript_elements(node)
        return elements[0] if len(elements) == 1 else node
    others = [m for m in _union_members(node, names) if not _is_none(m)]
    return others[0] if len(others) == 1 else node


def _union_members(node: ast.expr, names: Names) -> Iterator[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        yield from _union_members(node.left, names)
        yield from _union_members(node.right, names)
    elif isinstance(node, ast.Subscript) and names.is_typing(node.value, "Union"):
        for element in subscript_elements(node):
            yield from _union_members(element, names)
    else:
        yield node


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
