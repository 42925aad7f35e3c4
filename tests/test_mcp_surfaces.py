"""Prompts, resources, logging and batches: the golden program `pantry` over MCP (the official
Python SDK in both modes, and raw lines) and on the command line."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import _v2026_07_28 as modern

from tests.helpers import GOLDEN, burgee_in_process, generate, in_process, run
from tests.mcp_wire import INIT, MODERN_META, exchange, line

PANTRY = GOLDEN / "pantry" / "pantry.py"
MINIMAL = GOLDEN / "minimal" / "minimal.py"


def params(tool: Path = PANTRY) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(tool), "--mcp"])


# NOTE: logging/setLevel is deprecated in 2026-07-28 (SEP-2577), still the legacy era's way.
@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_sdk_lists_and_uses_every_tool_prompt_and_resource(mode: str) -> None:
    logs: list[Any] = []
    progress: list[float] = []

    async def on_log(params: Any) -> None:
        logs.append(params)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    async def go() -> dict[str, Any]:
        found: dict[str, Any] = {}
        async with Client(params(), mode=mode, logging_callback=on_log, log_level="info") as client:  # type: ignore[arg-type]
            found["version"] = client.protocol_version
            if mode == "legacy":
                await client.set_logging_level("info")
            found["tools"] = [t.name for t in (await client.list_tools()).tools]
            found["stock"] = await client.call_tool("stock", {"name": "flour"})
            found["wait"] = await client.call_tool("wait", {"seconds": 0.01})
            found["restock"] = await client.call_tool(
                "restock", {"steps": 2}, progress_callback=on_progress
            )
            found["prompts"] = (await client.list_prompts()).prompts
            found["shopping"] = await client.get_prompt("shopping-list", {"store": "Lidl"})
            found["recipe"] = await client.get_prompt("recipe", {"dish": "soup"})
            found["resources"] = (await client.list_resources()).resources
            found["templates"] = (await client.list_resource_templates()).resource_templates
            reads = {}
            for uri in (
                "pantry://inventory",
                "pantry://notes",
                "pantry://items/salt",
                "pantry://labels/top.bin",
            ):
                reads[uri] = (await client.read_resource(uri)).contents[0]
            found["reads"] = reads
            with pytest.raises(MCPError) as missing:
                await client.read_resource("pantry://items/")
            found["missing"] = missing.value
            with pytest.raises(MCPError) as no_argument:
                await client.get_prompt("recipe", {})
            found["no_argument"] = no_argument.value
            with pytest.raises(MCPError) as unknown:
                await client.get_prompt("nope", {})
            found["unknown"] = unknown.value
        return found

    found = asyncio.run(go())
    assert found["version"] == ("2025-11-25" if mode == "legacy" else "2026-07-28")
    assert found["tools"] == ["stock", "restock", "wait", "use", "output"]
    assert found["wait"].structured_content == {"result": False}
    assert found["stock"].structured_content == {"name": "flour", "count": 3}
    assert found["restock"].structured_content == {"result": 2}
    assert progress == [1, 2]
    # NOTE: "info" and above: the debug message is not sent.
    assert [(entry.level, entry.data) for entry in logs] == [
        ("notice", "wait: done"),
        ("info", "round 1 of 2"),
        ("info", "round 2 of 2"),
        ("warning", {"message": "sugar is still low", "item": "sugar"}),
    ]
    assert [entry.logger for entry in logs] == ["wait"] + ["restock"] * 3
    prompts = {p.name: p for p in found["prompts"]}
    assert list(prompts) == ["shopping-list", "recipe"]
    arguments = [(a.name, a.required, a.description) for a in prompts["shopping-list"].arguments]
    assert arguments == [
        ("store", True, "Where to shop."),
        ("budget", False, "How much to spend, in euros."),
    ]
    shopping = found["shopping"]
    assert shopping.description == "Write a shopping list for what is running out."
    assert [(m.role, m.content.text) for m in shopping.messages] == [
        ("user", "Write a shopping list for Lidl (at most 20 euros): sugar, salt.")
    ]
    assert [(m.role, m.content.text) for m in found["recipe"].messages] == [
        ("user", "What do I need for soup?"),
        ("assistant", "Let me check the pantry first."),
    ]
    assert [(r.uri, r.name, r.mime_type) for r in found["resources"]] == [
        ("pantry://inventory", "inventory", "application/json"),
        ("pantry://notes", "notes", None),
    ]
    assert [(t.uri_template, t.name) for t in found["templates"]] == [
        ("pantry://items/{name}", "item"),
        ("pantry://labels/{name}.bin", "label"),
    ]
    reads = found["reads"]
    assert json.loads(reads["pantry://inventory"].text) == {"flour": 3, "sugar": 0, "salt": 1}
    assert reads["pantry://inventory"].mime_type == "application/json"
    assert (reads["pantry://notes"].text, reads["pantry://notes"].mime_type) == (
        "Buy sugar before Friday.\n",
        "text/plain",
    )
    assert json.loads(reads["pantry://items/salt"].text) == {"name": "salt", "count": 1}
    label = reads["pantry://labels/top.bin"]
    assert base64.b64decode(label.blob) == b"top\x00"
    assert label.mime_type == "application/octet-stream"
    assert found["missing"].error.code == -32602
    assert found["missing"].error.message == "Resource not found"
    assert found["no_argument"].error.code == -32602
    assert found["no_argument"].error.message == "dish is required"
    # NOTE: an unknown prompt, as on the command line: a usage error with its envelope.
    unknown = found["unknown"].error
    assert (unknown.code, unknown.message) == (-32602, "unknown prompt 'nope'")
    assert unknown.data["error"]["kind"] == "usage"
    assert (
        unknown.data["error"]["hint"]
        == run(PANTRY, "prompt", "nope", "--json").json()["error"]["hint"]
    )


def _initialize(version: str) -> bytes:
    return line({**INIT, "params": {**INIT["params"], "protocolVersion": version}})


def test_capabilities_only_for_what_the_program_has() -> None:
    ask = line({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"})
    messages, _, _, _ = exchange(MINIMAL, _initialize("2025-11-25") + ask)
    assert messages[0]["result"]["capabilities"] == {"tools": {"listChanged": False}}
    assert messages[1]["error"]["code"] == -32601
    messages, _, _, _ = exchange(PANTRY, _initialize("2025-11-25"))
    assert set(messages[0]["result"]["capabilities"]) == {
        "tools",
        "prompts",
        "resources",
        "completions",
        "logging",
    }


def test_batches_are_answered_under_2025_03_26_only() -> None:
    batch = line(
        [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "stock", "arguments": {"name": "salt"}},
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {
                "jsonrpc": "2.0",
                "id": "two",
                "method": "prompts/get",
                "params": {"name": "recipe", "arguments": {"dish": "tea"}},
            },
            {"jsonrpc": "2.0", "id": 3, "method": "no/such"},
            {"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {}},
            {"jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": {}},
        ]
    )
    only_notifications = line([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
    empty = line([])
    messages, raw, _, code = exchange(
        PANTRY, _initialize("2025-03-26") + batch + only_notifications + empty
    )
    assert code == 0
    assert len(messages) == 3, raw
    answers = messages[1]
    assert [answer["id"] for answer in answers] == [1, "two", 3, 4, 5]
    assert answers[0]["result"]["structuredContent"] == {"name": "salt", "count": 1}
    assert answers[1]["result"]["messages"][0]["content"]["text"] == "What do I need for tea?"
    assert answers[2]["error"]["code"] == -32601
    assert answers[3]["error"]["message"] == "Invalid Request: initialize cannot be part of a batch"
    assert answers[4]["error"] == {
        "code": -32602,
        "message": "Invalid params: name must be a string",
    }
    assert messages[2] == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": "Invalid Request: an empty batch"},
    }
    messages, _, _, _ = exchange(PANTRY, _initialize("2025-11-25") + batch)
    assert messages[1]["id"] is None
    assert messages[1]["error"]["code"] == -32600
    assert len(messages) == 2


def test_logging_needs_set_level_and_filters_by_it() -> None:
    call = line(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "restock", "arguments": {"steps": 1}},
        }
    )
    messages, _, _, _ = exchange(PANTRY, _initialize("2025-11-25") + call)
    assert [m.get("method") for m in messages] == [None, None]
    level = line(
        {"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "warning"}}
    )
    messages, _, _, _ = exchange(PANTRY, _initialize("2025-11-25") + level + call)
    notes = [m["params"] for m in messages if m.get("method") == "notifications/message"]
    assert notes == [
        {
            "level": "warning",
            "logger": "restock",
            "data": {"message": "sugar is still low", "item": "sugar"},
        }
    ]
    bad = line(
        {"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "loud"}}
    )
    messages, _, _, _ = exchange(PANTRY, _initialize("2025-11-25") + bad)
    assert messages[1]["error"]["code"] == -32602


def test_prompts_on_the_command_line() -> None:
    listed = run(PANTRY, "prompt")
    assert listed.code == 0
    assert listed.out.splitlines()[::2] == ["shopping-list", "recipe"]
    shopping = run(PANTRY, "prompt", "shopping-list", "--store", "Lidl", "--budget", "5")
    assert shopping.out == "Write a shopping list for Lidl (at most 5 euros): sugar, salt.\n"
    recipe = run(PANTRY, "prompt", "recipe", "--dish", "soup", "--json")
    assert recipe.json()["data"]["messages"][1] == {
        "role": "assistant",
        "content": {"type": "text", "text": "Let me check the pantry first."},
    }
    given = run(PANTRY, "prompt", "recipe", "--json", '{"dish": "soup"}')
    assert given.code == 0, given
    assert given.json() == recipe.json()
    mistyped = run(PANTRY, "prompt", "recipe", "--json", '{"dsh": "soup"}')
    assert mistyped.code == 2
    assert mistyped.json()["error"]["message"] == "unknown key 'dsh'; dish is required"
    missing = run(PANTRY, "prompt", "recipe", "--json")
    assert missing.code == 2
    assert missing.json()["error"]["kind"] == "usage"
    unknown = run(PANTRY, "prompt", "nope")
    assert unknown.code == 2
    assert "unknown prompt 'nope'" in unknown.err


def test_resources_on_the_command_line() -> None:
    listed = run(PANTRY, "resource")
    assert listed.out.splitlines()[::2] == [
        "pantry://inventory",
        "pantry://notes",
        "pantry://items/{name}",
        "pantry://labels/{name}.bin",
    ]
    assert run(PANTRY, "resource", "pantry://notes").out == "Buy sugar before Friday.\n"
    item = run(PANTRY, "resource", "pantry://items/flour", "--json").json()["data"]
    assert item == {
        "uri": "pantry://items/flour",
        "mimeType": "application/json",
        "text": '{"name": "flour", "count": 3}',
    }
    missing = run(PANTRY, "resource", "pantry://items/a/b")
    assert missing.code == 2
    assert "no resource at 'pantry://items/a/b'" in missing.err


def test_log_goes_to_stderr_on_the_command_line() -> None:
    quiet = run(PANTRY, "restock", "--steps", "1")
    assert quiet.err == "pantry: warning: sugar is still low item='sugar'\n"
    loud = run(PANTRY, "restock", "--steps", "1", "--debug")
    assert loud.err.splitlines() == [
        "pantry: debug: starting steps=1",
        "pantry: info: round 1 of 1",
        "pantry: warning: sugar is still low item='sugar'",
    ]


def test_prompt_and_resource_have_help() -> None:
    prompts = run(PANTRY, "prompt", "--help")
    assert prompts.code == 0 and prompts.out.splitlines()[:6] == [
        "usage: pantry prompt [-h] [NAME [--ARG VALUE ...]]",
        "",
        "List the prompts, or print one's messages (its arguments: prompt NAME --help).",
        "",
        "prompts:",
        "  shopping-list  Write a shopping list for what is running out.",
    ]
    resources = run(PANTRY, "resource", "-h")
    assert resources.code == 0 and resources.out.splitlines()[:2] == [
        "usage: pantry resource [-h] [URI]",
        "",
    ]
    assert "  pantry://items/{name}  One item, by name." in resources.out.splitlines()
    assert run(PANTRY, "prompt", "recipe", "--help").out.startswith("usage: pantry prompt recipe")


def test_help_lists_prompt_and_resource_only_when_present() -> None:
    assert "list the prompts, or print one" in run(PANTRY, "--help").out
    assert "list the prompts" not in run(MINIMAL, "--help").out


BAD = """
from burgee import command, prompt, resource


