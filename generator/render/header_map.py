"""The map in a generated module's header: the line where each of its parts begins.

Filled in last, once the module is formatted and its runtime wrapped, so the numbers are
those of the file as written (its code unpacked, as a traceback counts); the map's lines are
in the header from the start (one `@@map@@` each), so filling them in moves nothing.
"""

from __future__ import annotations

from burgee.render.sections import expand

PLACEHOLDER = "@@map@@"
_FUNCTION = ("def ", "async def ")

#: Each part -> the opening lines of it (the first found): a plain module (`gen --plain`) has
#: its runtime at the top, a compiled-once module in the string at the end.
_PARTS = {
    "the first handler from {source}": ("# ---- From ",),
    "the tables (commands, groups, errors, result shapes)": ("# ---- Tables: ",),
    "burgee's runtime (each module begins `# -- module: burgee.runtime.NAME`)": (
        "# ---- The tool's code: compiled once",
        "# ---- Start-up (burgee",
    ),
}


def mapped(text: str, source: str) -> str:
    """`text` with its header's map filled in, in the order of the file; `source`: the
    handlers file's name. The lines are those of the file with its code unpacked
    (`sections.expand`): a traceback's, and the tables' (in the code)."""
    lines = expand(text).split("\n")
    found: list[tuple[int, str]] = []
    for part, openings in _PARTS.items():
        at = next((n for n, line in enumerate(lines) if line.startswith(openings)), None)
        if at is None:
            continue
        if openings[0] == "# ---- From ":
            # NOTE: the first function, where a person looks for their handlers (the code
            # before it may be imports and classes the handlers use).
            at = next((n for n in range(at + 1, len(lines)) if lines[n].startswith(_FUNCTION)), at)
        found.append((at + 1, part.format(source=source)))
    entries = [f"line {number}: {part}" for number, part in sorted(found)]
    for entry in entries + ["-"] * (text.count(PLACEHOLDER) - len(entries)):
        text = text.replace(PLACEHOLDER, entry, 1)
    return text
