"""A handler that reads standard input under `--mcp` or `--batch` finds it empty: the stream
of requests is the server's (or the batch's) alone, so a later request is still answered."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from tests.helpers import REPO, generate, run
from tests.mcp_wire import INIT, exchange, line

#: Every way a handler may read standard input, each in a command of its own.
READERS = '''
"""Readers of standard input."""

import fileinput
import os
import subprocess
import sys

from burgee import command, program

program(name="readers", version="1.0.0")


def _helper() -> str:
    return sys.stdin.read()


def _outer() -> str:
    return _helper()


@command(effects="read_only")
def text() -> str:
    """sys.stdin, through two helpers."""
    return _outer()


@command(effects="read_only")
def ask() -> str:
    """input()."""
    try:
        return input()
    except EOFError:
        return "EOF"


@command(effects="read_only")
def zero() -> str:
    """open(0) and os.read(0)."""
    with open(0, closefd=False) as stream:
        first = stream.read()
    return first + os.read(0, 100).decode()


@command(effects="read_only")
def lines() -> str:
    """fileinput."""
    return "".join(fileinput.input(files=("-",)))


@command(effects="read_only")
def child() -> str:
    """A child process that inherits descriptor 0."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; print(repr(sys.stdin.read()))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()


@command(effects="read_only")
def plain(name: str = "x") -> str:
    """Reads nothing."""
    return name
'''


@pytest.fixture(scope="module")
def readers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("readers"), READERS)


@pytest.fixture()
def textkit(tmp_path: Path) -> Path:
    shutil.copy(REPO / "examples" / "textkit" / "textkit.py", tmp_path / "textkit.py")
    (tmp_path / "notes.txt").write_text("one two\nthree\n", encoding="utf-8")
    return tmp_path / "textkit.py"


def _call(ident: Any, name: str, **arguments: Any) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_textkit_count_over_mcp_does_not_take_the_stream(textkit: Path, mode: str) -> None:
    """`count` with no files reads standard input: over MCP it is empty (it was the next
    request's line, and every later request went unanswered)."""
    server = StdioServerParameters(
        command=sys.executable, args=[str(textkit), "--mcp"], cwd=str(textkit.parent)
    )

    async def go() -> tuple[Any, Any, Any]:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            empty = await client.call_tool("count", {})
            later = await client.call_tool("count", {"files": ["notes.txt"]})
            tools = await client.list_tools()
            return empty, later, tools

    empty, later, tools = asyncio.run(asyncio.wait_for(go(), 20))
    assert not empty.is_error
    assert empty.structured_content == {
        "result": [{"name": "-", "lines": 0, "words": 0, "chars": 0}]
    }
    assert later.structured_content == {
        "result": [{"name": "notes.txt", "lines": 2, "words": 3, "chars": 14}]
    }
    # NOTE: the description says where a command reads standard input, and that it is empty.
    described = {tool.name: tool.description or "" for tool in tools.tools}
    assert "reads standard input, which is empty" in described["count"]
    assert "reads standard input" not in described["tidy_slug"]


def test_every_way_of_reading_stdin_finds_it_empty(readers: Path) -> None:
    """sys.stdin, input(), open(0), os.read(0), fileinput and a child process: each finds the
    end of input at once, and the requests after it are answered."""
    names = ["text", "ask", "zero", "lines", "child", "plain"]
    data = line(INIT) + b"".join(line(_call(i, name)) for i, name in enumerate(names, 1))
    messages, _, stderr, code = exchange(readers, data, timeout=60)
    assert code == 0, stderr
    answers = {m["id"]: m["result"]["structuredContent"]["result"] for m in messages[1:]}
    assert answers == {1: "", 2: "EOF", 3: "", 4: "", 5: "''", 6: "x"}


def test_descriptions_say_which_commands_read_stdin(readers: Path) -> None:
    """Found in the handler's body or in the helpers it calls, however it reads."""
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    messages, _, stderr, code = exchange(readers, line(INIT) + line(listing))
    assert code == 0, stderr
    described = {t["name"]: t["description"] for t in messages[1]["result"]["tools"]}
    reading = {name for name, text in described.items() if "reads standard input" in text}
    assert reading == {"text", "ask", "zero", "lines"}


@pytest.mark.parametrize("source", ["stdin", "file"])
def test_batch_calls_are_not_a_handlers_input(textkit: Path, source: str) -> None:
    """In `--batch`, `count` with no files counts an empty input; the lines after it still run."""
    calls = [
        {"id": 1, "command": "count", "input": {}},
        {"id": 2, "command": "count", "input": {"files": ["notes.txt"]}},
        {"id": 3, "command": "tidy slug", "input": {"text": "A b"}},
    ]
    text = "".join(json.dumps(call) + "\n" for call in calls)
    if source == "file":
        (textkit.parent / "calls.jsonl").write_text(text, encoding="utf-8")
        result = run(textkit, "--batch", "calls.jsonl", stdin="not a call\n")
    else:
        result = run(textkit, "--batch", stdin=text)
    assert result.code == 0, result.err
    answers = [json.loads(raw) for raw in result.out.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert answers[0]["data"] == [{"name": "-", "lines": 0, "words": 0, "chars": 0}]
    assert answers[1]["data"][0]["lines"] == 2
    assert answers[2]["data"] == "a-b"
