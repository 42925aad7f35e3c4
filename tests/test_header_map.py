"""A generated module shows its own map: the header says where the user's code, the tables and
the runtime begin, and each runtime module's code in it names the file it came from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from burgee.render.join import MODULE_MARK
from burgee.runtime import catalog
from tests.helpers import GOLDEN

MODULES = sorted(p for p in GOLDEN.glob("*/*.py") if p.name != "handlers.py")
MAP_LINE = re.compile(r"^#     line (\d+): (.*)$")


def _map(text: str) -> dict[str, int]:
    """The header's map: part -> line number."""
    found = {}
    for line in text.splitlines()[:12]:
        match = MAP_LINE.match(line)
        if match:
            found[match[2].split(" (")[0]] = int(match[1])
    return found


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.parent.name)
def test_the_header_points_at_each_part(module: Path) -> None:
    text = module.read_text("utf-8")
    lines = text.splitlines()
    where = _map(text)
    assert set(where) == {"the first handler from handlers.py", "the tables", "burgee's runtime"}
    assert list(where.values()) == sorted(where.values())  # NOTE: in the order of the file
    first = where["the first handler from handlers.py"]
    # NOTE: the first function of the user's code, as the handlers file has it.
    handlers = (module.parent / "handlers.py").read_text("utf-8")
    assert lines[first - 1].startswith(("def ", "async def ")), lines[first - 1]
    # NOTE: a Typer or Click app's function named like one of the tool's own is renamed
    # (`main` -> `main_`), every use with it.
    name = lines[first - 1].partition("(")[0]
    assert f"{name}(" in handlers or f"{name.removesuffix('_')}(" in handlers
    opening = next(n for n, line in enumerate(lines) if line.startswith("# ---- From handlers.py"))
    assert opening < first - 1
    assert not any(line.startswith(("def ", "async def ")) for line in lines[opening : first - 1])
    assert lines[where["the tables"] - 1].startswith("# ---- Tables: ")
    assert lines[where["burgee's runtime"] - 1].startswith("# ---- The tool's code: compiled once")


def test_the_plain_form_maps_its_runtime_at_the_top(plain_tool) -> None:
    text = plain_tool(GOLDEN / "clikit").read_text("utf-8")
    lines = text.splitlines()
    where = _map(text)
    assert where["burgee's runtime"] < where["the first handler from handlers.py"]
    assert where["the first handler from handlers.py"] < where["the tables"]
    assert lines[where["burgee's runtime"] - 1].startswith("# ---- Start-up (burgee")
    assert lines[where["the first handler from handlers.py"] - 1].startswith("def greet(")


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.parent.name)
def test_every_runtime_line_leads_to_its_source_file(module: Path) -> None:
    """Each line of the runtime's code is a line of the module its nearest mark names, so a
    traceback's line number leads back to the runtime's source file."""
    lines = module.read_text("utf-8").splitlines()
    start = _map("\n".join(lines))["burgee's runtime"]
    named: str | None = None
    sources: dict[str, set[str]] = {}
    checked = 0
    for line in lines[start:]:
        if line.startswith("# ---- Tables: "):
            break  # NOTE: the program's own tables, at the string's end, are no module's
        if line.startswith(MODULE_MARK):
            named = line.removeprefix(MODULE_MARK)
            short = named.rpartition(".")[2]
            assert catalog.dotted(short) == named
            sources[named] = {s.strip() for s in catalog.source(short).splitlines()}
            continue
        text = line.strip()
        if named is None or not text or text.startswith("#") or text == "'''":
            continue
        assert text in sources[named], f"{text!r} is not a line of {named}"
        checked += 1
    assert len(sources) > 10 and checked > 3000
