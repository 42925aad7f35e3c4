# burgee: joins tail 210
"""The documents a tool describes itself with, stored once in `_DATA` and read on first use.

The clispec document (`schema`), the `--llms` manifest, the MCP tool list, the Agent Skill and
the completion table (the four shells' scripts are rendered from it, `complete.py`) say the
same things about every command in different shapes: stored as written they were nine tenths
of a large tool's file, and a script's whole file is
read (and its literals compiled) on every run. So `burgee gen` stores them as one JSON object,
each zlib-compressed on its own behind an index line, all base64-encoded (binascii's C
decoder; base64's pure-Python base85 took milliseconds); a run that needs none of them never
decodes it, and one that needs one decompresses that one. The MCP lists of a program
whose lists are short are plain JSON text instead (`Program.mcp_lists`): an MCP session
starts with them, and decompressing the rest cost it more than a millisecond.
`burgee.render.embedded` writes `_DATA` and reads it back (for tests and `gen --check`).

`_document(name, program)`: the tool's documents (clispec schema, `--llms`, the MCP tool list,
the skill, the completion table) stored once in `_DATA` (base64 of zlib of one JSON object) and
decoded on first use (`_load_json`: no `import json`); a run that describes nothing never
decodes them. Short MCP lists are plain text in `Program.mcp_lists` (`_MCP_LISTS`), answered
without decoding `_DATA` (its zlib and binascii imports and the whole object cost a session's
start about 0.9 ms). `_document_data` gives a document's bytes as decompressed (a long MCP list
goes out so, `mcp_wire.reply`); `_command_input` reads one command's line of `inputs`, which
gen stores in parts (`_input_part`) so that only the part holding it is decompressed.

The documents a session or a call reads (`_KEPT`: the MCP lists in `_DATA`, the commands'
inputs) are kept decompressed in the private cache (`boot._cache_directory`), one file a
program (`_kept`, written by the first run that reads one of them, `_keep`): later runs read
their part of it, and import neither zlib nor binascii (with the decoding, a sixth of a wide
tool's `tools/list`). A part is believed only when it is there whole and its digest is right;
else it is decompressed from `_DATA`, as with no cache at all.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from burgee.runtime.start.boot import _cache_directory, _digest, _may_write, _open_owned, _used

if TYPE_CHECKING:
    from burgee.runtime.program import Program

#: A program's `data` decoded from base64, once a document was asked for: where each part of
#: each document lies among the streams (its start, its size, the size of its text), and the
#: streams.
_PACKED: dict[Program, tuple[dict[str, list[tuple[int, int, int]]], bytes]] = {}
#: Each part of a document decompressed, by program, document and part, once one was read.
_DOCUMENT_PARTS: dict[tuple[Program, str, int], bytes] = {}
#: The documents kept decompressed in the cache (`_kept`): what a session or a call reads.
_KEPT = ("mcp_tools", "mcp_prompts", "mcp_resources", "mcp_templates", "inputs")
#: A program's kept documents' file: `<digest of its data>.documents`.
_KEPT_SUFFIX = ".documents"
#: How many programs' kept documents the cache holds: the used least recently go first.
_KEPT_FILES = 32
#: Each program's file of kept documents once looked for: its path, and where each part of
#: each document lies in it (start, size, digest); None when there is none to read.
_KEPT_INDEX: dict[Program, tuple[str, dict[str, list[tuple[int, int, bytes]]]] | None] = {}


def _document(name: str, program: Program) -> str:
    """One embedded document: schema, llms, mcp_tools, mcp_prompts, mcp_resources,
    mcp_templates, skill, completion (the table the completion scripts are rendered from) or
    inputs (`_command_input`). Only that document is decompressed: a wide tool's `tools/list`
    decoded every document before."""
    listed = program.mcp_lists.get(name)
    if listed is not None:
        # NOTE: a short MCP list is plain text: zlib's and binascii's imports and decoding
        # its document were a sixth of a session's start.
        return listed
    return _document_data(name, program).decode("utf-8")


def _document_data(name: str, program: Program) -> bytes:
    """A document's text as UTF-8, as decompressed: a long MCP list goes out so, never
    copied (`mcp_wire.reply`)."""
    listed = program.mcp_lists.get(name)
    if listed is not None:
        return listed.encode("utf-8")
    parts = _part_count(name, program)
    return b"".join(_document_part(name, number, program) for number in range(parts))


def _part_count(name: str, program: Program) -> int:
    """How many parts the document `name` is stored in (KeyError: it is not there)."""
    kept = _kept(program) if name in _KEPT else None
    if kept is not None and name in kept[1]:
        return len(kept[1][name])
    parts = _documents_index(program)[0].get(name)
    if parts is None:
        raise KeyError(name)
    return len(parts)


def _documents_index(program: Program) -> tuple[dict[str, list[tuple[int, int, int]]], bytes]:
    """Where each document's parts lie in `program.data` (an index line of
    `name:size:length`, a name once per part, then the zlib streams in that order)."""
    packed = _PACKED.get(program)
    if packed is None:
        import binascii

        index, _, streams = binascii.a2b_base64(program.data).partition(b"\n")
        parts: dict[str, list[tuple[int, int, int]]] = {}
        at = 0
        for entry in index.decode("ascii").split(","):
            name, size, length = entry.split(":")
            parts.setdefault(name, []).append((at, int(size), int(length)))
            at += int(size)
        packed = _PACKED.setdefault(program, (parts, streams))
    return packed


def _document_part(name: str, number: int, program: Program) -> bytes:
    """One part of a document, decompressed once (or read from the cache, `_kept_part`)."""
    found = _DOCUMENT_PARTS.get((program, name, number))
    if found is None:
        found = _kept_part(name, number, program) if name in _KEPT else None
        if found is None:
            found = _decompressed(name, number, program)
        _DOCUMENT_PARTS[program, name, number] = found
    return found


def _decompressed(name: str, number: int, program: Program) -> bytes:
    """One part of a document, decompressed from `program.data`."""
    import zlib

    parts, streams = _documents_index(program)
    at, size, length = parts[name][number]
    # NOTE: told the text's size, zlib makes one buffer of it; else it grows block by block
    # and copies the blocks into one at the end.
    return zlib.decompress(streams[at : at + size], bufsize=max(length, 1))


def _kept(program: Program) -> tuple[str, dict[str, list[tuple[int, int, bytes]]]] | None:
    """The file of `program`'s kept documents and where each part lies in it: read, or written
    now (`_keep`); None when there is no cache to use."""
    if program in _KEPT_INDEX:
        return _KEPT_INDEX[program]
    found = None
    directory = _cache_directory()
    if directory is not None:
        name = _digest(program.data.encode("ascii")).hex() + _KEPT_SUFFIX
        path = os.path.join(directory, name)
        found = _kept_index(path)
        if found is None and _may_write():
            found = _keep(program, path, directory)
    _KEPT_INDEX[program] = found
    return found


def _kept_index(path: str) -> tuple[str, dict[str, list[tuple[int, int, bytes]]]] | None:
    """Where each part lies in the file `path` (its index is at its end, then the index's
    digest and its start, in 8 bytes each); None when there is no such file of this user's
    alone, or it is not right (its index must be whole: a part it names is believed only by its
    own digest, and a count of parts that is not right would take a command's inputs from the
    wrong part)."""
    try:
        with _open_owned(path) as stream:
            stream.seek(-16, 2)
            sealed = stream.read(8)
            start = int.from_bytes(stream.read(8), "little")
            stream.seek(start)
            data = stream.read()[:-16]
            _used(stream)
        if _digest(data) != sealed:
            return None
        text = data.decode("ascii")
        index: dict[str, list[tuple[int, int, bytes]]] = {}
        for entry in filter(None, text.split(",")):
            name, at, size, digest = entry.split(":")
            index.setdefault(name, []).append((int(at), int(size), bytes.fromhex(digest)))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    # NOTE: a file cut short may point anywhere: one whose index is not whole is written again.
    if not index or any(at + size > start for parts in index.values() for at, size, _ in parts):
        return None
    return path, index


def _kept_part(name: str, number: int, program: Program) -> bytes | None:
    """One part of a kept document read from the cache; None when it is not there whole and
    right (it is then decompressed, `_decompressed`)."""
    kept = _kept(program)
    parts = None if kept is None else kept[1].get(name)
    if kept is None or parts is None or number >= len(parts):
        return None
    at, size, digest = parts[number]
    try:
        with _open_owned(kept[0]) as stream:
            stream.seek(at)
            data = stream.read(size)
    except OSError:
        return None
    return data if len(data) == size and _digest(data) == digest else None


def _keep(
    program: Program, path: str, directory: str
) -> tuple[str, dict[str, list[tuple[int, int, bytes]]]] | None:
    """Write the file of `program`'s kept documents (a part at a time, so the run holds one)
    atomically, as the code cache's entries are written; then drop all but the `_KEPT_FILES`
    used most recently. None when it cannot be written."""
    import _thread

    stored = _documents_index(program)[0]
    index: dict[str, list[tuple[int, int, bytes]]] = {}
    # NOTE: the thread's too: two HTTP requests of one process may be the first at once.
    temporary = f"{path}.{os.getpid()}.{_thread.get_ident()}.tmp"
    try:
        if os.path.lexists(temporary):
            os.unlink(temporary)  # NOTE: left by a process that died with this one's ids
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        with open(os.open(temporary, flags, 0o600), "wb") as out:
            at = 0
            for name in _KEPT:
                for number in range(len(stored.get(name, ()))):
                    data = _DOCUMENT_PARTS.get((program, name, number))
                    data = _decompressed(name, number, program) if data is None else data
                    out.write(data)
                    index.setdefault(name, []).append((at, len(data), _digest(data)))
                    at += len(data)
            text = ",".join(
                f"{name}:{start}:{size}:{digest.hex()}"
                for name, parts in index.items()
                for start, size, digest in parts
            )
            sealed = text.encode("ascii")
            out.write(sealed + _digest(sealed) + at.to_bytes(8, "little"))
        os.replace(temporary, path)
        kept = []
        for name in os.listdir(directory):
            if name.endswith(_KEPT_SUFFIX) and name != os.path.basename(path):
                other = os.path.join(directory, name)
                kept.append((os.lstat(other).st_mtime_ns, other))
        for _, other in sorted(kept)[: max(0, len(kept) - _KEPT_FILES + 1)]:
            os.unlink(other)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return None
    return path, index


def _input_part(path: str, parts: int) -> int:
    """Which of `parts` parts of the `inputs` document holds the line of the command `path`
    (gen splits it so, `describe/documents.inputs`): CRC-32 of the path, reckoned here, as
    zlib's import is what a run that reads the kept documents saves."""
    crc = 0xFFFFFFFF
    for byte in path.encode("utf-8"):
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return (crc ^ 0xFFFFFFFF) % parts


def _command_input(command: str, program: Program) -> str | None:
    """The JSON text of one command's entry in the `inputs` document (its input schema and
    the keys of its secret inputs), found without reading the other commands': the document
    is one line per command, `PATH<TAB>JSON`, in parts (`_input_part`): only the part that
    holds the command's line is decompressed."""
    parts = _part_count("inputs", program)
    text = _document_part("inputs", _input_part(command, parts), program).decode("utf-8")
    at = text.find("\n" + command + "\t")
    if at < 0:
        return None
    start = at + len(command) + 2
    end = text.find("\n", start)
    return text[start : None if end < 0 else end]
