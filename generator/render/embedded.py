"""`_DATA`: the tool's documents as one literal, each compressed on its own (read by
`runtime/core/embedded.py`).

zlib's output may differ between zlib builds for the same input, so nothing compares `_DATA`
byte for byte: `normalized()` puts the decoded documents in its place, one key per line, for
`gen --check` and the golden tests.

`encode()` writes `_DATA` (with the prompts/resources lists only in a program that has them) and
`_MCP_LISTS` (the MCP lists, out of `_DATA` as plain JSON text when they are short: up to
`SHORT`, 8,192 characters in all; else empty); `decode()`/`normalized()` read it back (the
golden tests and `gen --check` compare and diff the decoded documents, one key per line, after
the code).
"""

from __future__ import annotations

import ast
import base64
import json
import re
import zlib

from burgee.render.sections import expand
from burgee.runtime.program import _packed

#: The names `runtime/core/embedded._document` answers.
DOCUMENTS = (
    "schema",
    "llms",
    "mcp_tools",
    "skill",
    "completion",
    "inputs",
)
#: The documents only a program with prompts or resources has (`runtime/agents/surfaces.py`), and
#: the forms of one whose handlers call `ctx.form` (`runtime/core/fields.py`).
OPTIONAL = ("mcp_prompts", "mcp_resources", "mcp_templates", "forms")
#: The lists an MCP session starts with (`tools/list`, ...), by document name.
MCP_LISTS = ("mcp_tools", "mcp_prompts", "mcp_resources", "mcp_templates")
#: Up to this many characters in all, the MCP lists are written as plain text (`_MCP_LISTS`),
#: out of `_DATA`: a session then lists them without importing zlib and binascii and decoding
#: every document (about 0.9 ms of a 16 ms start); a longer list costs the file more than that.
SHORT = 8192
_WIDTH = 92
#: A line of `_MCP_LISTS` (a backslash in the text takes two characters in the literal).
_PLAIN = 80
_BLOCK = re.compile(r"^_DATA = \(\n((?:    \"[^\"\n]*\"\n)+)\)\n", re.MULTILINE)


def encode(documents: dict[str, str | list[str]]) -> str:
    """The `_DATA = (...)` and `_MCP_LISTS = {...}` assignments for `documents` (every name in
    DOCUMENTS, and those of OPTIONAL the program has)."""
    assert set(DOCUMENTS) <= set(documents) <= {*DOCUMENTS, *OPTIONAL}, sorted(documents)
    lists = {
        name: text
        for name, text in documents.items()
        if name in MCP_LISTS and isinstance(text, str)
    }
    if sum(map(len, lists.values())) > SHORT:
        lists = {}
    packed = pack({name: text for name, text in documents.items() if name not in lists})
    lines = [f'    "{packed[i : i + _WIDTH]}"' for i in range(0, len(packed), _WIDTH)]
    plain = [
        f"    {name!r}: (\n"
        + "".join(f"        {text[i : i + _PLAIN]!r}\n" for i in range(0, len(text), _PLAIN))
        + "    ),"
        for name, text in sorted(lists.items())
    ]
    return (
        "_DATA = (\n"
        + "\n".join(lines)
        + "\n)\n"
        + _LISTS_COMMENT
        + "_MCP_LISTS: dict[str, str] = {"
        + ("\n" + "\n".join(plain) + "\n" if plain else "")
        + "}\n"
    )


_LISTS_COMMENT = """\
#: The MCP lists (`tools/list`, ...) as plain JSON when they are short, read without decoding
#: `_DATA`; empty when they are in it.
"""


def pack(documents: dict[str, str | list[str]]) -> str:
    """The value of `_DATA` for `documents` (one writer: the runtime's stand-in uses it too)."""
    return _packed(documents)


def unpack(packed: str) -> dict[str, str]:
    """The documents of a `_DATA` value (a document in parts, its parts joined)."""
    index, _, streams = base64.b64decode(packed).partition(b"\n")
    documents: dict[str, str] = {}
    at = 0
    for entry in index.decode("ascii").split(","):
        name, size, _ = entry.split(":")
        text = zlib.decompress(streams[at : at + int(size)]).decode("utf-8")
        documents[name] = documents.get(name, "") + text
        at += int(size)
    return documents


def decode(module: str) -> dict[str, str]:
    """The documents of a generated module: its `_DATA`'s and its `_MCP_LISTS`."""
    module = expand(module)
    found = _BLOCK.search(module)
    if found is None:
        raise ValueError("no _DATA block")
    packed = "".join(line.strip()[1:-1] for line in found.group(1).splitlines())
    return {**unpack(packed), **_plain_lists(module)}


def _plain_lists(module: str) -> dict[str, str]:
    """The MCP lists a generated module writes as plain text (`_MCP_LISTS`)."""
    start = module.find("\n_MCP_LISTS: dict[str, str] = {")
    if start < 0:
        return {}
    start = module.index("{", start)
    end = start + 2 if module.startswith("{}", start) else module.index("\n}\n", start) + 2
    found: dict[str, str] = ast.literal_eval(module[start:end])
    return found


def normalized(module: str) -> str:
    """The module with its code unpacked (`sections.expand`) and `_DATA` decoded at its end,
    one document and one JSON key per line."""
    module = expand(module)
    found = _BLOCK.search(module)
    if found is None:
        return module
    shown = []
    for name, text in sorted(decode(module).items()):
        try:
            laid = json.dumps(json.loads(text), indent=1, ensure_ascii=False, sort_keys=True)
        except ValueError:
            laid = text
        lines = "".join(f"#   {line}\n" for line in laid.split("\n"))
        shown.append(f"# _DATA[{name!r}]:\n{lines}")
    # NOTE: after the code, so a diff shows a change in the code first.
    return module[: found.start()] + module[found.end() :] + "".join(shown)
