"""Format the generated module with ruff, so every tool is `ruff format`-clean as written.

The handlers' own code is copied into the tool as the user wrote it, so only a formatter
can make the whole file clean; ruff is pinned to one minor version because a new style
would change every generated file (and the goldens) without any change in burgee.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable

from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

#: The line length of generated modules (and of burgee's own code).
LINE_LENGTH = 100


class FormatError(Exception):
    """ruff refused the generated source: a bug in burgee, never in the handlers file."""


def formatted(source: str, name: str, meanwhile: Callable[[], None] | None = None) -> str:
    """`source` as `ruff format` writes it; `meanwhile`: work done while ruff formats (it
    reads the whole source before it writes any of it), the process reaped if that fails."""
    ruff = subprocess.Popen(
        [
            find_ruff_bin(),
            "format",
            "--isolated",
            "--line-length",
            str(LINE_LENGTH),
            "--stdin-filename",
            name,
            "-",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    try:
        if meanwhile is not None:
            assert ruff.stdin is not None
            try:
                ruff.stdin.write(source)
                ruff.stdin.flush()
            except BrokenPipeError:
                pass  # NOTE: ruff ended early; what it says comes with its exit code
            meanwhile()
            source = ""  # NOTE: given already; `communicate` closes ruff's stdin
        out, err = ruff.communicate(source or None)
    except BaseException:
        ruff.kill()
        ruff.communicate()
        raise
    if ruff.returncode != 0:
        raise FormatError(f"ruff could not format the generated {name}: {err.strip()}")
    return out
