"""burgee's own code is held to the bar it sets for the code it generates."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import REPO


def test_generator_passes_mypy_strict(tmp_path: Path) -> None:
    # NOTE: the package `burgee` lives in the folder `generator/`; a symlink named after
    # the package lets mypy find it the way Python's import system does after install.
    (tmp_path / "burgee").symlink_to(REPO / "generator")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "burgee", "--cache-dir", str(tmp_path / "cache")],
        cwd=REPO,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_and_format_are_clean() -> None:
    for args in (["check"], ["format", "--check"]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *args, "--no-cache", "generator", "tests", "bench"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
