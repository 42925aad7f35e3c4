"""Format the generated module with ruff, so every tool is `ruff format`-clean as written.

The handlers' own code is copied into the tool as the user wrote it, so only a formatter
can make the whole file clean; ruff is pinned to one minor version because a new style
would change every generated file (and the goldens) without any change in burgee.
"""

from __future__ import annotations

import subprocess

from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

#: The line length of generated modules (and of burgee's own code).
LINE_LENGTH = 100


class FormatError(Exception):
    """ruff refused the generated source: a bug in burgee, never in the handlers file."""


def formatted(source: str, name: str) -> str:
    """`source` as `ruff format` writes it."""
    result = subprocess.run(
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
        input=source,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if result.returncode != 0:
        raise FormatError(f"ruff could not format the generated {name}: {result.stderr.strip()}")
    return result.stdout
