"""The import blocks gen writes fit the line limit where they stand: a long import wrapped
counting the indent of the block it goes in (`_import_handlers`, `if TYPE_CHECKING:`)."""

from __future__ import annotations

from pathlib import Path

from burgee.read.program import read_program
from burgee.render.imports import ImportBlock
from burgee.render.placed_imports import _checking_block, deferred_imports

#: pyproject's `line-length` for every module gen writes.
LIMIT = 100

LONG = (
    "from xml.etree.ElementTree import Comment, Element, ElementTree, ProcessingInstruction,"
    " SubElement, XMLParser, fromstring, tostring"
)

SOURCE = f'''\
"""imp: long imports."""
from __future__ import annotations

{LONG}

from burgee import command, program

program(name="imp", version="1.0.0")


@command(effects="read_only")
def go() -> str:
    """Go."""
    return str(tostring(Element("a")))
'''


def _too_long(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > LIMIT]


def test_an_indented_block_wraps_counting_its_indent() -> None:
    block = ImportBlock.of(LONG)
    text = block.render(indent="    ")
    assert all(line.startswith("    ") for line in text.splitlines() if line)
    assert not _too_long(text)
    # NOTE: a line that fits with its indent stays one line.
    assert block.render(width=200, indent="    ").count("\n") == 1


def test_the_deferred_and_type_checking_imports_fit_the_limit(tmp_path: Path) -> None:
    """`_import_handlers` indents the deferred imports under its `def`: wrapped at the
    module's width, they were 3 columns over it before ruff's pass."""
    path = tmp_path / "handlers.py"
    path.write_text(SOURCE, encoding="utf-8")
    program = read_program(SOURCE, str(path))
    deferred, _ = deferred_imports(program)
    assert "tostring" in deferred and not _too_long(deferred)
    checking = _checking_block([LONG.replace("xml.etree", "xml.etree" + ".x" * 10)], [], [])
    assert "if TYPE_CHECKING:" in checking and not _too_long(checking)
