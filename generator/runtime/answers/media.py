"""How each surface gives a handler's images, audio and embedded resources to its caller
(the values themselves, their checks and JSON form: `media_items`).

A handler returns `Image(data, mime_type)`, `Audio(...)`, `EmbeddedResource(uri, text=... |
data=..., mime_type=...)`, or a list mixing them with strings. As data (`--json`,
`structuredContent`) one is its JSON form; over MCP each is also an `image`/`audio`/`resource`
content item (`_media_text`); in text mode the bytes go to `--output-file` or a stdout that is
not a terminal, a resource's text is printed (`_write_media`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _is_terminal
from burgee.runtime.execution.errors import UsageError
from burgee.runtime.execution.kinds import _is_media

if TYPE_CHECKING:
    from collections.abc import Iterator


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
