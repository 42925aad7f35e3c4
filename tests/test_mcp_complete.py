"""`completion/complete`: a prompt's argument and a resource template's placeholder complete
from their `complete=` functions (called as TAB calls them) and from their choices, through
the official Python SDK client in both eras and on the wire; the `completions` capability is
declared only by a program with something to complete."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.types import PromptReference, ResourceTemplateReference
from mcp_types import _v2026_07_28 as modern

from tests.helpers import GOLDEN, generate
from tests.mcp_wire import INIT, MODERN_META, exchange, line

PANTRY = GOLDEN / "pantry" / "pantry.py"

#: Completers that use the other values, fail, print, and offer more than one answer holds.
EDGES = '''
from enum import Enum
from typing import Annotated, Any, Literal

from burgee import Argument, Option, command, prompt, resource


class Size(Enum):
    SMALL = "small"
    LARGE = "large"


def rooms(partial: str, context: dict[str, Any]) -> list[str]:
    print("a completer's print must not reach the protocol")
    floor = context["options"].get("floor")
    return [f"{floor}-{n}" if isinstance(floor, int) else f"bad-{n}" for n in (1, 2)]


def broken(partial: str) -> list[str]:
    raise RuntimeError("no rooms today")


def interrupted(partial: str) -> list[str]:
    raise KeyboardInterrupt


def many(partial: str) -> list[str]:
    return [f"n{i:03}" for i in range(250)]


@command(effects="read_only")
def ok() -> int:
    """One command."""
    return 1


@prompt
def visit(
    room: Annotated[str, Option(complete=broken)],
    count: Annotated[str, Option(complete=many)] = "",
    tone: Literal["warm", "cold"] = "warm",
    mood: Annotated[str, Option(complete=interrupted)] = "",
) -> str:
    """Visit a room."""
    return room


@resource("hotel://{floor}/rooms/{room}/{size}")
def room(floor: int, room: Annotated[str, Argument(complete=rooms)], size: Size) -> str:
    """One room."""
    return room
'''

#: A program with prompts and templates, none of whose arguments completes.
PLAIN = '''
from burgee import command, prompt, resource


@command(effects="read_only")
def ok() -> int:
    """One command."""
    return 1


@prompt
def greet(name: str) -> str:
    """Greet someone."""
    return name


@resource("plain://{name}")
def thing(name: str) -> str:
    """One thing."""
    return name
'''


def params(tool: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(tool), "--mcp"])


def request(key: int, ref: dict[str, Any], name: str, value: str, **more: Any) -> bytes:
    argument = {"name": name, "value": value}
    body = {"ref": ref, "argument": argument, **more}
    return line({"jsonrpc": "2.0", "id": key, "method": "completion/complete", "params": body})


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_sdk_completes_prompt_arguments_and_template_placeholders(mode: str) -> None:
    shopping = PromptReference(type="ref/prompt", name="shopping-list")
    recipe = PromptReference(type="ref/prompt", name="recipe")
    items = ResourceTemplateReference(type="ref/resource", uri="pantry://items/{name}")

    async def go() -> dict[str, Any]:
        found: dict[str, Any] = {}
        async with Client(params(PANTRY), mode=mode) as client:  # type: ignore[arg-type]
            found["version"] = client.protocol_version
            found["capabilities"] = client.server_capabilities
            found["stores"] = await client.complete(shopping, {"name": "store", "value": "L"})
            found["courses"] = await client.complete(recipe, {"name": "course", "value": ""})
            found["dish"] = await client.complete(recipe, {"name": "dish", "value": "s"})
            found["items"] = await client.complete(items, {"name": "name", "value": "s"})
            dessert = {"dish": "pie", "course": "dessert"}
            found["recipe"] = await client.get_prompt("recipe", dessert)
            errors = {}
            for key, ref, name in (
                ("prompt", PromptReference(type="ref/prompt", name="nope"), "x"),
                ("argument", shopping, "nope"),
                (
                    "template",
                    ResourceTemplateReference(type="ref/resource", uri="pantry://nope/{x}"),
                    "x",
                ),
                (
                    "fixed",
                    ResourceTemplateReference(type="ref/resource", uri="pantry://inventory"),
                    "x",
                ),
            ):
                with pytest.raises(MCPError) as failed:
                    await client.complete(ref, {"name": name, "value": ""})
                errors[key] = (failed.value.error.code, failed.value.error.message)
            found["errors"] = errors
        return found

    found = asyncio.run(go())
    assert found["version"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert found["capabilities"].completions is not None
    stores = found["stores"].completion
    assert (stores.values, stores.total, stores.has_more) == (["Lidl", "Leclerc"], 2, False)
    assert found["courses"].completion.values == ["starter", "main", "dessert"]
    # NOTE: an argument with nothing to offer completes to nothing; it is no error.
    assert found["dish"].completion.values == []
    assert found["items"].completion.values == ["sugar", "salt"]
    assert found["recipe"].messages[0].content.text == "What do I need for pie, as a dessert?"
    assert found["errors"] == {
        "prompt": (-32602, "Invalid params: unknown prompt 'nope'"),
        "argument": (-32602, "Invalid params: prompt 'shopping-list' has no argument 'nope'"),
        "template": (-32602, "Invalid params: unknown resource template 'pantry://nope/{x}'"),
        "fixed": (-32602, "Invalid params: unknown resource template 'pantry://inventory'"),
    }


def test_context_failures_prints_and_the_limit_of_one_answer(tmp_path: Path) -> None:
    tool = generate(tmp_path, EDGES)
    rooms = {"type": "ref/resource", "uri": "hotel://{floor}/rooms/{room}/{size}"}
    visit = {"type": "ref/prompt", "name": "visit"}
    data = b"".join(
        [
            line(INIT),
            request(1, rooms, "room", "", context={"arguments": {"floor": "3"}}),
            request(2, rooms, "room", "", context={"arguments": {"floor": "three"}}),
            request(3, rooms, "room", "3-2", context={"arguments": {"floor": "3"}}),
            request(4, rooms, "size", "l"),
            request(5, visit, "room", ""),
            request(6, visit, "count", "n1"),
            request(7, visit, "count", ""),
            request(8, visit, "tone", "c"),
            request(9, visit, "room", "", context={"arguments": "not an object"}),
            request(10, visit, "mood", ""),
            request(11, visit, "tone", "w"),
        ]
    )
    messages, _, stderr, code = exchange(tool, data)
    assert code == 0, stderr
    answers = {m["id"]: m["result"]["completion"] for m in messages if m.get("id")}
    # NOTE: the other values reach the completer converted as a run converts them (an int
    # floor), and as typed where that fails, as on the shell.
    assert answers[1]["values"] == ["3-1", "3-2"]
    assert answers[2]["values"] == ["bad-1", "bad-2"]
    assert answers[3] == {"values": ["3-2"], "total": 1, "hasMore": False}
    assert answers[4]["values"] == ["large"]
    # NOTE: a completer that raises offers nothing, as TAB does.
    assert answers[5] == {"values": [], "total": 0, "hasMore": False}
    assert answers[6] == {
        "values": [f"n{i:03}" for i in range(100, 200)],
        "total": 100,
        "hasMore": False,
    }
    assert answers[7]["values"] == [f"n{i:03}" for i in range(100)]
    assert (answers[7]["total"], answers[7]["hasMore"]) == (250, True)
    assert answers[8]["values"] == ["cold"]
    assert answers[9]["values"] == []
    # NOTE: the completer's own KeyboardInterrupt is its failure; the server goes on.
    assert answers[10]["values"] == []
    assert answers[11]["values"] == ["warm"]
    assert "a completer's print must not reach the protocol" in stderr


def test_capability_and_method_only_when_something_completes(tmp_path: Path) -> None:
    tool = generate(tmp_path, PLAIN)
    ref = {"type": "ref/prompt", "name": "greet"}
    messages, _, stderr, code = exchange(tool, line(INIT) + request(2, ref, "name", ""))
    assert code == 0, stderr
    assert set(messages[0]["result"]["capabilities"]) == {"tools", "prompts", "resources"}
    assert messages[1]["error"]["code"] == -32601
    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover"}
    messages, _, _, _ = exchange(tool, line({**discover, "params": {"_meta": MODERN_META}}))
    assert "completions" not in messages[0]["result"]["capabilities"]
    messages, _, _, _ = exchange(PANTRY, line({**discover, "params": {"_meta": MODERN_META}}))
    assert messages[0]["result"]["capabilities"]["completions"] == {}


def test_a_modern_answer_is_the_sdks_2026_07_28_result() -> None:
    ref = {"type": "ref/prompt", "name": "shopping-list"}
    messages, _, stderr, code = exchange(PANTRY, request(1, ref, "store", "M", _meta=MODERN_META))
    assert code == 0, stderr
    result = modern.CompleteResult.model_validate(messages[0]["result"])
    assert (result.result_type, result.completion.values) == ("complete", ["Monoprix"])
