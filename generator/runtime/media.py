"""Images and audio a handler returns (`Image`, `Audio`): their JSON form, and how each surface
gives them to its caller.

A handler returns `Image(data, mime_type)`, `Audio(...)`, or a list mixing them with strings.
As data (`--json`, `structuredContent`) one is `{"type", "mime_type", "size", "data"}`, the bytes
in base64 (`_Media._as_json`); over MCP each is also an `image`/`audio` content item
(`_media_text`); in text mode the bytes go to `--output-file` or a stdout that is not a
terminal (`_write_media`). A result holds at most `_MEDIA_MOST` bytes of each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.deliver import _is_terminal
from burgee.runtime.errors import UsageError
from burgee.runtime.kinds import _is_media

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The most bytes one image or one audio clip may hold (16 MiB): an MCP client reads the whole
#: message into memory, base64 makes it a third longer, and the data goes into a model's context.
_MEDIA_MOST = 16 << 20
#: A MIME type as RFC 6838 spells one (`image/svg+xml`), with parameters (`audio/ogg;
#: codecs=opus`): nothing else reaches an agent unquarantined (`sanitize._sanitize_walk`).
_MIME_TYPE = r"[a-z]+/[A-Za-z0-9][\w!#$&^.+-]*(; ?[\w!#$&^.+-]+=[\w!#$&^.+-]+)*"


class _Media:
    """Bytes with their MIME type; `Image` and `Audio` say which content item they are."""

    #: The JSON form's `type` and the MCP content item's type.
    _kind = ""

    def __init__(self, data: bytes, mime_type: str) -> None:
        name = type(self).__name__
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{name}(data=...) takes bytes, not {type(data).__name__}")
        if not isinstance(mime_type, str) or not mime_type.startswith(self._kind + "/"):
            raise ValueError(f"{name}(mime_type=...) is a {self._kind}/... type, not {mime_type!r}")
        import re

        if not re.fullmatch(_MIME_TYPE, mime_type, flags=re.ASCII):
            raise ValueError(f"{name}(mime_type=...): {mime_type!r} is no MIME type")
        data = bytes(data)
        if len(data) > _MEDIA_MOST:
            raise ValueError(
                f"{name}: {len(data):,} bytes is over the limit of {_MEDIA_MOST:,} bytes (16 MiB)"
            )
        self.data = data
        self.mime_type = mime_type

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.data)} bytes, {self.mime_type!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Media) or type(other) is not type(self):
            return False
        return (self.data, self.mime_type) == (other.data, other.mime_type)

    def __hash__(self) -> int:
        return hash((self._kind, self.data, self.mime_type))

    def _as_json(self) -> dict[str, Any]:
        """The JSON form (`output._jsonable` calls it): the bytes in base64."""
        import binascii

        text = binascii.b2a_base64(self.data, newline=False).decode("ascii")
        return {
            "type": self._kind,
            "mime_type": self.mime_type,
            "size": len(self.data),
            "data": text,
        }


class Image(_Media):
    """An image a handler returns: `Image(png_bytes, "image/png")`."""

    _kind = "image"


class Audio(_Media):
    """Audio a handler returns: `Audio(wav_bytes, "audio/wav")`."""

    _kind = "audio"


def _media_in(data: object) -> Iterator[tuple[int | None, dict[str, Any]]]:
    """The media items of a result: the result itself (index None) or its list's items."""
    if _is_media(data):
        yield None, data  # type: ignore[misc]
    elif type(data) is list:
        for index, item in enumerate(data):
            if _is_media(item):
                yield index, item


def _media_note(item: dict[str, Any]) -> str:
    """What the text says of a media item: `image/png, 1,234 bytes`."""
    return f"{item['mime_type']}, {item['size']:,} bytes"


def _media_text(envelope: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """An MCP answer's media: the envelope its text item carries, each media item's `data`
    there a note of where the bytes are (`[image/png, 70 bytes: content item 2]`), and the
    `image`/`audio` content items (base64 `data`, `mimeType`), in order; None when the answer
    holds none. `structuredContent` keeps the data whole (its schema says base64)."""
    data = envelope.get("data")
    found = list(_media_in(data)) if envelope.get("ok") else []
    if not found:
        return None
    items: list[dict[str, Any]] = []
    noted: dict[int | None, dict[str, Any]] = {}
    for index, item in found:
        items.append({"type": item["type"], "data": item["data"], "mimeType": item["mime_type"]})
        where = f"{_media_note(item)}: content item {len(items) + 1}"
        noted[index] = {**item, "data": f"[{where}]"}
    if None in noted:
        shown: Any = noted[None]
    else:
        assert isinstance(data, list)
        shown = [noted.get(index, item) for index, item in enumerate(data)]
    return {**envelope, "data": shown}, items


def _write_media(data: object, output_file: str | None, stdout: Any) -> str | None:
    """Text mode of a result that holds media: each item's bytes to `output_file` (the second
    and later as `NAME-2.EXT`, ...), or, for a lone item and no `--output-file`, to stdout when
    it is not a terminal. Returns the text left to print (a list's strings and a line per item
    written; "" when the bytes went to stdout), or None when `data` holds no media. A terminal,
    or a list and no `--output-file`, is a usage error that says how."""
    import binascii

    found = list(_media_in(data))
    if not found:
        return None
    buffer = getattr(stdout, "buffer", None)
    if output_file is None:
        if found[0][0] is not None:
            raise UsageError(
                "this answer mixes text with images or audio: give --output-file PATH for them",
                hint="or --json, which gives each one in base64",
            )
        if buffer is None or _is_terminal(stdout):
            raise UsageError(
                f"the answer is binary ({_media_note(found[0][1])}): not written to a terminal",
                hint="give --output-file PATH, or send stdout to a file (> FILE), or use --json",
            )
        stdout.flush()
        buffer.write(binascii.a2b_base64(found[0][1]["data"]))
        buffer.flush()
        return ""
    import os

    stem, suffix = os.path.splitext(output_file)
    written: dict[int | None, str] = {}
    for number, (index, item) in enumerate(found, 1):
        path = output_file if number == 1 else f"{stem}-{number}{suffix}"
        try:
            with open(path, "wb") as file:
                file.write(binascii.a2b_base64(item["data"]))
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
        written[index] = f"[{_media_note(item)} written to {path}]"
    if None in written:
        return written[None]
    assert isinstance(data, list)
    return "\n".join(written[i] if i in written else str(item) for i, item in enumerate(data))
