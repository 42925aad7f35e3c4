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
start about 0.9 ms).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from burgee.runtime.program import Program

#: The decoded documents, by program and name, once one was asked for.
_DOCUMENTS: dict[tuple[Program, str], str] = {}
#: A program's `data` decoded from base64, once a document was asked for: its index line, its
#: streams.
_PACKED: dict[Program, tuple[bytes, bytes]] = {}


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
    found = _DOCUMENTS.get((program, name))
    if found is None:
        import binascii
        import zlib

        packed = _PACKED.get(program)
        if packed is None:
            index, _, streams = binascii.a2b_base64(program.data).partition(b"\n")
            packed = _PACKED.setdefault(program, (index, streams))
        index, streams = packed
        at = 0
        for entry in index.split(b","):
            key, _, size = entry.partition(b":")
            if key.decode("ascii") == name:
                found = zlib.decompress(streams[at : at + int(size)]).decode("utf-8")
                break
            at += int(size)
        else:
            raise KeyError(name)
        _DOCUMENTS[program, name] = found
    return found


def _command_input(command: str, program: Program) -> str | None:
    """The JSON text of one command's entry in the `inputs` document (its input schema and
    the keys of its secret inputs), found without reading the other commands': the document
    is one line per command, `PATH<TAB>JSON`."""
    text = _document("inputs", program)
    at = text.find("\n" + command + "\t")
    if at < 0:
        return None
    start = at + len(command) + 2
    end = text.find("\n", start)
    return text[start : None if end < 0 else end]
