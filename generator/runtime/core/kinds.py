# burgee: joins tail 50
"""Every supported leaf type, one class each: how the tool reads it and checks its JSON form.

A class holds everything about its type: the annotations that name it, the converter from
command-line text or JSON input, the check of a normalised result, and how help and the
clispec document show it. The generator reads `TYPES`; a generated tool carries only the
classes its commands use (the joiner drops the rest, and this table).

The table of supported types, one class per type (`_Int`, `_Count`, `_Date`, `_Decimal`, …):
annotation spellings (or the `base` type of a count), converter, result check, what it expects
(for messages), clispec type, metavar, extra JSON Schema keywords, whether a value is one
command-line word (`word`: what a tuple or dict option may hold), the module it needs; `media`,
a result-only type that is an MCP content item (`_Image`, `_Audio`, `_Resource`: their JSON
form's schema and check; `_is_media`). `TYPES` indexes them for the generator. Before Python's
own parser, each converter checks the text's shape (`_shaped`, `_iso_time`, `_plain_number`), so
every supported Python reads the same text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from burgee.runtime.core.errors import _Invalid
from burgee.runtime.core.jsonread import _Exact
from burgee.runtime.core.wording import _JSON_EXPECTED, _expected, _out_of_bounds, _show

if TYPE_CHECKING:
    # NOTE: the date and time converters import it when they first convert: a tool whose
    # only date is in a result does not pay for it on every run (a seventh of a `--help`).
    import datetime as _datetime

    # NOTE: so do the path, decimal and UUID converters: `pathlib` (with `re`, `fnmatch` and
    # `urllib.parse`) and `uuid` each cost about as much as Python's own start-up, `decimal` a
    # third of it, which help, schema and the MCP lists never need.
    import decimal as _decimal
    import pathlib as _pathlib
    import uuid as _uuid


def _shaped(text: str, shape: str) -> bool:
    """Whether `text` is laid out as `shape`: `#` an ASCII digit, `~` a `+` or a `-`, anything
    else itself (`"####-##-##"`). What each type reads is checked this way before Python's own
    parser runs, so a tool reads the same text on every Python: 3.11's `fromisoformat` takes
    `20300506` and week dates, 3.9's does not; `int()` takes `1_000` and non-ASCII digits."""
    if len(text) != len(shape):
        return False
    for index, want in enumerate(shape):
        char = text[index]
        if want == "#":
            if not ("0" <= char <= "9"):
                return False
        elif want == "~":
            if char not in "+-":
                return False
        elif char != want:
            return False
    return True


def _plain_number(text: str) -> bool:
    """ASCII, without `_` or spaces around it (Python reads `1_000`, ` 80` and other scripts'
    digits; JSON does not)."""
    return text.isascii() and "_" not in text and text.strip() == text


#: The times a `time` (and the time of a `datetime`) may be written as, once a fraction of a
#: second is made 6 digits (`_iso_time`): what every supported Python's `fromisoformat` reads
#: the same way.
_TIME_SHAPES = ("##:##", "##:##:##", "##:##:##.######")
#: The most digits a fraction of a second may have: nanoseconds (`date +%N`, Go's RFC3339Nano).
_FRACTION_DIGITS = 9


def _iso_time(text: str) -> str | None:
    """`HH:MM[:SS[.f...]]` (1 to 9 digits of a second) with an optional `Z`, `+HH:MM` or
    `-HH:MM` offset, as `fromisoformat` of every supported Python reads it: the fraction as 6
    digits (padded with zeros; past 6, cut off, not rounded, as Python 3.11's reads them: a
    round-up could carry into the next day), `Z` as `+00:00`; None for anything else."""
    offset = ""
    if text[-1:] in ("Z", "z"):
        text, offset = text[:-1], "+00:00"
    elif len(text) > 6 and _shaped(text[-6:], "~##:##"):
        text, offset = text[:-6], text[-6:]
    whole, dot, fraction = text.partition(".")
    if dot:
        # NOTE: RFC 3339 (the schema's `format: time`) allows any number of digits; Python
        # 3.9's `fromisoformat` reads only 3 or 6.
        if not (0 < len(fraction) <= _FRACTION_DIGITS and _shaped(fraction, "#" * len(fraction))):
            return None
        text = f"{whole}.{fraction[:6]:0<6}"
    if not any(_shaped(text, shape) for shape in _TIME_SHAPES):
        return None
    return text + offset