@command(effects="read_only")
def prompt_count(x: int = 1) -> int:
    return x


@command(effects="read_only", name="prompt")
def taken() -> int:
    return 1


@prompt
def review(count: int) -> str:
    return "x"


@resource("mem://items/{name}")
def item(other: str) -> str:
    return other


@resource("not a uri")
def broken() -> str:
    return ""
"""


def test_generator_reports_every_surface_problem(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(BAD, encoding="utf-8")
    result = burgee_in_process("gen", "handlers.py", "-o", "out.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = result.stderr.splitlines()
    assert errors == [
        "handlers.py:10:1: error: 'prompt' is the generated tool's command for the prompts of "
        "this program; rename the command or its group",
        "handlers.py:16:12: error: argument 'count' of prompt 'review' must be a str (or a "
        "Literal of strings): MCP prompt arguments are strings",
        "handlers.py:21:1: error: resource 'mem://items/{name}': placeholder {name} is not a "
        "parameter of item",
        "handlers.py:21:10: error: resource 'mem://items/{name}': parameter 'other' of item is "
        "not a placeholder of the URI",
        "handlers.py:25:1: error: @resource needs a URI such as 'mytool://status', not 'not a uri'",
        "burgee: 5 errors; nothing written",
    ]


ROWS = '''
"""Rows."""

from burgee import command, program, resource

program(name="rows", version="1.0.0")


@command(effects="read_only")
def count() -> int:
    """How many rows."""
    return 3


@resource("rows://row/{n}")
def row(n: int) -> str:
    """One row, by number."""
    return f"row {n}"
'''


def test_a_bad_uri_placeholder_is_named_by_its_name(tmp_path: Path) -> None:
    """A resource's placeholders are no flags: an error names the placeholder."""
    tool = generate(tmp_path, ROWS)
    asked = in_process(tool)
    assert asked.run("resource", "rows://row/2").out == "row 2\n"
    bad = asked.run("resource", "rows://row/abc", "--json")
    assert (bad.code, bad.json()["error"]["message"]) == (2, "n: expected an integer, got 'abc'")


