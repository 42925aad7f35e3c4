"""The fast position index agrees with libcst's own position pass on every node it knows."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from burgee.read.positions import Positions
from tests.helpers import ERRORS, GOLDEN, REPO

FILES = [
    *sorted(GOLDEN.glob("*/handlers.py")),
    *sorted(REPO.glob("examples/*/handlers.py")),
    *sorted(p for p in ERRORS.glob("*.py") if p.stem != "syntax"),
]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_fast_positions_match_libcst(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    module = cst.parse_module(source)
    fast = Positions(module, source)
    exact = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert fast.known
    for node, (line, column) in fast.known.items():
        start = exact[node].start
        assert (line, column) == (start.line, start.column + 1), type(node).__name__


def test_non_ascii_before_a_parameter_counts_characters() -> None:
    source = 'def f(a: str = "é東", b: int = 1) -> None:\n    pass\n'
    module = cst.parse_module(source)
    fast = Positions(module, source)
    function = module.body[0]
    assert isinstance(function, cst.FunctionDef)
    assert fast.start(function.params.params[1]) == (1, 22)
