"""burgee's runtime in the generated module, moved out of the code Python compiles on every
run, so it is compiled once (`runtime/start/boot.py`).

The template writes the runtime last, after `if __name__ == "__main__":`, between two comment
lines; `wrap()` packs what lies between them under a heading that the module's start-up code
(`_boot(globals())`, before the handlers' code) finds, compiles, or reads compiled from its
cache. The code holds burgee's runtime and, as its last section, the program's tables
(generated, and most of a wide tool's compile: `_tables()` defines them where they stood, after
the handlers they name); the handlers' code and everything else the author wrote are ordinary
code, which linters, type checkers, coverage and readers see. The code is packed (`packed_code`:
base64 of zlib, a fifth of its text, as comment lines under the code's heading, up to the line
`PACKED_END`): a script's every run reads every byte of its file, and at 500 commands reading the
code as text cost more than all the rest of the start but the handlers (the tokenizer reads a
comment faster than a string). It is compiled at the lines it would have as text, so a
traceback's line numbers are those of the module `expand()` gives (the committed goldens and
examples are in that form: the same tool, the code in a raw string, which runs as well), and
`--debug` shows those lines (`execute._packed_lines`). Neither form is in the compiled module
(comments; a string that is a statement of its own), so an installed tool's `.pyc` does not
load the code a second time. `unwrap()` gives the module with the runtime's code in place of
the call that runs it.
"""

from __future__ import annotations

import base64
import zlib

from burgee.runtime.start.boot import (
    _CODE_OPEN,
    _HEADING,
    PACKED,
    PACKED_END,
    SECTION_BEGIN,
    SECTION_END,
    _code_span,
    _unpacked,
)

BEGIN = "# ---- burgee: code ----\n"
END = "# ---- burgee: end of code ----\n"
#: What the two markers become around the code as text (`_boot` finds the code by the last
#: heading).
OPEN = _CODE_OPEN + "\n"
CLOSE = "'''\n"
#: The code's heading: a raw string (`OPEN`) or the packed code (`PACKED`) follows it.
HEADING = _HEADING
#: The line of the template that runs the code of the string.
RUN = "_boot(globals())\n"
#: The line of the template that defines the tables, from their section of the string: they
#: name the handlers, so they run after them.
TABLES_RUN = "_tables()\n"
TABLES_BEGIN = f"{SECTION_BEGIN}tables ----\n"
TABLES_END = f"{SECTION_END}tables ----\n"
#: The width of the data on a line of packed code: after `# `, the generated module's line
#: length (100), as `ruff format` leaves a comment (it would add the space).
_PACKED_WIDTH = 98


def wrap(text: str, *, packed: bool = True) -> str:
    """The module with its marked code at its end: `packed` (`packed_code`), else in a raw
    string, or in place of the line that runs it (`unwrap`'s result) when it cannot sit in
    one."""
    # NOTE: each marker is a line of its own, the template's the last BEGIN: the module's
    # docstring may show any text, and no line of the handlers' code begins as a marker does
    # (`read/source.marker_lines`).
    before, begin, rest = text.rpartition("\n" + BEGIN)
    code, end, after = rest.partition("\n" + END)
    if not (begin and end) or after.strip():
        raise ValueError("the generated module has no marked code at its end")
    before, code = before + "\n", code + "\n"
    if packed:
        return before + HEADING + packed_code(code)
    if "'''" in code or code.endswith("\\\n"):
        return _in_place(before.rstrip("\n") + "\n", code)
    return before + OPEN + code + CLOSE


def _split(text: str) -> tuple[str, str, str, bool] | None:
    """The module around its code: what comes before the code's heading, the code as text,
    what comes after it, and whether it is packed; None without code."""
    span = _code_span(text)
    if span is None:
        return None
    start, end, packed = span
    before = text[: text.rindex("\n" + HEADING, 0, start) + 1]
    if packed:
        return before, _unpacked(text[start:end])[1:], text[end + len(PACKED_END) :], True
    return before, text[start + 1 : end], text[end + len(CLOSE) :], False


def unwrap(text: str) -> str:
    """The module with the code of the string where it runs from."""
    found = _split(text)
    return text if found is None else _in_place(found[0], found[1])


def packed_code(code: str) -> str:
    """The lines under the code's heading that hold `code` packed (`boot._unpacked`)."""
    data = base64.b64encode(zlib.compress(code.encode("utf-8"), 9)).decode("ascii")
    lines = (data[at : at + _PACKED_WIDTH] for at in range(0, len(data), _PACKED_WIDTH))
    return PACKED + "".join(f"# {line}\n" for line in lines) + PACKED_END


def expand(text: str) -> str:
    """The module with its code unpacked, in a raw string: the same tool, its code readable
    where the module is read (the committed goldens and examples)."""
    found = _split(text)
    if found is None or not found[3]:
        return text
    before, code, after, _ = found
    if "'''" in code or code.endswith("\\\n"):
        return unwrap(text)
    return before + OPEN + code + CLOSE + after


def _in_place(text: str, code: str) -> str:
    """`text` with `code` in place of the line that runs it, and the tables' section of it in
    place of the line that defines them."""
    before, begin, rest = code.partition("\n" + TABLES_BEGIN)
    tables, end, after = rest.partition("\n" + TABLES_END)
    if begin and end:
        code = before + "\n" + after
        text = text.replace("\n" + TABLES_RUN, "\n" + tables + "\n", 1)
    head, run, tail = text.rpartition("\n" + RUN)
    if not run:
        raise ValueError("the generated module has no line that runs its code")
    return head + "\n" + code + tail