class _Type:
    """One supported type. Subclasses fill in the class attributes and the two functions."""

    #: The IR's name of this type (`TypeRef.kind`).
    name: ClassVar[str] = ""
    #: The fully qualified annotations that mean this type.
    spellings: ClassVar[tuple[str, ...]] = ()
    #: What a value of this type is, for messages ("an integer").
    expected: ClassVar[str] = "a value"
    #: clispec's argument type.
    clispec: ClassVar[str] = "string"
    #: How help shows an option's value, where the type says more than the option's name.
    metavar: ClassVar[str] = ""
    #: The standard-library module the converter needs (imported as `_<module>`).
    module: ClassVar[str] = ""
    #: The Python type of a type no annotation names alone (a count is an `int`).
    base: ClassVar[str] = ""
    #: JSON Schema keywords beyond its Python type's (a count is never negative).
    schema: ClassVar[dict[str, Any]] = {}
    #: Whether a value is one command-line word (a tuple's item, a dict option's value may only
    #: be such a type; a count is a repeated flag).
    word: ClassVar[bool] = True
    #: A result-only type whose values are MCP content items of this type (`image`, `audio`):
    #: a handler returns one (or a list of them, mixed with strings), never takes one.
    media: ClassVar[str] = ""

    @staticmethod
    def convert(value: object) -> Any:
        """The value of this type that command-line text or JSON input stands for."""
        return value

    @staticmethod
    def check(value: object) -> bool:
        """Whether normalised JSON data is a value of this type."""
        return True


