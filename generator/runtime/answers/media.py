# burgee: joins head 40
"""How each surface gives a handler's images, audio and embedded resources to its caller
(the values themselves, their checks and JSON form: `media_items`).

A handler returns `Image(data, mime_type)`, `Audio(...)`, `EmbeddedResource(uri, text=... |
data=..., mime_type=...)`, or a list mixing them with strings. As data (`--json`,
`structuredContent`) one is its JSON form; over MCP each is also an `image`/`audio`/`resource`
content item (`_media_text`); in text mode the bytes go to `--output-file` or a stdout that is
not a terminal, a resource's text is printed (`_write_media`); a command that returns an image or
audio is refused before it runs when they could go nowhere else (`_bytes_for_terminal`), and
bytes known only once it ran are saved aside.

How each surface delivers them: `_media_text` (an MCP answer's `image`/`audio`/`resource`
content items, `_content_item`, and the envelope its text item carries, each item's bytes (a
resource's text) there a note of where they are) and `_write_media` (text mode: the bytes to
`--output-file`, further items to `PATH-2.EXT`, or a lone item to a stdout that is not a
terminal; a resource's text printed as text; bytes with nowhere to go saved where spilled
outputs are, `_aside` with `spill._spill_save`, since the handler ran) and `_bytes_for_terminal`
(text mode, before the handler runs: a command returning `Image` or `Audio` at a terminal
without `--output-file` is a usage error), which the program's `_MEDIA` table names only when a
command returns media.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from burgee.runtime.answers.deliver import _is_terminal
from burgee.runtime.answers.media_items import _MEDIA_TOTAL, EmbeddedResource, _Media
from burgee.runtime.answers.spill import _spill_save, _write_anew
from burgee.runtime.core.context import _agent
from burgee.runtime.core.errors import UsageError, _AfterRun, _Internal
from burgee.runtime.core.kinds import _is_media

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


def _media_total(result: object) -> None:
    """A handler's answer (the values it returned, before any is encoded: the cost of a refusal
    is the count) whose media hold more than `_MEDIA_TOTAL` bytes together: an internal error,
    as for any answer its return type does not allow."""
    items = result if type(result) is list else [result]
    total = 0
    for item in items:
        if isinstance(item, _Media):
            total += len(item.data)
        elif isinstance(item, EmbeddedResource):
            text = (item.text or "").encode("utf-8", "surrogatepass")
            total += len(item.data) if item.data is not None else len(text)
    if total > _MEDIA_TOTAL:
        raise _Internal(
            f"result: its images, audio and resources hold {total:,} bytes together, over the"
            f" limit of {_MEDIA_TOTAL:,} bytes (16 MiB) for one answer",
            hint="return fewer or smaller ones (or save them to files and return their paths)",
        )


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


def _bytes_for_terminal(shape: Any, output_file: str | None, stdout: Any) -> None:
    """Before the handler runs, in text mode: a command whose answer is bytes, whatever it
    returns (it declares `Image` or `Audio`), with no `--output-file` and stdout a terminal, is
    a usage error, and nothing ran. Any other answer (an embedded resource, text or bytes; a
    list) is known only once the handler ran: `_write_media` saves its bytes aside."""
    media = getattr(shape, "media", "")
    if output_file is None and media in ("image", "audio") and _is_terminal(stdout):
        raise UsageError(
            f"the answer is binary ({media}): not written to a terminal",
            hint="give --output-file PATH, or send stdout to a file (> FILE), or use --json",
        )


def _write_media(data: object, output_file: str | None, stdout: Any, name: str) -> str | None:
    """Text mode of a result that holds media: each item's bytes to `output_file` (the second
    and later as `NAME-2.EXT`, ..., each made anew: `spill._write_anew`), or, for a lone item
    and no `--output-file`, to stdout when it is not a terminal; without `--output-file` a
    resource's text is printed as text is.
    Returns the text left to print (a list's strings and a line per item written; "" when the
    bytes went to stdout), or None when `data` holds no media. Bytes with nowhere to go (a
    terminal, a list's, no `--output-file`) are saved aside where a cut answer's output is
    (`_aside`, among the tool `name`'s): the handler has run, so its answer is kept, not refused."""
    found = list(_media_in(data))
    if not found:
        return None
    written: dict[int | None, str] = {}
    if output_file is None:
        binary = [item for _, item in found if "text" not in item]
        buffer = getattr(stdout, "buffer", None)
        # NOTE: an agent reads a pipe as text: bytes there would be garbage in its context.
        piped = not _is_terminal(stdout) and _agent() is None
        if binary and found[0][0] is None and buffer is not None and piped:
            stdout.flush()
            buffer.write(_media_bytes(binary[0]))
            buffer.flush()
            return ""
        for index, item in found:
            # NOTE: a text resource is printed as text is
            written[index] = str(item["text"]) if "text" in item else _aside(item, name)
    else:
        import os

        stem, suffix = os.path.splitext(output_file)
        for number, (index, item) in enumerate(found, 1):
            path = output_file if number == 1 else f"{stem}-{number}{suffix}"
            try:
                if number == 1:
                    with open(path, "wb") as file:
                        file.write(_media_bytes(item))
                else:
                    # NOTE: a name the user did not give, maybe in a folder others write in
                    # (where they could plant a link under it): made anew, as a spill file.
                    _write_anew(os.path.dirname(os.path.abspath(path)), path, _media_bytes(item))
            except OSError as error:
                # NOTE: the handler has run: no `usage`, which says nothing ran.
                raise _AfterRun(f"cannot write {path}: {error.strerror or error}") from None
            written[index] = f"[{_media_note(item)} written to {path}]"
    if None in written:
        return written[None]
    assert isinstance(data, list)
    return "\n".join(written[i] if i in written else str(item) for i, item in enumerate(data))


def _aside(item: dict[str, Any], name: str) -> str:
    """Save a media item's bytes that had nowhere else to go, and say where: with the outputs
    a cut answer saves (`spill._spill_save`: this user's alone, named by their hash, so the
    same bytes are one file, pruned with the rest), its MIME type's extension after the name."""
    import mimetypes

    data = _media_bytes(item)
    suffix = mimetypes.guess_extension(str(item["mime_type"]).split(";")[0]) or ".bin"
    path = _spill_save(data, suffix, name)
    if path is None:
        raise _Internal(
            f"the answer's bytes ({_media_note(item)}) could not be saved",
            hint="give --output-file PATH, or send stdout to a file (> FILE), or use --json",
        )
    return f"[{_media_note(item)} written to {path}]"
