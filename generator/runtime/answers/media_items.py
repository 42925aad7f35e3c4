# burgee: joins head 30
"""The values a handler returns besides data: `Image`, `Audio` and `EmbeddedResource`.

Each checks what it holds when it is made (bytes, a MIME type, a URI, at most `_MEDIA_MOST`
bytes) and gives its JSON form (`_as_json`); `media` says how each surface delivers them. The
authoring API (`burgee.Image`, ...) is these classes, so a handler's own unit test makes the
checks the tool makes; this module imports nothing of the runtime for that reason.

The values a handler returns besides data: `Image` and `Audio` (`_Media`: bytes and a MIME type,
at most `_MEDIA_MOST` = 16 MiB, one answer's together `_MEDIA_TOTAL`, checked by
`media._media_total`; `_as_json()`, the JSON form `{"type", "mime_type", "size", "data"}` in
base64, which `output._jsonable` asks for by name) and `EmbeddedResource` (a URI with a scheme,
and text or bytes with a MIME type; its JSON form has `uri`, and `text` in place of `data` when
it is text), each checked when made. It imports nothing else of the runtime: `burgee.Image`,
`burgee.Audio` and `burgee.EmbeddedResource` (`markers.py`) are these classes, so a handler's
own unit test makes the tool's checks. Joined into the tool's head only when its handlers use
them.
"""

from __future__ import annotations

from typing import Any

#: The most bytes one image or one audio clip may hold (16 MiB): an MCP client reads the whole
#: message into memory, base64 makes it a third longer, and the data goes into a model's context.
_MEDIA_MOST = 16 << 20
#: The most bytes of one answer's images, audio and resources together (a list's): as one may
#: hold, for the same reasons (`media._media_total`).
_MEDIA_TOTAL = _MEDIA_MOST
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
            # NOTE: "an": image and audio, the kinds there are, both begin with a vowel.
            wanted = f"an {self._kind}/... type"
            raise ValueError(f"{name}(mime_type=...) is {wanted}, not {mime_type!r}")
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
