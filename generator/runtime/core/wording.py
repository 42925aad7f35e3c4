# burgee: joins tail 30
"""How a problem with a value is worded, the one wording of every reader (a flag, an env var,
a config file, JSON input, the input schema's check) and of help: `expected an integer, got
'abc'`, bounds, lengths, patterns, item counts and choices.

`_expected` (`expected an integer, got 'abc'`, the value as `_show` shows it; `_JSON_EXPECTED`,
each JSON type's name), `_one_of`/`_choice_text` (choices), `_unquoted` and `_SECRET_SAYS` (a
problem with a word of a command that takes a secret, the word left out), and bounds, lengths,
patterns and item counts (`_out_of_bounds`, `_badly_sized`, `_mismatched`, `_wrong_count`,
`_number`, `_characters`): the converters and the input schema's check
(`runtime/execution/inputs.py`) word a problem alike.
"""

from __future__ import annotations

from typing import Any


def _show(value: object) -> str:
    """A value as a message shows it: its repr (but JSON's null, true and false: the tool
    speaks JSON), cut to 60 characters."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true" if value else "false"
    # NOTE: a TOML date or time as TOML writes it (`2026-01-01`), not as Python's repr.
    dated = type(value).__module__ == "datetime" and hasattr(value, "isoformat")
    text = value.isoformat() if dated else repr(value)  # type: ignore[attr-defined]
    return text if len(text) <= 60 else text[:57] + "..."


#: What a value of each JSON type is called in `_expected`'s words: the input schema's check
#: says it, and so do the types whose values are of that JSON type.
_JSON_EXPECTED = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


#: Why a problem with the command line of a command that takes a secret quotes no word of it
#: but a flag's value (a word typed without its flag may be the secret).
_SECRET_SAYS = "as the command takes a secret"


def _unquoted(problem: str, words: list[Any]) -> str:
    """A problem with a positional argument's `words`, of a command that takes a secret, with
    each word as `_show` quotes it taken out (`expected an integer, got the word given (not
    shown, ...)`); when a word is still in it, quoted otherwise, a problem that names none."""
    for word in words:
        problem = problem.replace(_show(word), "the word given")
    if any(str(word) in problem for word in words):
        return f"not a valid value (the word given is not shown, {_SECRET_SAYS})"
    return f"{problem} (not shown, {_SECRET_SAYS})"


def _expected(wanted: str, value: object) -> str:
    """What a value that is not what was wanted gets told, the one wording of every reader (a
    flag, an env var, a config file, JSON input, the input schema's check): `expected an
    integer, got 'abc'`."""
    return f"expected {wanted}, got {_show(value)}"


def _one_of(choices: tuple[Any, ...] | list[Any]) -> str:
    """`one of a, b, c`: what a `Literal` or an enum wants, as `_expected` says it."""
    return "one of " + ", ".join(map(_choice_text, choices))


def _choice_text(choice: object) -> str:
    """A choice (of a `Literal` or an enum) as the command line spells it: `red`, `3`, `true`."""
    return str(choice).lower() if isinstance(choice, bool) else str(choice)


def _number(value: float) -> str:
    """A `min=`/`max=` bound as every message and help text writes it: `1000000`, `0.5`
    (`:g` wrote `1e+06`, JSON `1000000`)."""
    return str(int(value)) if value == int(value) else repr(value)


def _characters(count: int) -> str:
    """A `min_length=`/`max_length=` as every message and help text writes it."""
    return f"{count} character{'' if count == 1 else 's'}"


def _out_of_bounds(number: float, minimum: float | None, maximum: float | None) -> str | None:
    """Why a number is outside its `min=`/`max=`, worded alike by the converters and the input
    schema's check; None when it is inside."""
    if minimum is not None and number < minimum:
        return f"{number} is less than the minimum {_number(minimum)}"
    if maximum is not None and number > maximum:
        return f"{number} is more than the maximum {_number(maximum)}"
    return None


def _badly_sized(text: str, min_length: int | None, max_length: int | None) -> str | None:
    """Why a string is shorter or longer than its `min_length=`/`max_length=`, or None."""
    if min_length is not None and len(text) < min_length:
        return f"{_show(text)} is shorter than {_characters(min_length)}"
    if max_length is not None and len(text) > max_length:
        return f"{_show(text)} is longer than {_characters(max_length)}"
    return None


def _mismatched(text: str, pattern: str) -> str | None:
    """Why a string does not match its `pattern=`, or None."""
    import re

    return None if re.search(pattern, text) else f"{_show(text)} does not match {pattern}"


def _wrong_count(count: int, minimum: int | None, maximum: int | None) -> str | None:
    """Why a list or a tuple has too few or too many items, or None."""
    if minimum is not None and count < minimum:
        return f"needs at least {minimum} item(s)"
    if maximum is not None and count > maximum:
        return f"takes at most {maximum} item(s)"
    return None
