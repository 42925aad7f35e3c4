"""Images, audio and embedded resources a handler returns (`Image`, `Audio`,
`EmbeddedResource`): their JSON form, and how each surface gives them to its caller.

A handler returns `Image(data, mime_type)`, `Audio(...)`, `EmbeddedResource(uri, text=... |
data=..., mime_type=...)`, or a list mixing them with strings. As data (`--json`,
`structuredContent`) one is `{"type", "mime_type", "size", "data"}`, the bytes in base64
(`_Media._as_json`; a resource has its `uri`, and its `text` in place of `data` when it is
text); over MCP each is also an `image`/`audio`/`resource` content item (`_media_text`); in
text mode the bytes go to `--output-file` or a stdout that is not a terminal, a resource's
text is printed (`_write_media`). A result holds at most `_MEDIA_MOST` bytes of each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _is_terminal
from burgee.runtime.execution.errors import UsageError
from burgee.runtime.execution.kinds import _is_media

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The most bytes one image or one audio clip may hold (16 MiB): an MCP client reads the whole
#: message into memory, base64 makes it a third longer, and the data goes into a model's context.
_MEDIA_MOST = 16 << 20
#: A URI as an embedded resource names itself (`file:///notes.md`, `test://x`): a scheme, and
#: no space or control character (it reaches an agent unquarantined, as a MIME type does).
_RESOURCE_URI = r"[A-Za-z][A-Za-z0-9+.-]*:[^\s\x00-\x1f\x7f]+"
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


class EmbeddedResource:
    """A resource's contents a handler returns: `EmbeddedResource("file:///a.md", text=...,
    mime_type="text/markdown")` or `data=` bytes (MIME type by default `text/plain` for text,
    `application/octet-stream` for bytes); an MCP `resource` content item."""

    def __init__(
        self,
        uri: str,
        *,
        text: str | None = None,
        data: bytes | None = None,
        mime_type: str | None = None,
    ) -> None:
        import re

        if not isinstance(uri, str) or not re.fullmatch(_RESOURCE_URI, uri):
            raise ValueError(f"EmbeddedResource(uri=...): {uri!r} is no URI (scheme:...)")
        if (text is None) == (data is None):
            raise TypeError("EmbeddedResource takes its contents as text= or data=, one of them")
        if text is not None and not isinstance(text, str):
            raise TypeError(f"EmbeddedResource(text=...) takes str, not {type(text).__name__}")
        if data is not None and not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"EmbeddedResource(data=...) takes bytes, not {type(data).__name__}")
        if mime_type is None:
            mime_type = "text/plain" if text is not None else "application/octet-stream"
        if not isinstance(mime_type, str) or not re.fullmatch(
            _MIME_TYPE, mime_type, flags=re.ASCII
        ):
            raise ValueError(f"EmbeddedResource(mime_type=...): {mime_type!r} is no MIME type")
        size = len(text.encode("utf-8", "surrogatepass")) if text is not None else len(data or b"")
        if size > _MEDIA_MOST:
            raise ValueError(
                f"EmbeddedResource: {size:,} bytes is over the limit of {_MEDIA_MOST:,} bytes"
                " (16 MiB)"
            )
        self.uri = uri
        self.text = text
        self.data = None if data is None else bytes(data)
        self.mime_type = mime_type

    def __repr__(self) -> str:
        held = f"{len(self.text or '')} characters"
        if self.data is not None:
            held = f"{len(self.data)} bytes"
        return f"EmbeddedResource({self.uri!r}, {held}, {self.mime_type!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EmbeddedResource):
            return False
        mine = (self.uri, self.text, self.data, self.mime_type)
        return mine == (other.uri, other.text, other.data, other.mime_type)

    def __hash__(self) -> int:
        return hash((self.uri, self.text, self.data, self.mime_type))

    def _as_json(self) -> dict[str, Any]:
        """The JSON form (`output._jsonable` calls it): the text, or the bytes in base64."""
        form: dict[str, Any] = {"type": "resource", "uri": self.uri, "mime_type": self.mime_type}
        if self.data is None:
            text = self.text or ""
            return {**form, "size": len(text.encode("utf-8", "surrogatepass")), "text": text}
        import binascii

        encoded = binascii.b2a_base64(self.data, newline=False).decode("ascii")
        return {**form, "size": len(self.data), "data": encoded}


def _media_in(data: object) -> Iterator[tuple[int | None, dict[str, Any]]]:
    """The media items of a result: the result itself (index None) or its list's items."""
    if _is_media(data):
        yield None, data  # type: ignore[misc]
    elif type(data) is list:
        for index, item in enumerate(data):
            if _is_media(item):
                yield index, item


def _media_note(item: dict[str, Any]) -> str:
    """What the text says of a media item: `image/png, 1,234 bytes` (a resource's URI first)."""
    uri = f"{item['uri']}, " if "uri" in item else ""
    return f"{uri}{item['mime_type']}, {item['size']:,} bytes"


def _content_item(item: dict[str, Any]) -> dict[str, Any]:
    """A media item's MCP content item: `image`/`audio` (base64 `data`, `mimeType`), or a
    `resource` (its `uri`, `mimeType` and `text`, or `blob` in base64)."""
    if item["type"] != "resource":
        return {"type": item["type"], "data": item["data"], "mimeType": item["mime_type"]}
    body = {"uri": item["uri"], "mimeType": item["mime_type"]}
    if "text" in item:
        return {"type": "resource", "resource": {**body, "text": item["text"]}}
    return {"type": "resource", "resource": {**body, "blob": item["data"]}}


def _media_bytes(item: dict[str, Any]) -> bytes:
    """A media item's bytes (a text resource's text in UTF-8)."""
    import binascii

    if "text" in item:
        return str(item["text"]).encode("utf-8", "surrogatepass")
    return binascii.a2b_base64(item["data"])


def _media_text(envelope: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """An MCP answer's media: the envelope its text item carries, each media item's `data`
    (a text resource's `text`) there a note of where it is (`[image/png, 70 bytes: content
    item 2]`), and the content items (`_content_item`), in order; None when the answer holds
    none. `structuredContent` keeps the data whole (its schema says base64)."""
    data = envelope.get("data")
    found = list(_media_in(data)) if envelope.get("ok") else []
    if not found:
        return None
    items: list[dict[str, Any]] = []
    noted: dict[int | None, dict[str, Any]] = {}
    for index, item in found:
        items.append(_content_item(item))
        where = f"{_media_note(item)}: content item {len(items) + 1}"
        noted[index] = {**item, "text" if "text" in item else "data": f"[{where}]"}
    if None in noted:
        shown: Any = noted[None]
    else:
        assert isinstance(data, list)
        shown = [noted.get(index, item) for index, item in enumerate(data)]
    return {**envelope, "data": shown}, items


def _write_media(data: object, output_file: str | None, stdout: Any) -> str | None:
    """Text mode of a result that holds media: each item's bytes to `output_file` (the second
    and later as `NAME-2.EXT`, ...), or, for a lone item and no `--output-file`, to stdout when
    it is not a terminal; without `--output-file` a resource's text is printed as text is.
    Returns the text left to print (a list's strings and a line per item written; "" when the
    bytes went to stdout), or None when `data` holds no media. Bytes for a terminal, or a
    list's bytes and no `--output-file`, is a usage error that says how."""
    found = list(_media_in(data))
    if not found:
        return None
    if output_file is None:
        binary = [(index, item) for index, item in found if "text" not in item]
        if not binary:
            if found[0][0] is None:
                return str(found[0][1]["text"])
            assert isinstance(data, list)
            return "\n".join(item["text"] if _is_media(item) else str(item) for item in data)
        if binary[0][0] is not None:
            raise UsageError(
                "this answer mixes text with images, audio or binary resources: give"
                " --output-file PATH for them",
                hint="or --json, which gives each one in base64",
            )
        buffer = getattr(stdout, "buffer", None)
        if buffer is None or _is_terminal(stdout):
            raise UsageError(
                f"the answer is binary ({_media_note(found[0][1])}): not written to a terminal",
                hint="give --output-file PATH, or send stdout to a file (> FILE), or use --json",
            )
        stdout.flush()
        buffer.write(_media_bytes(found[0][1]))
        buffer.flush()
        return ""
    import os

    stem, suffix = os.path.splitext(output_file)
    written: dict[int | None, str] = {}
    for number, (index, item) in enumerate(found, 1):
        path = output_file if number == 1 else f"{stem}-{number}{suffix}"
        try:
            with open(path, "wb") as file:
                file.write(_media_bytes(item))
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
        written[index] = f"[{_media_note(item)} written to {path}]"
    if None in written:
        return written[None]
    assert isinstance(data, list)
    return "\n".join(written[i] if i in written else str(item) for i, item in enumerate(data))
