"""`mytool --mcp` driven by the official MCP SDK client, as Claude and other agents drive it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import TextContent

from tests.helpers import cached_start, generate, run
from tests.mcp_tool import HANDLERS


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("mcp"), HANDLERS)


def params(tool: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(tool), "--mcp"])


def texts(result: Any) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


def test_tools_list(tool: Path) -> None:
    async def go() -> Any:
        async with Client(params(tool), mode="legacy") as client:
            return (await client.list_tools()).tools

    tools = {t.name: t for t in asyncio.run(go())}
    # NOTE: `output`, the built-in that pages back a cut answer, comes last.
    assert list(tools) == ["greet", "count", "tasks_purge", "slow", "liar", "spin", "output"]
    greet = tools["greet"]
    assert greet.title == "Say hello."
    assert greet.input_schema["required"] == ["name"]
    assert greet.input_schema["properties"]["times"]["default"] == 1
    assert greet.output_schema is not None and greet.output_schema["type"] == "object"
    assert greet.annotations is not None and greet.annotations.read_only_hint is True
    purge = tools["tasks_purge"].annotations
    assert purge is not None
    assert (purge.destructive_hint, purge.read_only_hint, purge.open_world_hint) == (
        True,
        False,
        False,
    )
    assert tools["count"].output_schema["required"] == ["result"]  # type: ignore[index]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_call_in_both_client_modes(tool: Path, mode: str) -> None:
    async def go() -> tuple[Any, Any, Any]:
        async with Client(params(tool), mode=mode) as client:  # type: ignore[arg-type]
            greet = await client.call_tool("greet", {"name": "Ada", "times": 2})
            count = await client.call_tool("count", {"limit": 3, "mode": "down"})
            purge = await client.call_tool("tasks_purge", {"ids": [1, 2]})
            return greet, count, purge, client.protocol_version

    greet, count, purge, version = asyncio.run(go())
    assert version == ("2026-07-28" if mode == "auto" else "2025-11-25")
    assert not greet.is_error
    assert greet.structured_content == {"greeting": "Hello, Ada! Hello, Ada!"}
    envelope, printed = texts(greet)
    answer = json.loads(envelope)
    assert {"ok": answer["ok"], "data": answer["data"]} == {
        "ok": True,
        "data": greet.structured_content,
    }
    assert answer["meta"]["provenance"]["name"]["source"] == "json"
    assert printed == "greeting Ada\n"
    assert count.structured_content == {"result": [3, 2, 1]}
    assert purge.structured_content == {
        "result": [
            {"id": 1, "title": "task 1", "done": True},
            {"id": 2, "title": "task 2", "done": True},
        ]
    }


def test_text_matches_the_json_cli(tool: Path) -> None:
    async def go() -> Any:
        async with Client(params(tool), mode="legacy") as client:
            return await client.call_tool("greet", {"name": "Zoë"})

    result = asyncio.run(go())
    cli = subprocess.run(
        [sys.executable, str(tool), "greet", "--json", '{"name": "Zoë"}'],
        capture_output=True,
        text=True,
        check=True,
    )
    # NOTE: what the handler printed is the envelope's `meta.printed` under --json, and the
    # text item after the envelope over MCP (docs/contract.md, what a command prints).
    envelope = json.loads(cli.stdout)
    assert texts(result)[1] == envelope["meta"].pop("printed")
    assert json.loads(texts(result)[0]) == envelope


def test_errors_are_results_and_protocol_errors(tool: Path) -> None:
    async def go() -> tuple[Any, Any, Any, Any]:
        async with Client(params(tool), mode="legacy") as client:
            bad = await client.call_tool("greet", {"name": 3, "times": "x", "extra": 1})
            missing = await client.call_tool("count", {"limit": -1})
            liar = await client.call_tool("liar", {})
            with pytest.raises(MCPError) as unknown:
                await client.call_tool("secret", {})
            return bad, missing, liar, unknown.value

    bad, missing, liar, unknown = asyncio.run(go())
    assert bad.is_error and bad.structured_content is None
    assert json.loads(texts(bad)[0])["error"]["kind"] == "usage"
    assert json.loads(texts(missing)[0]) == {
        "ok": False,
        "error": {"kind": "missing", "message": "nothing to count", "hint": "use a positive limit"},
    }
    assert liar.is_error and json.loads(texts(liar)[0])["error"]["kind"] == "internal"
    assert unknown.code == -32602


def test_low_level_session_progress_and_cancellation(tool: Path) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async def go(errlog: Any) -> tuple[Any, Any, Any]:
        async with stdio_client(params(tool), errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                done = await session.call_tool(
                    "slow", {"steps": 4, "delay": 0.01}, progress_callback=on_progress
                )
                with pytest.raises(MCPError) as timed_out:
                    await session.call_tool(
                        "slow", {"steps": 200, "delay": 0.05}, read_timeout_seconds=0.3
                    )
                after = await session.call_tool("greet", {"name": "still here"})
                return init, done, after, timed_out.value

    with tempfile.TemporaryFile("w+") as errlog:
        init, done, after, timed_out = asyncio.run(go(errlog))
        errlog.seek(0)
        stderr = errlog.read()
    assert init.protocol_version == "2025-11-25"
    assert init.server_info.name == "mcptool" and init.server_info.version == "3.1.0"
    assert done.structured_content == {"result": 4}
    assert [p for p, _, _ in seen] == [1, 2, 3, 4]
    assert seen[0] == (1, 4, "step 1")
    assert timed_out.code == -32001
    assert after.structured_content == {"greeting": "Hello, still here!"}
    assert "to stderr" in stderr
    assert stderr.count("slow: cancelled") == 1
    assert stderr.count("slow: on_exit ran") == 2


def test_print_config_starts_a_script_from_its_cached_bytecode(tool: Path, tmp_path: Path) -> None:
    """Run as a script, Python compiles the whole file on every start; the printed server is
    started as `python -m` starts a module, from its cached `.pyc`, with the tool's folder first
    on the path as for the script, never the client's current folder."""
    home = tmp_path / "home"
    home.mkdir()
    copy = home / "mcptool.py"
    copy.write_bytes(tool.read_bytes())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # NOTE: no module where the client starts it runs: not one of the tool's name, nor one
    # the start imports.
    for shadow in ("mcptool.py", "importlib.py"):
        (elsewhere / shadow).write_text("raise SystemExit('the current folder ran')\n")
    printed = subprocess.run(
        [sys.executable, str(copy), "--mcp", "--print-config"],
        capture_output=True,
        text=True,
        check=True,
        cwd=elsewhere,
    )
    server = json.loads(printed.stdout)["mcpServers"]["mcptool"]
    assert server["command"] == sys.executable
    assert server["args"] == [*cached_start(copy), "--mcp"]

    async def go() -> Any:
        spec = StdioServerParameters(
            command=server["command"], args=server["args"], cwd=str(elsewhere)
        )
        async with Client(spec) as client:
            return await client.call_tool("greet", {"name": "config"})

    assert asyncio.run(go()).structured_content == {"greeting": "Hello, config!"}
    assert [p.name for p in (home / "__pycache__").glob("mcptool.*.pyc")]
    # NOTE: started so, the tool prints the same configuration, and its hints name its path.
    again = subprocess.run(
        [server["command"], *server["args"], "--print-config"],
        capture_output=True,
        text=True,
        check=True,
        cwd=elsewhere,
    )
    assert json.loads(again.stdout)["mcpServers"]["mcptool"] == server
    hint = subprocess.run(
        [server["command"], *server["args"][:-1], "greet", "--bogus"],
        capture_output=True,
        text=True,
        check=False,
        cwd=elsewhere,
    )
    assert f"{sys.executable} {copy} greet --help" in hint.stderr


