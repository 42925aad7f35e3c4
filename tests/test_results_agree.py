"""Results with enums, Decimals and dates, and `action_required`: the same payload on the
command line (`--json`), with `--json` input, and through the official MCP Python SDK; text
output shows enum values, never member names."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from tests.helpers import InProcessTool, generate, in_process, invoked, run

#: Slow: the official MCP SDK client (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

HANDLERS = '''
"""Pantry."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum, IntEnum

from burgee import Context, command, program

program(name="pantry", version="1.0.0")


class Unit(str, Enum):
    GRAM = "g"
    PIECE = "pc"
    LITRE = "l"


class Priority(IntEnum):
    LOW = 1
    HIGH = 2


class Shelf(Enum):
    TOP = "top"
    BOTTOM = "bottom"


@dataclass
class Item:
    name: str
    unit: Unit
    priority: Priority
    shelf: Shelf
    best_before: datetime.date
    price: Decimal
    alternatives: list[Unit] = field(default_factory=list)


@command(effects="idempotent")
def add(name: str, unit: Unit = Unit.GRAM) -> Item:
    """Add an item."""
    return Item(name, unit, Priority.HIGH, Shelf.TOP, datetime.date(2026, 12, 24),
                Decimal("1E+2"), [Unit.PIECE, unit])


@command(effects="read_only")
def items() -> list[Item]:
    """List the items."""
    return [
        Item("salt", Unit.GRAM, Priority.LOW, Shelf.BOTTOM, datetime.date(2030, 1, 1),
             Decimal("0.50")),
    ]


@command(effects="read_only")
def total() -> Decimal:
    """What it all costs."""
    return Decimal("1E+2")


@command(effects="read_only")
def units() -> list[Unit]:
    """Every unit."""
    return list(Unit)


@command(effects="read_only")
def wrong() -> Item:
    """Claims an Item, returns a unit it does not have."""
    item = Item("x", Unit.GRAM, Priority.LOW, Shelf.TOP, datetime.date(2026, 1, 1), Decimal(1))
    item.unit = "kg"  # type: ignore[assignment]
    return item


@command(effects="destructive", confirm=False)
def clear(yes: bool = False, ctx: Context = None) -> int:
    """Empty the pantry."""
    if not yes:
        ctx.action_required(
            reason="confirm",
            message="clearing cannot be undone",
            next=[{"command": "clear --yes", "when": "to clear anyway"}],
        )
    return 0
'''

#: (command, JSON input, the same on the command line)
CALLS = [
    ("add", {"name": "flour", "unit": "l"}, ["add", "--name", "flour", "--unit", "l"]),
    ("items", {}, ["items"]),
    ("total", {}, ["total"]),
    ("units", {}, ["units"]),
    ("wrong", {}, ["wrong"]),
    ("clear", {}, ["clear"]),
]


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("pantry"), HANDLERS)


@pytest.fixture(scope="module")
def asked(tool: Path) -> InProcessTool:
    """The tool asked in this process, for the tests where the process does not matter."""
    return in_process(tool)


def _without_meta(envelope: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in envelope.items() if key != "meta"}


def _mcp_calls(tool: Path, mode: str) -> list[Any]:
    async def go() -> list[Any]:
        # NOTE: in the tool's folder, as `run()` runs it: a `next` line starts `cd FOLDER &&`.
        params = StdioServerParameters(
            command=sys.executable, args=[str(tool), "--mcp"], cwd=str(tool.parent)
        )
        async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
            return [await client.call_tool(name, arguments) for name, arguments, _ in CALLS]

    return asyncio.run(go())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_cli_json_input_and_the_sdk_client_agree(tool: Path, mode: str) -> None:
    # NOTE: subprocesses: an answer's `next` lines run the tool again as it was run.
    results = _mcp_calls(tool, mode)
    for (name, arguments, argv), result in zip(CALLS, results, strict=True):
        by_flags = run(tool, *argv, "--json")
        by_input = run(tool, name, "--json", json.dumps(arguments))
        assert "Traceback" not in by_flags.err + by_input.err
        text = next(block.text for block in result.content if isinstance(block, TextContent))
        # NOTE: over MCP the text is the `--json` envelope byte for byte.
        assert text == by_input.out.strip(), name
        assert _without_meta(by_flags.json()) == _without_meta(by_input.json()), name
        assert by_flags.code == by_input.code
        envelope = json.loads(text)
        assert result.is_error is (not envelope["ok"])
        if envelope["ok"]:
            data = envelope["data"]
            # NOTE: only an object result (a dataclass here) is structuredContent as it is.
            wrapped = name != "add"
            assert result.structured_content == ({"result": data} if wrapped else data)


def test_the_payloads_themselves(tool: Path) -> None:
    added = run(tool, "add", "--name", "flour", "--unit", "l", "--json").json()
    assert added["data"] == {
        "name": "flour",
        "unit": "l",
        "priority": 2,
        "shelf": "top",
        "best_before": "2026-12-24",
        "price": "1E+2",
        "alternatives": ["pc", "l"],
    }
    assert run(tool, "total", "--json").json()["data"] == "1E+2"
    assert run(tool, "units", "--json").json()["data"] == ["g", "pc", "l"]
    wrong = run(tool, "wrong", "--json")
    assert wrong.code == 1
    assert wrong.json()["error"]["kind"] == "internal"
    assert wrong.json()["error"]["message"] == "result.unit: expected one of g, pc, l, got 'kg'"
    cleared = run(tool, "clear", "--json")
    assert cleared.code == 4
    assert cleared.json() == {
        "ok": False,
        "status": "action_required",
        "reason": "confirm",
        "error": {
            "kind": "action_required",
            "message": "clearing cannot be undone",
            "hint": f"run '{invoked(tool, tool.parent)} clear --yes --json' to clear anyway",
        },
        "next": [
            {
                "command": f"{invoked(tool, tool.parent)} clear --yes --json",
                "when": "to clear anyway",
            }
        ],
    }


def test_text_shows_enum_values(asked: InProcessTool) -> None:
    added = asked.run("add", "--name", "flour")
    assert added.code == 0
    assert "unit:         g" in added.out
    assert "priority:     2" in added.out
    assert "Unit." not in added.out
    assert "Priority." not in added.out
    listed = asked.run("items")
    assert listed.out.splitlines()[1].split()[:4] == ["salt", "g", "1", "bottom"]


def test_mcp_result_with_a_wrong_type_is_an_error_in_every_mode(tool: Path) -> None:
    for mode in ("auto", "legacy"):
        result = _mcp_calls(tool, mode)[4]
        assert result.is_error
        text = next(block.text for block in result.content if isinstance(block, TextContent))
        assert json.loads(text)["error"]["message"].startswith("result.unit: expected one of")
    cli = subprocess.run(
        [sys.executable, str(tool), "wrong"], capture_output=True, text=True, check=False
    )
    assert cli.returncode == 1
    assert "result.unit: expected one of g, pc, l, got 'kg'" in cli.stderr
