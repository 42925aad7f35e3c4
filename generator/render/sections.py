"""burgee's runtime in the generated module, moved into a raw string so it is compiled once
(`runtime/start/boot.py`).

The template writes the runtime last, after `if __name__ == "__main__":`, between two comment
lines; `wrap()` turns what lies between them into a raw string that the module's start-up
code (`_boot(globals(), _LAZY)`, before the handlers' code) compiles, or reads compiled from
its cache. The string holds burgee's runtime and, as its last section, the program's tables
(generated, and most of a wide tool's compile: `_tables()` defines them where they stood, after
the handlers they name); the handlers' code and everything else the author wrote are ordinary
code, which linters, type checkers, coverage and readers see. The string holds the code packed
(`packed_code`: base64 of zlib, a fifth of its text): a script's every run reads every byte of its
file, the string's too, and at 500 commands reading the code as text cost more than all the
rest of the start but the handlers. It is compiled at the lines it would have as text, so a
traceback's line numbers are those of the module `expand()` gives (the committed goldens and
examples are in that form: the same tool, the code readable in its string), and `--debug`
shows those lines (`execute._packed_lines`). The string is a statement of its own: the
compiler drops it, so an installed tool's `.pyc` does not load the code a second time.
`unwrap()` gives the module with the runtime's code in place of the call that runs it.
"""

from __future__ import annotations

import base64
import zlib

from burgee.runtime.start.boot import _CODE_OPEN, PACKED, SECTION_BEGIN, SECTION_END, _unpacked

BEGIN = "# ---- burgee: code ----\n"
END = "# ---- burgee: end of code ----\n"
#: What the two markers become around the code (`_boot` finds the code by the last opening).
OPEN = _CODE_OPEN + "\n"
CLOSE = "'''\n"
#: The line of the template that runs the code of the string.
RUN = "_boot(globals(), _LAZY)\n"
#: The line of the template that defines the tables, from their section of the string: they
#: name the handlers, so they run after them.
TABLES_RUN = "_tables()\n"
TABLES_BEGIN = f"{SECTION_BEGIN}tables ----\n"
TABLES_END = f"{SECTION_END}tables ----\n"
#: The width of a line of packed code (the generated module's line length).
_PACKED_WIDTH = 100


def wrap(text: str, *, packed: bool = True) -> str:
    """The module with its marked code in the string, `packed` (`pack`); unpacked, the code in
    place of the line that runs it (`unwrap`'s result) when it cannot sit in a raw
    triple-quoted string."""
    # NOTE: each marker is a line of its own, the template's the last BEGIN: the module's
    # docstring may show any text, and no line of the handlers' code begins as a marker does
    # (`read/source.marker_lines`).
    before, begin, rest = text.rpartition("\n" + BEGIN)
    code, end, after = rest.partition("\n" + END)
    if not (begin and end) or after.strip():
        raise ValueError("the generated module has no marked code at its end")
    before, code = before + "\n", code + "\n"
    if packed:
        return before + OPEN + packed_code(code) + CLOSE
    if "'''" in code or code.endswith("\\\n"):
        return _in_place(before.rstrip("\n") + "\n", code)
    return before + OPEN + code + CLOSE


def unwrap(text: str) -> str:
    """The module with the code of the string where it runs from."""
    # NOTE: the last opening, as `boot._source` finds it: the docstring may show its text.
    before, begin, rest = text.rpartition("\n" + OPEN)
    code, end, _ = rest.partition(CLOSE)
    if not (begin and end):
        return text
    return _in_place(before + "\n", _unpacked("\n" + code)[1:])


def packed_code(code: str) -> str:
    """The content of the string that holds `code` packed (`boot._unpacked` unpacks it)."""
    data = base64.b64encode(zlib.compress(code.encode("utf-8"), 9)).decode("ascii")
    lines = (data[at : at + _PACKED_WIDTH] for at in range(0, len(data), _PACKED_WIDTH))
    return PACKED + "".join(line + "\n" for line in lines)


def expand(text: str) -> str:
    """The module with the code of its string unpacked, in the string still: the same tool,
    its code readable where the module is read (the committed goldens and examples)."""
    before, begin, rest = text.rpartition("\n" + OPEN)
    code, end, after = rest.partition(CLOSE)
    if not (begin and end) or not code.startswith(PACKED):
        return text
    plain = _unpacked("\n" + code)[1:]
    if "'''" in plain or plain.endswith("\\\n"):
        return unwrap(text)
    return before + begin + plain + end + after


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
