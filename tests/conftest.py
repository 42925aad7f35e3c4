"""Session-wide settings for the test suite."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from tests.helpers import plain_build

# NOTE: a drawn input is drawn the same way on every run, so a suite's verdict is the code's,
# not the draw's: a rare failure once found at random in one CI run and not the next is a
# defect of the suite. `pytest --hypothesis-profile explore` draws afresh (and more) to hunt.
settings.register_profile("deterministic", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=500)
settings.load_profile("deterministic")

# NOTE: generated tools keep their compiled code in a private cache (runtime/start/boot.py); the
# suite runs thousands of tools from temporary paths, so it gets a cache of its own rather
# than filling the user's ~/.cache/burgee. Tests that are about the cache set their own.
if "BURGEE_CACHE_DIR" not in os.environ:
    os.environ["BURGEE_CACHE_DIR"] = _CACHE = tempfile.mkdtemp(prefix="burgee-test-cache-")
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def plain_tool(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path], Path]:
    """The `burgee gen --plain` build of a golden case or an example (built once a session)."""
    folder = tmp_path_factory.mktemp("plain")
    built: dict[Path, Path] = {}

    def build(case: Path) -> Path:
        if case not in built:
            built[case] = plain_build(case, folder)
        return built[case]

    return build
