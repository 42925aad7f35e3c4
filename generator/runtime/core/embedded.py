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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from burgee.runtime.program import Program

#: A program's `data` decoded from base64, once a document was asked for: where each part of
#: each document lies among the streams (its start, its size, the size of its text), and the
#: streams.
_PACKED: dict[Program, tuple[dict[str, list[tuple[int, int, int]]], bytes]] = {}
#: Each part of a document decompressed, by program, document and part, once one was read.
_DOCUMENT_PARTS: dict[tuple[Program, str, int], bytes] = {}


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
    parts = _documents_index(program)[0].get(name)
    if parts is None:
        raise KeyError(name)
    return b"".join(_document_part(name, number, program) for number in range(len(parts)))


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
    """One part of a document, decompressed once."""
    found = _DOCUMENT_PARTS.get((program, name, number))
    if found is None:
        import zlib

        parts, streams = _documents_index(program)
        at, size, length = parts[name][number]
        # NOTE: told the text's size, zlib makes one buffer of it; else it grows block by
        # block and copies the blocks into one at the end.
        found = zlib.decompress(streams[at : at + size], bufsize=max(length, 1))
        _DOCUMENT_PARTS[program, name, number] = found
    return found


def _input_part(path: str, parts: int) -> int:
    """Which of `parts` parts of the `inputs` document holds the line of the command `path`
    (gen splits it so, `describe/documents.inputs`)."""
    import zlib

    return zlib.crc32(path.encode("utf-8")) % parts


def _command_input(command: str, program: Program) -> str | None:
    """The JSON text of one command's entry in the `inputs` document (its input schema and
    the keys of its secret inputs), found without reading the other commands': the document
    is one line per command, `PATH<TAB>JSON`, in parts (`_input_part`): only the part that
    holds the command's line is decompressed."""
    parts = _documents_index(program)[0].get("inputs")
    if parts is None:
        raise KeyError("inputs")
    text = _document_part("inputs", _input_part(command, len(parts)), program).decode("utf-8")
    at = text.find("\n" + command + "\t")
    if at < 0:
        return None
    start = at + len(command) + 2
    end = text.find("\n", start)
    return text[start : None if end < 0 else end]
