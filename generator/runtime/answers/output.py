# burgee: joins tail 80
"""Results as data: normalised to JSON, checked against the declared type, written as the
one envelope (`--json`, MCP) or as text for people.

`_jsonable` (results → JSON data: enum members to their values at any depth, dataclasses, dates,
Decimals, …; TypeError for what JSON cannot write, NaN and the infinities included, and
`_unjsonable_at`, its path, walked only then), `_as_read` (JSON input written back, each number
as it was read: the `--json` of a line that runs a call again, a batch's or MCP's), `_conform`
(data against the declared result shape, with the path of the first problem), text for people;
`_emit` (what the tool writes: plain text redacted as text; JSON, already redacted as data, with
`redact=False`; the progress line of `ctx.progress`, `_Status`, erased first); `_Redacting`
(sys.stdout and sys.stderr while the tool runs); `_Stdout` (sys.stdout while a call's prints are
kept: an MCP call's by thread, a `--json` call's in one buffer); `_Quiet` (stdout kept for the
answer while a handler runs; `start(keep=True)`: what it prints kept for `meta.printed`,
`printed()`; `answer()` writes there, to descriptor 1 as it was or to the stream `invoke()`
captures) and `_stdin_apart()` (the MCP requests or `--batch` calls read from a private
duplicate of stdin, and file descriptor 0 made the null device, so a handler, `input()` or a
child process reads an empty stdin).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.sanitize import _redact_text
from burgee.runtime.core.context import _SECRETS
from burgee.runtime.core.jsonread import _Exact
from burgee.runtime.core.kinds import _Type
from burgee.runtime.core.wording import _JSON_EXPECTED, _expected, _one_of

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

_MISSING: Any = object()
#: What a command path returns when it has printed its answer itself (help, schema, ...).
_PRINTED: Any = object()
#: Types whose values are JSON as they are (exactly these: subclasses need normalising).
_PLAIN = frozenset((str, int, bool, type(None)))


def _finite(number: float) -> bool:
    """False for NaN and the infinities (`math.isfinite`, without loading `math` at start-up)."""
    return number - number == 0


def _jsonable(value: object) -> Any:
    """Plain JSON data for a handler's result, the same for the same value every time.

    Enum members become their values (also `str`/`int` mixins, `IntEnum`, `StrEnum`) at any
    depth, dataclasses objects, dates, times, UUIDs, paths and Decimals their text.
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, float) and kind is float:
        if _finite(value):
            return value
        # NOTE: NaN and the infinities have no JSON spelling; null in their place would pass
        # an optional's check and say nothing (`_unjsonable_at` finds where it is).
        raise TypeError(f"{value!r} is not a JSON number (NaN and the infinities are not)")
    # NOTE: exact strings and integers inside containers are kept without a call: results
    # are mostly those, and the MCP server converts one result per call.
    if isinstance(value, dict):
        return {
            key if type(key) is str else str(_jsonable(key)): item
            if type(item) in _PLAIN
            else _jsonable(item)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [item if type(item) in _PLAIN else _jsonable(item) for item in value]
    if isinstance(value, (set, frozenset)):
        items = [_jsonable(item) for item in value]
        return sorted(items, key=lambda item: (type(item).__name__, str(item)))
    fields = getattr(kind, "__dataclass_fields__", None)
    if fields is not None:
        return {name: _jsonable(getattr(value, name)) for name in fields}
    if hasattr(kind, "__pydantic_fields__") and hasattr(value, "model_dump"):
        # NOTE: a pydantic model as pydantic writes it, under the keys its schema names.
        return _jsonable(value.model_dump(mode="json", by_alias=True))
    # NOTE: before the str/int checks: a `class Unit(str, Enum)` member is also a str.
    member = getattr(value, "_value_", _MISSING)
    if member is not _MISSING:
        return _jsonable(member)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _jsonable(float(value))
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        return isoformat()
    if kind.__name__ in ("Decimal", "UUID"):
        return str(value)
    as_json = getattr(value, "_as_json", None)
    if as_json is not None:
        # NOTE: an Image, Audio (`media_items._Media`) or EmbeddedResource, named without
        # importing it
        return as_json()
    raise TypeError(f"a result of type {kind.__name__} cannot be written as JSON")


def _unjsonable_at(value: object, path: str = "result") -> str:
    """Where in `value` is what `_jsonable` refuses (`result.scores[2]`): walked only after
    it refused, so the walk `_jsonable` makes costs nothing more."""
    fields = getattr(type(value), "__dataclass_fields__", None)
    if isinstance(value, dict):
        parts = [(f"{path}.{key}", item) for key, item in value.items()]
    elif isinstance(value, (list, tuple)):
        parts = [(f"{path}[{index}]", item) for index, item in enumerate(value)]
    elif fields is not None:
        parts = [(f"{path}.{name}", getattr(value, name)) for name in fields]
    else:
        return path
    for where, item in parts:
        try:
            _jsonable(item)
        except TypeError:
            return _unjsonable_at(item, where)
    return path


def _conform(data: object, shape: Any, records: dict[str, Any], path: str = "result") -> str | None:
    """What is wrong with normalised `data` for the declared type `shape` (its records' fields
    in `records`, the program's), or None.

    A shape is a `_Type` class, or a tuple: ("in", choices), ("list", item), ("map", item),
    ("null", inner) for an optional, ("record", name) for a dataclass or TypedDict, ("union",
    shapes) for content (`Image | str`: a list's items).
    """
    if not isinstance(shape, tuple):
        kind: type[_Type] = shape
        return None if kind.check(data) else f"{path}: {_expected(kind.expected, data)}"
    form = shape[0]
    if form == "null":
        return None if data is None else _conform(data, shape[1], records, path)
    if form == "in":
        for choice in shape[1]:
            if type(data) is type(choice) and data == choice:
                return None
        return f"{path}: {_expected(_one_of(shape[1]), data)}"
    if form == "union":
        if any(_conform(data, member, records, path) is None for member in shape[1]):
            return None
        wanted = " or ".join(member.expected for member in shape[1])
        return f"{path}: {_expected(wanted, data)}"
    if form == "list":
        if not isinstance(data, list):
            return f"{path}: {_expected(_JSON_EXPECTED['array'], data)}"
        item_shape = shape[1]
        if not isinstance(item_shape, tuple) and all(map(item_shape.check, data)):
            return None  # NOTE: a list of a plain type, checked without a path for each item
        for index, item in enumerate(data):
            problem = _conform(item, item_shape, records, f"{path}[{index}]")
            if problem:
                return problem
        return None
    if not isinstance(data, dict):
        return f"{path}: {_expected(_JSON_EXPECTED['object'], data)}"
    if form == "map":
        item_shape = shape[1]
        if not isinstance(item_shape, tuple) and all(map(item_shape.check, data.values())):
            return None
        for key, item in data.items():
            problem = _conform(item, item_shape, records, f"{path}.{key}")
            if problem:
                return problem
        return None
    fields, required = records[shape[1]]
    for key in required:
        if key not in data:
            return f"{path}: missing field {key!r}"
    for key, item in data.items():
        field = fields.get(key)
        if field is None:
            return f"{path}: unexpected field {key!r}"
        if not isinstance(field, tuple) and field.check(item):
            continue  # NOTE: a plain field that passes: no path made for it
        problem = _conform(item, field, records, f"{path}.{key}")
        if problem:
            return problem
    return None


def _dumps(value: object) -> str:
    """One envelope as JSON text: the same bytes on stdout and in an MCP result
    (`json.dumps(value, ensure_ascii=False)`, by an encoder made once)."""
    if not _ENCODERS:
        _ENCODERS.append(_envelope_encoder())
    return _ENCODERS[0](value)


def _as_read(value: object, dumps: Callable[[object], str]) -> str:
    """JSON input given back as JSON text by `dumps` (a call's `--json` in the line that runs
    it again), each number as it was read (`jsonread._Exact`: json writes a float's repr, and a
    Decimal input would lose digits)."""
    texts: list[str] = []

    def marked(item: object) -> object:
        if type(item) is _Exact:
            texts.append(item.text)
            return f"\x00burgee-number-{len(texts) - 1}\x00"
        if isinstance(item, dict):
            return {key: marked(inner) for key, inner in item.items()}
        if isinstance(item, list):
            return [marked(inner) for inner in item]
        return item

    text = dumps(marked(value))
    for index, number in enumerate(texts):
        text = text.replace(dumps(f"\x00burgee-number-{index}\x00"), number, 1)
    return text


def _envelope_encoder() -> Callable[[object], str]:
    """`json.dumps(value, ensure_ascii=False)`, from CPython's C encoder when there is one
    (`JSONEncoder.encode` builds that encoder again on every call)."""
    try:
        import _json
    except ImportError:
        import json

        return json.JSONEncoder(ensure_ascii=False).encode

    def refuse(value: object) -> object:
        raise TypeError(f"{type(value).__name__} is not JSON")

    codec: Any = _json
    # NOTE: json.dumps's own arguments for ensure_ascii=False and the default separators.
    spaced = codec.make_encoder(
        None, refuse, codec.encode_basestring, None, ": ", ", ", False, False, True
    )

    def encode(value: object) -> str:
        return "".join(spaced(value, 0))

    return encode


#: The JSON encoder of `_dumps`, made on first use (`import json` costs start-up time).
_ENCODERS: list[Callable[[object], str]] = []


def _text(data: object) -> str:
    """Text for people: never valid JSON, so a reader can always tell the two apart."""
    if data is None:
        return ""
    if isinstance(data, str):
        return f"result: {data}" if _looks_like_json(data) else data
    if isinstance(data, dict):
        width = max((_width(str(key)) for key in data), default=0)
        # NOTE: a value's further lines stay under its first, so they never read as keys.
        below = "\n" + " " * (width + 2)
        return "\n".join(
            f"{key}:{' ' * (width - _width(str(key)))} {_cell(value).replace(chr(10), below)}"
            for key, value in data.items()
        )
    if isinstance(data, list):
        if not data:
            return "(no results)"
        if all(isinstance(row, dict) for row in data):
            return _table(data)
        items = [_cell(item) for item in data]
        lines = "\n".join(items)
        # NOTE: one line can happen to be JSON on its own ("0", "true"), and an item of several
        # lines would read as several items; bullets prevent both.
        if any("\n" in item for item in items) or _looks_like_json(lines):
            return "\n".join("- " + item.replace("\n", "\n  ") for item in items)
        return lines
    return f"result: {_cell(data)}"


def _looks_like_json(text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["-0123456789tfn':
        return False
    import json

    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return _dumps(value)
    return str(value)


def _table(rows: list[dict[str, Any]]) -> str:
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    # NOTE: a table row is one line, and a tab would break its columns.
    cells = [
        [_cell(row.get(column)).replace("\n", " ").replace("\t", " ") for column in columns]
        for row in rows
    ]
    lines = [columns, *cells]
    sizes = [[_width(cell) for cell in line] for line in lines]
    widths = [max(size[i] for size in sizes) for i in range(len(columns))]
    return "\n".join(
        "  ".join(cell + " " * (widths[i] - sizes[row][i]) for i, cell in enumerate(line)).rstrip()
        for row, line in enumerate(lines)
    )


def _width(text: str) -> int:
    """How many columns a terminal gives `text`: two for a wide character (CJK, most emoji),
    none for a combining one."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _emit(stream: Any, text: str, *, redact: bool = True) -> None:
    """Write `text` and flush. What the stream cannot encode (a lone surrogate, from argv bytes
    that were not UTF-8) is written as a `\\uXXXX` escape: in JSON text, the same character.
    No secret the process has seen is ever written: each becomes `<secret:NAME>`; JSON text
    comes redacted as data (`sanitize._redact`, `redact=False`), which this would break (a
    secret of digits in a number). The status line (`_Status`) is erased first."""
    status: _Status | None = getattr(stream, "status", None)
    if status is not None:
        status.clear()
    if not redact:
        stream = stream.stream if isinstance(stream, _Redacting) else stream
    elif _SECRETS:
        text = _redact_text(text, _SECRETS)
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        stream.flush()
        return
    stream.flush()
    data = text.encode(getattr(stream, "encoding", None) or "utf-8", "backslashreplace")
    descriptor = _descriptor(stream)
    if descriptor < 0:
        buffer.write(data)
        stream.flush()
        return
    # NOTE: the descriptor itself, to the last byte: a buffered write of a large answer whose
    # reader went away mid-way (`| head`) can end without an error, and the tool then exits 0;
    # `os.write` raises BrokenPipeError on the next write (exit 141).
    _write_all(descriptor, data)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _descriptor(stream: Any) -> int:
    """The file descriptor `stream` writes to, or -1: a stream in memory (`invoke()`'s capture)."""
    try:
        return int(stream.fileno())
    except (AttributeError, OSError, ValueError):  # NOTE: io.UnsupportedOperation is both
        return -1


class _Status:
    """The one line `ctx.progress` keeps at the bottom of a terminal (on stderr): erased before
    anything else is written there or on stdout, so no text lands on its line, and at the end
    of the run, whatever ended it."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.shown = False

    def show(self, text: str) -> None:
        self.shown = True
        self.stream.write(f"\r\x1b[K{text}")
        self.stream.flush()

    def clear(self) -> None:
        if self.shown:
            self.shown = False
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class _Redacting:
    """sys.stdout or sys.stderr while the tool runs: what a handler prints is cleaned of the
    secrets the process has seen (`<secret:NAME>`) on its way out, after the status line."""

    def __init__(self, stream: Any, status: _Status) -> None:
        self.stream = stream
        self.status = status

    def write(self, text: str) -> int:
        self.status.clear()
        if _SECRETS:
            text = _redact_text(text, _SECRETS)
        return int(self.stream.write(text))

    def writelines(self, lines: Iterable[str]) -> None:
        for text in lines:
            self.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class _Stdout:
    """sys.stdout while a call's prints are kept for its answer (MCP, `--json`): what a thread
    with a buffer of its own writes goes there (an MCP call's), what any other writes goes to
    `shared` (the one `--json` call's) or, without it, to `fallback` (stderr)."""

    def __init__(self, fallback: Any, shared: list[str] | None = None) -> None:
        import _thread

        self.buffers: dict[int, list[str]] = {}
        self.shared = shared
        self.fallback = fallback
        self.encoding = "utf-8"
        self.thread = _thread.get_ident

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            # NOTE: as a text stream refuses bytes (click's echo tries `write(b"")` to tell).
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        buffer = self.buffers.get(self.thread(), self.shared)
        if buffer is None:
            return int(self.fallback.write(text))
        buffer.append(text)
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for text in lines:
            self.write(text)

    def flush(self) -> None:
        self.fallback.flush()

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        # NOTE: the rest of a text stream (`fileno`, `buffer`, `errors`, ...) is stderr's: file
        # descriptor 1 is stderr meanwhile, so bytes written there go where prints of no call
        # go.
        return getattr(self.fallback, name)


class _Quiet:
    """While a handler runs under `--json`, stdout carries nothing: `sys.stdout` and file
    descriptor 1 point at stderr, so not even a child process can write before the envelope.
    With `keep`, what the handler writes to `sys.stdout` (print, click's echo) is kept for its
    answer instead (`printed()`, the envelope's `meta.printed`)."""

    def __init__(self) -> None:
        self.saved: int | None = None
        self.stdout: Any = None
        self.kept: list[str] | None = None
        self.keeper: _Stdout | None = None

    def start(self, keep: bool = False) -> None:
        self.stdout = sys.stdout
        sys.stdout.flush()
        if keep:
            self.kept = []
            self.keeper = _Stdout(sys.stderr, self.kept)
            sys.stdout = self.keeper
        else:
            sys.stdout = sys.stderr
        try:
            self.saved = os.dup(1)
            os.dup2(2, 1)
        except OSError:
            self.saved = None  # no file descriptor 1 (or 2): nothing to protect

    def printed(self) -> str:
        """What the handler printed since `start(keep=True)`, taken (once)."""
        kept, self.kept = self.kept, None
        if self.keeper is not None:
            # NOTE: what is printed after (an on_exit callback's) goes to stderr.
            self.keeper.shared, self.keeper = None, None
        return "".join(kept or ())

    def stop(self) -> None:
        """Give stdout back (at the end of the call, or before a forced exit); idempotent.
        What was kept and not taken (the call failed) goes to stderr, as it was printed."""
        if self.stdout is None:
            return
        left = self.printed()
        if left:
            # NOTE: on a line of its own: the error envelope stays the last line of stderr.
            sys.stderr.write(left if left.endswith("\n") else left + "\n")
        sys.stderr.flush()
        if self.saved is not None:
            os.dup2(self.saved, 1)
            os.close(self.saved)
            self.saved = None
        sys.stdout, self.stdout = self.stdout, None

    def answer(self, text: str) -> None:
        """Write `text` (already redacted) to the stdout `start` put aside, while it is aside:
        file descriptor 1 as it was, when that is where it wrote (else stderr: there was no
        descriptor 1); else the stream itself (`invoke()`'s capture, an embedding program's
        file)."""
        stream = self.stdout.stream if isinstance(self.stdout, _Redacting) else self.stdout
        if _descriptor(stream) != 1:
            stream.write(text)
            stream.flush()
        elif self.saved is None:
            sys.stderr.write(text)
        else:
            _write_all(self.saved, text.encode("utf-8", "backslashreplace"))


#: The one `_Quiet` of this process (the command line runs one call).
_QUIET = _Quiet()


def _stdin_apart() -> Any:
    """The caller's stream (the MCP requests, the `--batch` calls) as a binary file of the
    reader's own, and an empty standard input for everything else: file descriptor 0 becomes
    the null device, so a handler's `sys.stdin`, `input()`, `open(0)` and child processes find
    the end of input at once, never the stream's next line."""
    stream = sys.stdin
    if stream is None or _descriptor(stream) != 0:
        # NOTE: `invoke()`'s text (or no stdin at all): no descriptor to keep apart.
        import io

        text = stream.read() if stream is not None else ""
        sys.stdin = io.StringIO()
        return io.BytesIO(text.encode("utf-8", "surrogateescape"))
    try:
        kept = os.dup(0)
    except OSError:
        return open(os.devnull, "rb")  # NOTE: no descriptor 0: nothing to read
    try:
        empty = os.open(os.devnull, os.O_RDONLY)
        os.dup2(empty, 0)
        os.close(empty)
    except OSError:
        pass  # NOTE: no null device (a sandbox): handlers read the stream as before
    return open(kept, "rb")