@pytest.mark.parametrize(
    ("name", "beside"),
    [("my.tool.py", None), ("mcptool.py", "mcptool/__init__.py")],
)
def test_print_config_starts_by_path_what_cannot_be_run_by_name(
    tool: Path, tmp_path: Path, name: str, beside: str | None
) -> None:
    """A file whose name has a dot in it (no module's), or that a package of its name beside it
    would shadow, is started by its path, as it was run."""
    copy = tmp_path / name
    copy.write_bytes(tool.read_bytes())
    if beside:
        (tmp_path / beside).parent.mkdir(exist_ok=True)
        (tmp_path / beside).write_text("")
    printed = subprocess.run(
        [sys.executable, str(copy), "--mcp", "--print-config"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    server = json.loads(printed.stdout)["mcpServers"]["mcptool"]
    assert server == {"command": sys.executable, "args": [str(copy), "--mcp"]}


def test_print_config_uses_the_installed_name(tool: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    installed = bin_dir / "mcptool"
    installed.write_text(
        f"#!{sys.executable}\n" + tool.read_text(encoding="utf-8"), encoding="utf-8"
    )
    installed.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    printed = subprocess.run(
        ["mcptool", "--mcp", "--print-config"], capture_output=True, text=True, check=True, env=env
    )
    server = json.loads(printed.stdout)["mcpServers"]["mcptool"]
    assert server == {"command": "mcptool", "args": ["--mcp"]}

    async def go() -> Any:
        spec = StdioServerParameters(
            command=server["command"], args=server["args"], env={"PATH": env["PATH"]}
        )
        async with Client(spec, mode="legacy") as client:
            return await client.call_tool("count", {})

    assert asyncio.run(go()).structured_content == {"result": [1, 2, 3]}


STREAMS = '''
"""Streams."""

import os
import sys

from burgee import command, program

program(name="streams", version="1.0.0")


@command(effects="read_only")
def chatty() -> str:
    """Use sys.stdout as a text stream, beyond print()."""
    sys.stdout.writelines(["one ", "two\\n"])
    os.write(sys.stdout.fileno(), b"by descriptor\\n")
    sys.stdout.buffer.write(b"by buffer\\n")
    sys.stdout.flush()
    return "ok " + sys.stdout.encoding


@command(effects="read_only")
def quiet() -> str:
    """Print nothing."""
    return "ok"
'''


def test_a_handler_may_use_stdout_as_a_text_stream(tmp_path: Path) -> None:
    """What works on the command line works over MCP: `writelines` goes with the call's prints
    (a second text block), `fileno()` and `buffer` are stderr's, as under `--json`."""
    streams = generate(tmp_path, STREAMS)

    async def go() -> Any:
        async with Client(params(streams), mode="legacy") as client:
            return await client.call_tool("chatty", {})

    result = asyncio.run(go())
    assert result.is_error is False
    assert result.structured_content == {"result": "ok utf-8"}
    assert texts(result)[1] == "one two\n"
    cli = run(streams, "chatty", "--json")
    assert cli.json()["data"] == "ok utf-8"
    # NOTE: under --json too, the call's prints are kept (`meta.printed`); bytes by descriptor
    # or buffer go to stderr on both surfaces.
    assert cli.json()["meta"]["printed"] == "one two\n"
    assert "by descriptor\nby buffer\n" in cli.err


ONE_COMMAND = '''
from typing import Annotated

from burgee import Argument, command, program

program(name="mytool", version="1.0.0")


@command(effects="read_only")
def find(pattern: Annotated[str, Argument()]) -> list[str]:
    """Find what matches."""
    return [pattern]
'''


def test_a_one_command_program_names_its_tool_alike_everywhere(tmp_path: Path) -> None:
    """`mytool find`: the command line, `--llms`, the skill and MCP all call it `find` (only a
    root command, which has no command word, is named after the program); the server the
    printed configuration starts answers the `--llms` name."""
    tool = generate(tmp_path, ONE_COMMAND)
    assert run(tool, "find", "x", "--json").json()["data"] == ["x"]
    named = [t["name"] for t in run(tool, "--llms").json()["tools"]]
    assert named == ["help", "find", "output"]
    assert "- `python tool.py find PATTERN`: Find what matches." in run(tool, "--skill").out
    printed = json.loads(run(tool, "--mcp", "--print-config").out)["mcpServers"]
    assert list(printed) == ["mytool"]
    server = printed["mytool"]

    async def go() -> tuple[list[str], Any]:
        spec = StdioServerParameters(command=server["command"], args=server["args"])
        async with Client(spec, mode="legacy") as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            return listed, await client.call_tool(named[1], {"pattern": "x"})

    listed, answer = asyncio.run(go())
    assert listed == ["find", "output"]
    assert answer.structured_content == {"result": ["x"]}