def test_a_prompts_own_keyboard_interrupt_is_its_error(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        '''
        from burgee import command, prompt, resource


        @command(effects="read_only")
        def ok() -> str:
            """Fine."""
            return "fine"


        @command(effects="read_only")
        def other() -> str:
            """A second command: each tool is then named after its command."""
            return "other"


        @prompt
        def boom() -> str:
            """Raises KeyboardInterrupt itself."""
            raise KeyboardInterrupt


        @resource("t://boom")
        def bang() -> str:
            """Raises KeyboardInterrupt itself."""
            raise KeyboardInterrupt
        ''',
    )
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": {"name": "boom"}},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "t://boom"}},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "ok", "arguments": {}},
        },
    ]
    messages, _, stderr, code = exchange(tool, b"".join(map(line, [INIT, *requests])))
    assert code == 0, stderr
    answers = {m["id"]: m for m in messages}
    assert answers[1]["error"]["code"] == answers[2]["error"]["code"] == -32603
    assert answers[3]["result"]["structuredContent"] == {"result": "fine"}


def test_every_modern_answer_is_the_sdks_2026_07_28_result() -> None:
    """Each describing or reading method answers a 2026-07-28 request with the result the
    era's schema requires (the official SDK's models, `mcp_types`): `resources/read` included,
    which answered without `ttlMs`/`cacheScope` while the lists carried them."""
    meta = {"_meta": MODERN_META}
    requests: dict[str, tuple[str, dict[str, Any], Any]] = {
        "discover": ("server/discover", {}, modern.DiscoverResult),
        "tools": ("tools/list", {}, modern.ListToolsResult),
        "prompts": ("prompts/list", {}, modern.ListPromptsResult),
        "resources": ("resources/list", {}, modern.ListResourcesResult),
        "templates": ("resources/templates/list", {}, modern.ListResourceTemplatesResult),
        "read": ("resources/read", {"uri": "pantry://inventory"}, modern.ReadResourceResult),
        "get": (
            "prompts/get",
            {"name": "recipe", "arguments": {"dish": "soup"}},
            modern.GetPromptResult,
        ),
    }
    data = b"".join(
        line({"jsonrpc": "2.0", "id": key, "method": method, "params": {**meta, **extra}})
        for key, (method, extra, _) in requests.items()
    )
    messages, _, stderr, code = exchange(PANTRY, data)
    assert code == 0, stderr
    answers = {m["id"]: m for m in messages}
    for key, (_, _, model) in requests.items():
        assert "result" in answers[key], answers[key]
        model.model_validate(answers[key]["result"])
    # NOTE: what a read gives is made anew each time, and may be the user's own.
    read = answers["read"]["result"]
    assert (read["ttlMs"], read["cacheScope"]) == (0, "private")
