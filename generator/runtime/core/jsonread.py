# burgee: joins tail 40
"""The one JSON reader of every input the tool is given (`--json`, `--batch` lines, MCP, JSON
config files, JSON on the command line) and of its own documents: JSON as JSON defines it (NaN
and the infinities refused), read by `_json`'s scanner without importing `json` where it can;
a number its float may not give back kept with its text (`_Exact`, for a Decimal input); and
JSON's equality of values (`_same`).

The one JSON reader of every input and of the tool's own documents (`_load_json`: NaN and the
infinities refused; a number whose float may not give back its text, `_Exact`, a float that
keeps it, for a Decimal input; valid text read by `_json_scanner`, `_json`'s scanner without
`import json`, json itself only for an error's message) and JSON's equality of values (`_same`,
for choices and schemas); `_refused_member`, the top-level members of text refused as a value
(an MCP request's id, to answer under it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable


def _same(one: object, other: object) -> bool:
    """JSON equality, for the input schema's `enum`/`const` and the converters of choices
    alike: 1 equals 1.0, but true is not 1."""
    if isinstance(one, bool) or isinstance(other, bool):
        return type(one) is type(other) and one == other
    if isinstance(one, list) and isinstance(other, list):
        return len(one) == len(other) and all(map(_same, one, other))
    return one == other


def _not_json(name: str) -> Any:
    """NaN and the infinities: Python's json reads them, JSON has no such values."""
    raise ValueError(f"{name} is not a JSON value")


def _load_json(text: str | bytes) -> Any:
    """JSON text as JSON defines it, the one reader of every input the tool is given (`--json`,
    `--batch` lines, MCP over HTTP, JSON config files, JSON on the command line) and of its own
    documents: ValueError for anything else, NaN and the infinities included, which Python's
    json would read. Valid text is read by `_json_scanner`; json itself says what is wrong."""
    if isinstance(text, str):
        scan = _json_scanner()
        if scan is not None:
            try:
                return scan(text)
            except ValueError:
                pass  # NOTE: read again below, for json's message (where, and what)
    import json

    return json.loads(text, parse_constant=_not_json, parse_float=_finite_float)


#: `_json_scanner()`, made on first use.
#: (and `_refused_member`'s: the scanner itself, after it).
_SCANNERS: list[Any] = []


def _json_scanner() -> Callable[[str], Any] | None:
    """A reader of JSON text with `_load_json`'s rules that never imports `json` (which imports
    `re` and `enum`: more time than the rest of a `schema` or an MCP `tools/list`): `_json`'s
    scanner, what json itself runs on, so the values are the same. ValueError ("not JSON",
    without json's place: it lives in `json.decoder`) for anything else, too deep nesting
    included. None without CPython's accelerator. Made once."""
    if _SCANNERS:
        made: Callable[[str], Any] | None = _SCANNERS[0]
        return made
    try:
        import _json
    except ImportError:
        _SCANNERS.append(None)
        return None

    class Rules:
        """What `_json.make_scanner` reads: `json.loads` with `_load_json`'s rules (made here,
        not at start-up: most runs read no JSON)."""

        strict = True
        object_hook = object_pairs_hook = None
        parse_int = int

        def __init__(self) -> None:
            self.parse_float, self.parse_constant = _finite_float, _not_json

    codec: Any = _json
    scan = codec.make_scanner(Rules())
    _SCANNERS.append(None)  # NOTE: its place; `_refused_member` reads the scanner itself
    _SCANNERS.append(scan)

    def load(text: str) -> Any:
        text = text.strip(" \t\r\n")
        try:
            value, end = scan(text, 0)
        except Exception:  # noqa: BLE001
            # NOTE: StopIteration, RecursionError, or json.decoder's own error.
            raise ValueError("not JSON") from None
        if end != len(text):
            raise ValueError("extra data after the JSON value")
        return value

    _SCANNERS[0] = load
    return load


class _Digits(str):
    """A number as `_refused_member` reads it: its text."""

    __slots__ = ()


def _refused_member(text: str, name: str) -> tuple[object, str, str] | None:
    """JSON text `_load_json` refused as a value (a number too large for a float, an integer of
    too many digits, nesting past the bound), not as text: its top-level object read member by
    member, each value as it can be (a number as its text, `_Digits`): the value of the member
    `name` (the protocol's `id`), the name of the first member refused, and why. None when the
    text is no such object, or no valid JSON at all (without CPython's accelerator, too)."""
    if _json_scanner() is None:
        return None
    import _json

    scan = _SCANNERS[1]
    codec: Any = _json

    class Lenient:
        strict = True
        object_hook = object_pairs_hook = None
        parse_int = parse_float = _Digits

        def __init__(self) -> None:
            self.parse_constant = _not_json  # NOTE: NaN is no JSON text: a parse error

    lenient = codec.make_scanner(Lenient())
    found: object = None
    refused = why = ""
    place = _space(text, 0)
    if text[place : place + 1] != "{":
        return None
    place = _space(text, place + 1)
    try:
        while text[place : place + 1] == '"':
            key, place = codec.scanstring(text, place + 1, True)
            place = _space(text, place)
            if text[place : place + 1] != ":":
                return None
            place = _space(text, place + 1)
            try:
                value, end = scan(text, place)
                if key == name:
                    found = value
            except (ValueError, RecursionError) as error:
                deep = isinstance(error, RecursionError)
                if not refused:
                    refused, why = key, "nested too deeply" if deep else str(error)
                try:
                    end = lenient(text, place)[1]
                except RecursionError:
                    end = _skip(text, place, lenient)
            place = _space(text, end)
            if text[place : place + 1] != ",":
                break
            place = _space(text, place + 1)
        if text[place : place + 1] != "}" or _space(text, place + 1) != len(text) or not refused:
            return None
    except (ValueError, StopIteration, IndexError):
        return None
    return found, refused, why


def _space(text: str, place: int) -> int:
    while text[place : place + 1] in (" ", "\t", "\r", "\n"):
        place += 1
    return place


def _skip(text: str, place: int, lenient: Any) -> int:
    """Where the value at `place` ends, read without recursion (too deep for the scanner): its
    brackets counted, its strings skipped whole."""
    import _json

    codec: Any = _json
    depth = 0
    while True:
        char = text[place]
        if char == '"':
            place = codec.scanstring(text, place + 1, True)[1]
        elif char in "[{":
            depth += 1
            place += 1
        elif char in "]}":
            depth -= 1
            place += 1
        else:
            # NOTE: a number, a constant, a comma, a colon or a space: read as a value or not.
            try:
                place = lenient(text, place)[1]
            except StopIteration:
                place += 1
        if depth <= 0:
            return place


class _Exact(float):
    """A JSON number that its float may not write back as given (more digits than a float
    holds, a trailing zero, an exponent): the float, with its `text` for a Decimal input."""

    __slots__ = ("text",)
    text: str


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or an exponent; one too large for a float (`1e400`) would
    read as an infinity, which JSON has not, and which no answer could give back."""
    value = float(text)
    if value - value != 0:
        raise ValueError(f"{text} is too large a number")
    # NOTE: up to 15 characters, no exponent and no trailing zero, `str(value)` is the text's
    # own number, digit for digit (a double holds 15 significant digits): the common case stays a
    # plain float, checked without `repr`, which would cost more than reading the number did.
    if len(text) > 15 or text[-1] == "0" or "e" in text or "E" in text:
        exact = _Exact(value)
        exact.text = text
        return exact
    return value
