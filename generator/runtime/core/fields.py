# burgee: joins tail 70
# burgee: section confirm
"""A question's fields (`ctx.confirm`, `ctx.ask`, `ctx.form`, `prompt=`, a confirmation),
which `context._ask_fields` asks: what an answer to each must be (`_checked`), each field in an
elicitation's requested schema (`_field_schema`), and a form's fields, as gen read them
(`_form_fields`, from the `forms` document).

A field is a tuple: (name, title, description, kind (boolean, string, integer, number),
several of the choices (a list), the choices, their titles (none: untitled), required,
default (None: none)).

(the `confirm` section): a question's fields (a tuple: name, title, description, kind, several,
choices, titles, required, default): `_checked` (an answer as its field takes it: yes/no, a
whole number, a number, a choice or several, text), `_field_schema` (a field in an elicitation's
requested schema: SEP-1034's defaults, SEP-1330's untitled `enum`, titled `oneOf`, `enumNames`
for `legacy_titles`, and arrays of either), `_form_fields` (a form's fields from the `forms`
document, with the class's own defaults).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.core.embedded import _document
from burgee.runtime.core.errors import UsageError

if TYPE_CHECKING:
    from burgee.runtime.program import Program

#: How a person or `--answer` says yes or no.
_YES_NO = {
    **dict.fromkeys(("y", "yes", "true", "1"), True),
    **dict.fromkeys(("n", "no", "false", "0"), False),
}


def _checked(given: object, entry: tuple[Any, ...]) -> object:
    """An answer as its field wants it: yes or no; a whole number; a number; one of the
    choices, or several (a list, or text separated by commas); text."""
    name, kind, several, choices = entry[0], entry[3], entry[4], entry[5]
    if kind == "boolean":
        if type(given) is bool:
            return given
        if isinstance(given, str) and given.strip().lower() in _YES_NO:
            return _YES_NO[given.strip().lower()]
        wanted = "yes or no"
    elif several:
        items = (
            [i.strip() for i in given.split(",") if i.strip()] if isinstance(given, str) else given
        )
        if isinstance(items, list) and all(isinstance(i, str) and i in choices for i in items):
            return items
        wanted = f"some of {', '.join(choices)}, separated by commas"
    elif kind in ("integer", "number"):
        number = _answer_number(given, kind == "integer")
        if number is not None:
            return number
        wanted = "a whole number" if kind == "integer" else "a number"
    else:
        if isinstance(given, str) and (not choices or given in choices):
            return given
        wanted = f"one of {', '.join(choices)}" if choices else "text"
    raise UsageError(f"answer {name}: expected {wanted}, got {given!r}")


def _answer_number(given: object, whole: bool) -> int | float | None:
    """A number an answer gives (JSON's, or its text), None if it is none (or not whole)."""
    if isinstance(given, str):
        text = given.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if digits and all("0" <= c <= "9" for c in digits):
            return int(text)
        if whole:
            return None
        try:
            given = float(text)
        except ValueError:
            return None
    if type(given) is int:
        return given
    if isinstance(given, float) and not whole and given - given == 0:
        return float(given)  # NOTE: JSON's number may be a `jsonread._Exact`
    return None


def _answer_text(value: object) -> str:
    """A default as `--answer` gives it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _form_fields(form: type, program: Program) -> list[Any]:
    """A form's fields as gen read them (`program`'s `forms` document), with the defaults the
    class itself has (a dataclass's; an Enum member as its value)."""
    import json

    try:
        read = json.loads(_document("forms", program))[form.__name__]
    except (KeyError, AttributeError):
        # NOTE: gen reads the calls in a command's own function (its Context parameter's).
        raise TypeError(
            f"ctx.form(message, {getattr(form, '__name__', form)!r}): no handler asks for it;"
            " call ctx.form in a command's function, with a dataclass or TypedDict of the"
            " handlers file"
        ) from None
    defaults: dict[str, object] = {}
    for entry in getattr(form, "__dataclass_fields__", {}).values():
        factory = entry.default_factory
        default = factory() if callable(factory) else entry.default
        if type(default).__name__ != "_MISSING_TYPE":
            defaults[entry.name] = default
    fields = []
    for spec in read:
        default = defaults.get(spec[0])
        if isinstance(default, (list, tuple)):
            default = [getattr(item, "value", item) for item in default]
        elif hasattr(type(default), "_member_map_"):
            default = getattr(default, "value", default)  # NOTE: an Enum member's value
        fields.append((*spec, default))
    return fields


def _field_schema(entry: tuple[Any, ...], legacy: bool) -> dict[str, Any]:
    """A field of an elicitation's requested schema: its type, title and description, its
    choices (untitled `enum`; titled `oneOf` of `const`/`title`, or `enum` with `enumNames`
    for `legacy`; several: an array of them), its default."""
    _, title, description, kind, several, choices, titles, _, default = entry
    schema: dict[str, Any] = {"type": kind, "title": title}
    if description:
        schema["description"] = description
    if choices:
        options = [{"const": c, "title": titles[i]} for i, c in enumerate(choices) if titles]
        if several:
            items = {"anyOf": options} if titles else {"type": "string", "enum": list(choices)}
            schema.update(type="array", items=items)
        elif titles and not legacy:
            schema["oneOf"] = options
        else:
            schema["enum"] = list(choices)
            if titles:
                schema["enumNames"] = list(titles)
    if default is not None and (kind != "string" or isinstance(default, str) or several):
        schema["default"] = default
    return schema
