"""The generated module's code, moved into a raw string so it is compiled once (`runtime/boot.py`).

The template marks the code with two comment lines; `wrap()` turns what lies between them
into a raw string that `_boot` compiles (or reads compiled from its cache) at start-up, and
`unwrap()` gives back the plain module, which is what linters and type checkers read. The
text inside the string is exactly the code, line for line: a person reads and patches it as
code, and tracebacks point at its lines. The string is a statement of its own: the compiler
drops it, so an installed tool's `.pyc` does not load the code a second time.
"""

from __future__ import annotations

from burgee.runtime.boot import _CODE_OPEN

BEGIN = "# ---- burgee: code ----\n"
END = "# ---- burgee: end of code ----\n"
#: What the two markers become around the code (`_boot` finds the code by the last opening).
OPEN = _CODE_OPEN + "\n"
CLOSE = "'''\nmain = _boot(globals(), _LAZY)\n"
#: The module's `from __future__` line, and what it becomes when its code is in the string:
#: the code is compiled as under it, and importing `__future__` would cost every run.
FUTURE = "from __future__ import annotations\n"
FUTURE_NOTE = "# _boot compiles the code as under `from __future__ import annotations`.\n"


def wrap(text: str) -> str:
    """The module with its marked code in the string; plain (markers removed) when the code
    cannot sit in a raw triple-quoted string."""
    # NOTE: each marker is a line of its own, the template's the last BEGIN: the module's
    # docstring, before it, may show any text, and no line of the handlers' code (after it)
    # begins as a marker does (`read/source.marker_lines`).
    before, begin, rest = text.rpartition("\n" + BEGIN)
    code, end, after = rest.partition("\n" + END)
    if not (begin and end):
        raise ValueError("the generated module has no marked code")
    before, code = before + "\n", code + "\n"
    if "'''" in code or code.endswith("\\\n"):
        return before + code + after
    return before.replace(FUTURE, FUTURE_NOTE, 1) + OPEN + code + CLOSE + after


def unwrap(text: str) -> str:
    """The plain module: the code of the string back where it runs from."""
    # NOTE: the last opening, as `boot._source` finds it: the docstring may show its text.
    before, begin, rest = text.rpartition(OPEN)
    code, end, after = rest.partition(CLOSE)
    if not (begin and end):
        return text
    return before.replace(FUTURE_NOTE, FUTURE, 1) + code + after
