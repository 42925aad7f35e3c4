"""The one program object the runtime reads (`runtime/program.py`)."""

from __future__ import annotations

import pytest

from burgee.render.join import join
from burgee.runtime.program import PROGRAM, TABLES, Program, replaced
from tests.helpers import REPO


def test_the_program_is_read_only() -> None:
    with pytest.raises(AttributeError, match="read only"):
        PROGRAM.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read only"):
        del PROGRAM.commands
    assert PROGRAM.name == "tool"


def test_a_program_is_made_with_every_fact_and_replaced_with_some() -> None:
    other = replaced(PROGRAM, name="other", config=True)
    assert (other.name, other.config, other.commands) == ("other", True, PROGRAM.commands)
    assert (PROGRAM.name, PROGRAM.config) == ("tool", False)
    with pytest.raises(TypeError):
        replaced(PROGRAM, commandz={})


def test_every_fact_has_its_table_in_the_generated_file() -> None:
    assert set(TABLES) == set(Program.__slots__)
    text = (REPO / "tests" / "golden" / "kitchen" / "kitchen.py").read_text(encoding="utf-8")
    call = text[text.index("\nPROGRAM = Program(\n") :].split("\n)\n")[0]
    # NOTE: a table a program has none of is written as its empty value (`resources={}`).
    written = {line.strip().partition("=")[0] for line in call.splitlines()[2:]}
    assert written == set(TABLES)
    assert "    commands=COMMANDS," in call and "    name=PROGRAM_NAME," in call


def test_only_the_type_is_joined_the_generated_file_builds_its_own_program() -> None:
    joined = join({"main"})
    assert "Program" in joined.bound
    assert not {"PROGRAM", "TABLES", "replaced"} & joined.bound
