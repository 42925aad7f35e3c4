"""`Option(...)` and `Argument(...)` as a parameter's annotation writes them: which keywords
each takes and of what type (`marker_settings`), and the checks of the settings against the
parameter's type and default (`read_bounds`, `read_text_rules`, `read_path_checks`,
`default_within`, `not_text`).

`Option(...)`/`Argument(...)` as an annotation writes them: the keywords each takes and their
types (`marker_settings()`), and the checks of the settings against the parameter's type and
default: `read_bounds()` (`min=`/`max=`, on numbers), `read_text_rules()`
(`pattern=`/`min_length=`/`max_length=`, on strings), `default_within()`, and `not_text()`
(`secret=True` only on a type whose values are text).
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from burgee.model.ir import PATH_CHECKS, PathChecks, TypeRef
from burgee.model.kinds import TEXT
from burgee.read.annotations import NotLiteral
from burgee.read.reader import Parameter, Reader, is_none

#: The positional arguments of `Option(...)`, its flags: a short one and any long ones
#: (`Option("-f", "--from-ref", "--source")`; Click's options have up to four).
FLAG_KEYS = ("name", "other_name", "third_name", "fourth_name", "fifth_name", "sixth_name")
_MARKER_KEYS = {
    "Argument": (
        {"help", "complete", "passthrough", "metavar", "case_sensitive", "mode", *PATH_CHECKS},
        (),
    ),
    "Option": (
        {
            *PATH_CHECKS,
            "help",
            "env",
            "hidden",
            "secret",
            "complete",
            "min",
            "max",
            "count",
            "pattern",
            "min_length",
            "max_length",
            "prompt",
            "default_factory",
            "shadows",
            "off",
            "metavar",
            "deprecated",
            "nargs",
            "case_sensitive",
            "mode",
        },
        FLAG_KEYS,
    ),
}
#: The settings of `Option(...)`/`Argument(...)` that take a plain value: its types, and how
#: an error says them (the others are checked where they are read).
_SETTING_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "help": ((str, type(None)), "a string"),
    "hidden": ((bool,), "True or False"),
    "secret": ((bool,), "True or False"),
    "count": ((bool,), "True or False"),
    "shadows": ((bool,), "True or False"),
    "passthrough": ((bool,), "True or False"),
    "case_sensitive": ((bool,), "True or False"),
    "mode": ((str,), "'r', 'w', 'a' or 'x'"),
    "prompt": ((bool, str), "True, False or the question to ask"),
    "metavar": ((str,), "a string"),
    "deprecated": ((bool, str), "True, False or the reason"),
    **dict.fromkeys(PATH_CHECKS, ((bool,), "True or False")),
}


def marker_settings(
    reader: Reader, marker: ast.Call, name: str
) -> tuple[str, dict[str, object], dict[str, ast.expr]] | None:
    """`Option(...)`/`Argument(...)` of parameter `name`: its role, the value of each setting,
    and where each is written (for a problem with it); None after a problem."""
    settings: dict[str, object] = {}
    mistyped = False
    kind = reader.api_name(marker.func) or ""
    role = "argument" if kind == "Argument" else "option"
    allowed, positional = _MARKER_KEYS[kind]
    args = reader.call_args(marker, positional, allowed, f"{kind}()")
    written = dict(args)
    for key, value in args.items():
        if key in ("complete", "default_factory"):
            if is_none(value):
                continue  # NOTE: the signature's own default, spelled out
            if not isinstance(value, ast.Name):
                reader.error(value, f"{key}= must name a function defined in this file")
                return None
            settings[key] = value.id
            continue
        try:
            settings[key] = reader.literal(value, f"{kind}({key}=...)")
        except NotLiteral:
            return None
        types, what = _SETTING_TYPES.get(key, ((object,), ""))
        if not isinstance(settings[key], types):
            reader.error(value, f"{kind}({key}=...) of {name!r} must be {what}")
            mistyped = True
    if mistyped:
        return None
    return role, settings, written


def not_text(ref: TypeRef) -> str | None:
    """What in a secret's type is not text (a number, a boolean, a record, a choice of
    numbers), as written; None when every value of it is a JSON string."""
    if ref.kind in ("list", "tuple", "dict"):
        for part in (ref.item, ref.value, *ref.items):
            found = not_text(part) if part is not None else None
            if found is not None:
                return found
        return None
    if ref.kind in ("choice", "enum"):
        return None if all(isinstance(c, str) for c in ref.choices) else ref.source
    return None if ref.kind in TEXT else ref.source


def read_bounds(
    reader: Reader, param: Parameter, settings: dict[str, object], ref: TypeRef, name: str
) -> tuple[int | float | None, int | float | None] | None:
    """`Option(min=..., max=...)`: numbers, on a number (or a list of numbers) only."""
    low, high = settings.get("min"), settings.get("max")
    if low is None and high is None:
        return None, None
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    if item.kind == "count":
        reader.error(
            param,
            f"min=/max= of {name!r} do not apply to a count (count=True), which counts how often"
            " its flag is given: check the count in the handler (raise UsageError)",
        )
        return None
    if item.kind not in ("int", "float", "decimal"):
        reader.error(param, f"min=/max= of {name!r} need a number type, not {ref.source}")
        return None
    for bound in (low, high):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, (int, float))):
            reader.error(param, f"min=/max= of {name!r} must be numbers, not {bound!r}")
            return None
    if low is not None and high is not None and low > high:  # type: ignore[operator]
        reader.error(param, f"min= of {name!r} is greater than its max=")
        return None
    return low, high  # type: ignore[return-value]


def read_text_rules(
    reader: Reader, param: Parameter, settings: dict[str, object], ref: TypeRef, name: str
) -> tuple[str | None, int | None, int | None] | None:
    """`Option(pattern=, min_length=, max_length=)`: on a string (or a list of strings) only."""
    pattern, low, high = (settings.get(k) for k in ("pattern", "min_length", "max_length"))
    if pattern is None and low is None and high is None:
        return None, None, None
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    if item.kind != "str":
        reader.error(param, f"pattern=/min_length=/max_length= of {name!r} need a str type")
        return None
    if pattern is not None:
        try:
            re.compile(str(pattern))
        except re.error as error:
            reader.error(param, f"pattern= of {name!r} is not a regular expression: {error}")
            return None
        if not isinstance(pattern, str):
            reader.error(param, f"pattern= of {name!r} must be a string")
            return None
    for length in (low, high):
        if length is not None and (type(length) is not int or length < 0):
            reader.error(param, f"min_length=/max_length= of {name!r} must be whole numbers")
            return None
    if low is not None and high is not None and low > high:  # type: ignore[operator]
        reader.error(param, f"min_length= of {name!r} is greater than its max_length=")
        return None
    return pattern, low, high  # type: ignore[return-value]


def read_path_checks(
    reader: Reader, param: Parameter, settings: dict[str, object], ref: TypeRef, name: str
) -> PathChecks | Literal[False] | None:
    """`Option(exists=, file_okay=, ...)`, as `click.Path` takes them: on a `Path` (or a list
    of paths), or a `str` as `click.Path()` gives it (a Click program read as it is keeps its
    strings). None: none given; False after a problem."""
    given = {key: settings[key] for key in PATH_CHECKS if key in settings}
    if not given:
        return None
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    if item.kind not in ("path", "str"):
        first = next(iter(given))
        reader.error(param, f"{first}= of {name!r} needs a Path (or str) type, not {ref.source}")
        return False
    return PathChecks.model_validate(given)


def default_within(
    reader: Reader,
    param: Parameter,
    bounds: tuple[int | float | None, int | float | None],
    default: object,
    name: str,
) -> bool:
    """A default must pass the bounds every given value is checked against."""
    low, high = bounds
    values = default if isinstance(default, tuple) else (default,)
    for value in values:
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        if (low is not None and value < low) or (high is not None and value > high):
            node = param.default if param.default is not None else param
            shown = " and ".join(
                part
                for part in (
                    f"at least {low}" if low is not None else "",
                    f"at most {high}" if high is not None else "",
                )
                if part
            )
            reader.error(node, f"the default {value} of {name!r} must be {shown}")
            return False
    return True
