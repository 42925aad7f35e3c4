# burgee: joins tail 210
"""The documents a tool describes itself with, stored once in `_DATA` and read on first use.

The clispec document (`schema`), the `--llms` manifest, the MCP tool list, the Agent Skill and
the completion table (the four shells' scripts are rendered from it, `complete.py`) say the
same things about every command in different shapes: stored as written they were nine tenths
of a large tool's file, and a script's whole file is
read (and its literals compiled) on every run. So `burgee gen` stores them as one JSON object,
zlib-compressed and base64-encoded (binascii's C decoder; base64's pure-Python base85 took
milliseconds); a run that needs none of them never decodes it. The MCP lists of a program
whose lists are short are plain JSON text instead (`PROGRAM.mcp_lists`): an MCP session
starts with them, and decompressing the rest cost it more than a millisecond.
`burgee.render.embedded` writes `_DATA` and reads it back (for tests and `gen --check`).
"""

from __future__ import annotations

from burgee.runtime.execution.jsonread import _load_json
from burgee.runtime.program import PROGRAM

#: The decoded documents, by name, once one was asked for.
_DOCUMENTS: dict[str, str] = {}


def _document(name: str) -> str:
    """One embedded document: schema, llms, mcp_tools, mcp_prompts, mcp_resources,
    mcp_templates, skill or completion (the table the completion scripts are rendered from).
    Read without `import json` (`_load_json`): it would cost `schema` or an MCP `tools/list`
    more than the rest of the run."""
    listed = PROGRAM.mcp_lists.get(name)
    if listed is not None:
        # NOTE: a short MCP list is plain text: zlib's and binascii's imports and decoding
        # every document were a sixth of a session's start.
        return listed
    if not _DOCUMENTS:
        import binascii
        import zlib

        _DOCUMENTS.update(
            _load_json(zlib.decompress(binascii.a2b_base64(PROGRAM.data)).decode("utf-8"))
        )
    return _DOCUMENTS[name]
