"""The generator's view of the runtime's type table (`burgee.runtime.core.kinds.TYPES`).

Each supported type is described once, by its runtime class; here that table is read the way
the reader and the schema builder need it: annotation spellings → kinds, and each kind's
real Python type (for pydantic's schemas and for evaluating defaults like `date(2026, 1, 1)`).

`SPELLINGS`, the spellings → kinds; `metavar()`, how help shows a type's value, and
`option_words()`, an option as one types it (`--since YYYY-MM-DD`, the skill's synopsis);
`TEXT`, the kinds whose values a tool writes as JSON strings (the only ones a secret may have);
`MEDIA` and `has_media()`: the result-only kinds (`burgee.Image`, `burgee.Audio`,
`burgee.EmbeddedResource`) and the types that hold one (or one of the kinds asked).
"""

from __future__ import annotations

import builtins
import importlib
from typing import Any, cast

from burgee.model.ir import Param, TypeKind, TypeRef
from burgee.runtime.core.kinds import TYPES

#: Kinds the reader resolves by other means: `Any` is a typing special form, `None` a literal.
_SPECIAL = ("any", "none")

#: Fully qualified annotation → kind, for the leaf types.
SPELLINGS: dict[str, TypeKind] = {
    spelling: cast("TypeKind", kind)
    for kind, spec in TYPES.items()
    if kind not in _SPECIAL
    for spelling in spec.spellings
}

#: Kinds whose values are instances of a standard-library class (`Path`, `date`, ...).
CONSTRUCTED = tuple(kind for kind, spec in TYPES.items() if spec.module)

#: Kinds whose every value a tool writes as a JSON string (the only ones a secret may have: it
#: is redacted as text, `<secret:NAME>`).
TEXT: tuple[TypeKind, ...] = ("str", "path", "date", "datetime", "time", "uuid", "decimal")


#: The kinds of a file the handler takes open (`TextIO`, `BinaryIO`): parameters only.
FILES: tuple[TypeKind, ...] = ("textfile", "binaryfile")

#: The kinds of a form's field (`ctx.form`) that hold one value -> the JSON Schema type an
#: elicitation asks it as (a choice, an Enum or Literal of strings, is a string).
FORM_KINDS = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}

#: The result-only kinds (`burgee.Image`, `burgee.Audio`, `burgee.EmbeddedResource`): MCP
#: content items.
MEDIA = frozenset(kind for kind, spec in TYPES.items() if spec.media)


def has_media(ref: TypeRef | None, kinds: frozenset[str] = MEDIA) -> bool:
    """Whether a type is or holds an image, audio or an embedded resource (a list's items,
    content)."""
    if ref is None:
        return False
    if ref.kind in kinds:
        return True
    inner = (ref.item, ref.value, *ref.items)
    return any(has_media(item, kinds) for item in inner)


def spelling(kind: str) -> str:
    """The canonical annotation of a leaf kind (`datetime.date`; a count's is `int`)."""
    spec = TYPES[kind]
    return spec.spellings[0] if spec.spellings else spec.base


def python_type(kind: str) -> Any:
    """The real Python type of a leaf kind (`datetime.date`, `typing.Any`, `NoneType`)."""
    if kind == "none":
        return type(None)
    module, _, name = spelling(kind).rpartition(".")
    source = builtins if module == "builtins" else importlib.import_module(module)
    return getattr(source, name)


def metavar(ref: TypeRef) -> str:
    """How help shows an option's value, where its type says more than its name ("" if not)."""
    if ref.kind == "record":
        return "JSON"
    if ref.kind == "dict":
        return "KEY=VALUE"
    spec = TYPES.get(ref.kind)
    return spec.metavar if spec is not None else ""


def value_words(param: Param) -> tuple[str, ...]:
    """The words that name each value of an option that takes a fixed number of them (a
    tuple's items, `nargs=N`): a metavar's own words (`metavar="KEY VALUE"`), else one for
    each; () for an option of one value, or of any number."""
    assert param.type is not None
    ref = param.type
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    count = len(item.items) if item.kind == "tuple" else param.nargs
    if not isinstance(count, int):
        return ()
    if param.metavar and " " in param.metavar:
        return tuple(param.metavar.split(" "))
    if item.kind == "tuple":
        return tuple(param.metavar or metavar(i) or param.placeholder for i in item.items)
    return ()


def option_words(param: Param) -> str:
    """An option as one types it: its flag and its value's placeholder (`--since SINCE`,
    `--day YYYY-MM-DD`, `--size W H`), a flag alone for a switch (both spellings of a
    required bool: `--force|--no-force`, `--shallow|--deep`)."""
    assert param.type is not None
    ref = param.type
    if ref.kind == "bool":
        return "|".join((param.flag, *param.negatives)) if param.required else param.flag
    if ref.kind == "count":
        return param.flag
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    words = value_words(param)
    if words:
        return " ".join([param.flag, *words])
    word = param.metavar or metavar(item) or param.placeholder
    if param.nargs is not None:
        # NOTE: as argparse's usage spells an option of several words (`Option(nargs=)`).
        several = {"+": f"{word} [{word} ...]", "*": f"[{word} ...]"}
        many = several.get(str(param.nargs)) or " ".join([word] * int(param.nargs))
        return f"{param.flag} {many}"
    return f"{param.flag} {word}"