class _Str(_Type):
    name = "str"
    spellings = ("builtins.str",)
    expected = _JSON_EXPECTED["string"]

    @staticmethod
    def convert(value: object) -> str:
        if isinstance(value, str):
            return value
        raise _Invalid(_expected(_Str.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)


class _Int(_Type):
    name = "int"
    spellings = ("builtins.int",)
    expected = _JSON_EXPECTED["integer"]
    clispec = "integer"

    @staticmethod
    def convert(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            # NOTE: JSON Schema counts 3.0 as an integer, and so does the input schema.
            return int(value)
        if isinstance(value, str) and _plain_number(value):
            try:
                return int(value, 10)
            except ValueError:
                if value.lstrip("+-").isdigit():
                    # NOTE: Python 3.11+ reads at most 4300 digits (`sys.set_int_max_str_digits`).
                    raise _Invalid(f"{_show(value)} has too many digits for an integer") from None
        raise _Invalid(_expected(_Int.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)


class _Count(_Type):
    """`Annotated[int, Option("-v", count=True)]`: how often a flag is given (`-vvv` is 3)."""

    name = "count"
    word = False
    base = "builtins.int"
    expected = "a count (0 or more)"
    clispec = "count"
    schema: ClassVar[dict[str, Any]] = {"minimum": 0}

    @staticmethod
    def convert(value: object) -> int:
        number = _Int.convert(value)
        problem = _out_of_bounds(number, 0, None)
        if problem:
            raise _Invalid(problem)
        return number

    @staticmethod
    def check(value: object) -> bool:
        return _Int.check(value)


class _Float(_Type):
    name = "float"
    spellings = ("builtins.float",)
    expected = _JSON_EXPECTED["number"]
    clispec = "number"

    @staticmethod
    def convert(value: object) -> float:
        number = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str) and _plain_number(value):
            try:
                number = float(value)
            except ValueError:
                pass
        # NOTE: NaN and the infinities have no JSON spelling: refused, in and out.
        if number is not None and number - number == 0:
            return number
        raise _Invalid(_expected(_Float.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)


#: The spellings of true and false on the command line and in config files.
_BOOLEANS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}


class _Bool(_Type):
    name = "bool"
    spellings = ("builtins.bool",)
    expected = _JSON_EXPECTED["boolean"]
    clispec = "boolean"

    @staticmethod
    def convert(value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _BOOLEANS:
            return _BOOLEANS[value.strip().lower()]
        raise _Invalid(_expected(_Bool.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, bool)


class _Path(_Type):
    name = "path"
    spellings = ("pathlib.Path",)
    expected = "a path"
    clispec = "path"
    metavar = "PATH"
    module = "pathlib"

    @staticmethod
    def convert(value: object) -> _pathlib.Path:
        import pathlib as _pathlib

        if isinstance(value, str) and value:
            return _pathlib.Path(value)
        raise _Invalid(_expected(_Path.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)


class _TextFile(_Type):
    """A file the handler takes open (`TextIO`): its path until the handler runs (read,
    checked, explained and recorded as text), opened then in the parameter's mode
    (`execution/files._opening`); `-` is the standard stream."""

    name = "textfile"
    spellings = ("typing.TextIO",)
    expected = "a file's path ('-': standard input or output)"
    clispec = "path"
    metavar = "FILE"

    @staticmethod
    def convert(value: object) -> str:
        if isinstance(value, str) and value:
            return value
        raise _Invalid(_expected(_TextFile.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)  # NOTE: its path (never a result: read/annotations.py)


class _BinaryFile(_TextFile):
    """A file the handler takes open for bytes (`BinaryIO`)."""

    name = "binaryfile"
    spellings = ("typing.BinaryIO",)


class _Date(_Type):
    name = "date"
    spellings = ("datetime.date",)
    expected = "a date (YYYY-MM-DD)"
    clispec = "date"
    metavar = "YYYY-MM-DD"
    module = "datetime"

    @staticmethod
    def convert(value: object) -> _datetime.date:
        import datetime as _datetime

        if type(value) is _datetime.date:
            return value  # a TOML date
        if isinstance(value, str) and _shaped(value, "####-##-##"):
            try:
                return _datetime.date.fromisoformat(value)
            except ValueError:
                pass
        raise _Invalid(_expected(_Date.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)


class _DateTime(_Type):
    name = "datetime"
    spellings = ("datetime.datetime",)
    expected = "a date-time (YYYY-MM-DDTHH:MM[:SS[.fff]])"
    clispec = "datetime"
    metavar = "YYYY-MM-DDTHH:MM[:SS]"
    module = "datetime"

    @staticmethod
    def convert(value: object) -> _datetime.datetime:
        import datetime as _datetime

        if isinstance(value, _datetime.datetime):
            return value  # a TOML date-time
        if type(value) is _datetime.date:
            # NOTE: a TOML date alone is its midnight, as the text of one is.
            return _datetime.datetime(value.year, value.month, value.day)
        text = value if isinstance(value, str) else ""
        time = _iso_time(text[11:]) if len(text) > 11 and text[10] in "Tt " else None
        if _shaped(text[:10], "####-##-##") and (len(text) == 10 or time is not None):
            try:
                return _datetime.datetime.fromisoformat(text[:10] + ("T" + time if time else ""))
            except ValueError:
                pass
        raise _Invalid(_expected(_DateTime.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)


class _Time(_Type):
    name = "time"
    spellings = ("datetime.time",)
    expected = "a time (HH:MM[:SS[.fff]])"
    clispec = "time"
    metavar = "HH:MM[:SS]"
    module = "datetime"

    @staticmethod
    def convert(value: object) -> _datetime.time:
        import datetime as _datetime

        if isinstance(value, _datetime.time):
            return value  # a TOML time
        time = _iso_time(value) if isinstance(value, str) else None
        if time is not None:
            try:
                return _datetime.time.fromisoformat(time)
            except ValueError:
                pass
        raise _Invalid(_expected(_Time.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)


class _Uuid(_Type):
    name = "uuid"
    spellings = ("uuid.UUID",)
    expected = "a UUID"
    clispec = "uuid"
    metavar = "UUID"
    module = "uuid"

    @staticmethod
    def convert(value: object) -> _uuid.UUID:
        import uuid as _uuid

        try:
            return _uuid.UUID(_Str.convert(value))
        except ValueError:
            raise _Invalid(_expected(_Uuid.expected, value)) from None

    @staticmethod
    def check(value: object) -> bool:
        return isinstance(value, str)


class _Decimal(_Type):
    name = "decimal"
    spellings = ("decimal.Decimal",)
    expected = "a decimal number as text"
    clispec = "decimal"
    module = "decimal"
    #: A finite decimal as text: what `str(Decimal)` writes and `Decimal(text)` reads back;
    #: the JSON Schema of a decimal uses the same pattern.
    pattern: ClassVar[str] = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"

    @staticmethod
    def convert(value: object) -> _decimal.Decimal:
        import decimal as _decimal

        # NOTE: text as the pattern has it: `Decimal()` also reads `1_000`, spaces around the
        # number and other scripts' digits, which the schema (and so JSON input) refuses.
        text = value if isinstance(value, str) else ""
        plain = _plain_number(text)
        if (plain or isinstance(value, (int, float))) and not isinstance(value, bool):
            # NOTE: JSON input's number as it was written, not its nearest float.
            text = value.text if type(value) is _Exact else str(value)
            try:
                number = _decimal.Decimal(text)
            except _decimal.InvalidOperation:
                pass
            else:
                if number.is_finite():
                    return number
        if isinstance(value, float) and value - value != 0:
            # NOTE: JSON input's 1e400 reads as inf: exact only as text.
            raise _Invalid('a number too large for a float: give it as text, such as "1e400"')
        raise _Invalid(_expected(_Decimal.expected, value))

    @staticmethod
    def check(value: object) -> bool:
        import re

        return isinstance(value, str) and re.fullmatch(_Decimal.pattern, value) is not None


class _Any(_Type):
    name = "any"
    word = False
    spellings = ("typing.Any",)
    expected = "any JSON value"
    clispec = "json"


class _Null(_Type):
    name = "none"
    word = False
    spellings = ("builtins.None",)
    expected = _JSON_EXPECTED["null"]

    @staticmethod
    def check(value: object) -> bool:
        return value is None


def _media_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of an image's or an audio clip's JSON form
    (`media_items._Media._as_json`)."""
    return {
        "type": "object",
        "description": f"{'An image' if kind == 'image' else 'Audio'}: its bytes in base64, and"
        " their MIME type and size",
        "properties": {
            "type": {"const": kind},
            "mime_type": {"type": "string", "pattern": f"^{kind}/"},
            "size": {"type": "integer", "minimum": 0},
            "data": {"type": "string", "contentEncoding": "base64"},
        },
        "required": ["type", "mime_type", "size", "data"],
        "additionalProperties": False,
    }


#: An embedded resource's JSON form (`media.EmbeddedResource._as_json`): its text, or its
#: bytes in base64 as `data`, exactly one of the two (five keys in all).
_RESOURCE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An embedded resource: its URI, MIME type and size (in bytes), and its text,"
    " or its bytes in base64 (data)",
    "properties": {
        "type": {"const": "resource"},
        "uri": {"type": "string", "minLength": 1},
        "mime_type": {"type": "string", "pattern": "/"},
        "size": {"type": "integer", "minimum": 0},
        "text": {"type": "string"},
        "data": {"type": "string", "contentEncoding": "base64"},
    },
    "required": ["type", "uri", "mime_type", "size"],
    "minProperties": 5,
    "maxProperties": 5,
    "additionalProperties": False,
}
#: The keys of each kind's JSON form: its content, and what describes it.
_MEDIA_KEYS = {
    "image": ({"type", "mime_type", "size", "data"},),
    "audio": ({"type", "mime_type", "size", "data"},),
    "resource": (
        {"type", "uri", "mime_type", "size", "text"},
        {"type", "uri", "mime_type", "size", "data"},
    ),
}


def _media_check(value: object, kind: object) -> bool:
    return (
        type(value) is dict
        and kind in ("image", "audio", "resource")
        and value.keys() in _MEDIA_KEYS[kind]
        and value["type"] == kind
        and isinstance(value["mime_type"], str)
        and isinstance(value.get("data", value.get("text")), str)
        and isinstance(value.get("uri", ""), str)
    )


def _is_media(value: object) -> bool:
    """Whether JSON data is a content item's JSON form (an image's, an audio clip's, an
    embedded resource's; a list's item may be)."""
    return type(value) is dict and _media_check(value, value.get("type"))


class _MediaType(_Type):
    """What a handler returns as an MCP content item (`media`: its kind), never an input."""

    word = False
    clispec = "json"

    @classmethod
    def convert(cls, value: object) -> Any:
        raise _Invalid(f"{cls.expected.partition(' (')[0]} is a result, never an input")

    @classmethod
    def check(cls, value: object) -> bool:
        return _media_check(value, cls.media)


class _Image(_MediaType):
    """`burgee.Image`: an image a handler returns (an MCP `image` content item)."""

    name = "image"
    media = "image"
    spellings = ("burgee.Image",)
    expected = "an image (burgee.Image)"
    schema: ClassVar[dict[str, Any]] = _media_schema("image")


class _Audio(_MediaType):
    """`burgee.Audio`: audio a handler returns (an MCP `audio` content item)."""

    name = "audio"
    media = "audio"
    spellings = ("burgee.Audio",)
    expected = "audio (burgee.Audio)"
    schema: ClassVar[dict[str, Any]] = _media_schema("audio")


class _Resource(_MediaType):
    """`burgee.EmbeddedResource`: a resource's contents a handler returns (an MCP `resource`
    content item)."""

    name = "resource"
    media = "resource"
    spellings = ("burgee.EmbeddedResource",)
    expected = "an embedded resource (burgee.EmbeddedResource)"
    schema: ClassVar[dict[str, Any]] = _RESOURCE_SCHEMA


#: Every leaf type by its IR name (structured types are built from these: see `values`).
TYPES: dict[str, type[_Type]] = {
    _Str.name: _Str,
    _Int.name: _Int,
    _Count.name: _Count,
    _Float.name: _Float,
    _Bool.name: _Bool,
    _Path.name: _Path,
    _TextFile.name: _TextFile,
    _BinaryFile.name: _BinaryFile,
    _Date.name: _Date,
    _DateTime.name: _DateTime,
    _Time.name: _Time,
    _Uuid.name: _Uuid,
    _Decimal.name: _Decimal,
    _Any.name: _Any,
    _Null.name: _Null,
    _Image.name: _Image,
    _Audio.name: _Audio,
    _Resource.name: _Resource,
}
