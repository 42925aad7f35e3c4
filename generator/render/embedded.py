"""`_DATA`: the tool's documents as one compressed literal (read by `runtime/agents/embedded.py`).

zlib's output may differ between zlib builds for the same input, so nothing compares `_DATA`
byte for byte: `normalized()` puts the decoded documents in its place, one key per line, for
`gen --check` and the golden tests.
"""

from __future__ import annotations

import base64
import json
import re
import zlib

#: The names `runtime/agents/embedded._document` answers.
DOCUMENTS = (
    "schema",
    "llms",
    "mcp_tools",
    "skill",
    "completion",
)
#: The documents only a program with prompts or resources has (`runtime/agents/surfaces.py`), and
#: the forms of one whose handlers call `ctx.form` (`runtime/execution/fields.py`).
OPTIONAL = ("mcp_prompts", "mcp_resources", "mcp_templates", "forms")
_WIDTH = 92
_BLOCK = re.compile(r"^_DATA = \(\n((?:    \"[^\"\n]*\"\n)+)\)\n", re.MULTILINE)


def encode(documents: dict[str, str]) -> str:
    """The `_DATA = (...)` assignment for `documents` (every name in DOCUMENTS, and those
    of OPTIONAL the program has)."""
    assert set(DOCUMENTS) <= set(documents) <= {*DOCUMENTS, *OPTIONAL}, sorted(documents)
    packed = pack(documents)
    lines = [f'    "{packed[i : i + _WIDTH]}"' for i in range(0, len(packed), _WIDTH)]
    return "_DATA = (\n" + "\n".join(lines) + "\n)\n"


def pack(documents: dict[str, str]) -> str:
    """The value of `_DATA` for `documents`: base64 of zlib of one JSON object."""
    text = json.dumps(documents, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # NOTE: level 6, not 9: the same size within 1%, a quarter of the time on a large tool.
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")


def unpack(packed: str) -> dict[str, str]:
    """The documents of a `_DATA` value."""
    return json.loads(zlib.decompress(base64.b64decode(packed)))  # type: ignore[no-any-return]


def decode(module: str) -> dict[str, str]:
    """The documents of a generated module's `_DATA`."""
    found = _BLOCK.search(module)
    if found is None:
        raise ValueError("no _DATA block")
    return unpack("".join(line.strip()[1:-1] for line in found.group(1).splitlines()))


def normalized(module: str) -> str:
    """The module with `_DATA` decoded at its end, one document and one JSON key per line."""
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
