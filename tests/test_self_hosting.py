"""burgee's own command line is a burgee tool: `generator/commands.py` generated into
`generator/_tool.py`, run by the `burgee` console script and `python -m burgee`."""

from __future__ import annotations

import asyncio
import gc
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client, StdioServerParameters

from burgee import commands
from tests.helpers import GOLDEN, REPO, Run, burgee, burgee_in_process, generate, run
from tests.regen import self_hosted_args
from tests.test_schema import CLISPEC, clispec_schema

BURGEE = Path(sys.executable).parent / "burgee"
TODO = "examples/todo/handlers.py"
#: What `burgee gen` loads only when it runs.
PIPELINE = ("pydantic", "jinja2")


def test_the_generated_command_line_is_fresh() -> None:
    result = burgee(*self_hosted_args("--check"), cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_console_script_and_module_are_the_generated_tool() -> None:
    for command in ([str(BURGEE)], [sys.executable, "-m", "burgee"]):
        help_text = subprocess.run(
            [*command, "--help"], capture_output=True, text=True, check=True
        ).stdout
        for word in ("gen", "check", "new", "refresh", "completion"):
            assert f"\n  {word} " in help_text, help_text
        assert "  1    stale (an outcome, not a failure)\n" in help_text
        assert "  2    usage\n" in help_text and "  70   internal\n" in help_text
        version = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, check=True
        )
        assert version.stdout == "burgee 0.1.0\n"


@pytest.mark.skipif(CLISPEC is None, reason="clispec scorer not installed")
@pytest.mark.slow  # NOTE: the scorer runs the tool dozens of times (as test_schema's own)
def test_burgee_schema_scores_24_of_24() -> None:
    proc = subprocess.run(
        [str(CLISPEC), "score", str(BURGEE), "-o", "json"],
        cwd=REPO,  # NOTE: the probe runs `burgee check examples/todo/handlers.py`
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = json.loads(proc.stdout)
    failed = [c for p in report["principles"] for c in p["checks"] if not c["passed"]]
    assert (report["score"], report["max"]) == (24, 24), failed


@pytest.mark.parametrize("tool", [BURGEE, GOLDEN / "diffy" / "diffy.py"], ids=["burgee", "diffy"])
def test_outcomes_keep_the_document_conformant(tool: Path) -> None:
    """clispec's schema, and the x-checker rules about outcomes (`ambiguous-exit-code`,
    `unique-outcome-names`, `outcome-ref-resolves`), which its scorer does not apply."""
    document = run(tool, "schema").json()
    jsonschema.Draft202012Validator(clispec_schema()).validate(document)
    errors = {e["exit_code"] for e in document["errors"]}
    codes = [o["code"] for o in document["outcomes"]]
    assert not errors & set(codes) and len(set(codes)) == len(codes)
    names = [o["name"] for o in document["outcomes"]]
    assert len(set(names)) == len(names)
    for command in document["commands"]:
        assert set(command.get("outcomes", ())) <= set(names)


def test_describes_itself_for_agents() -> None:
    doc = run(BURGEE, "schema").json()
    commands = {c["name"]: c for c in doc["commands"]}
    assert commands["gen"]["effects"] == "idempotent"
    assert commands["new"]["effects"] == "non_idempotent"
    assert commands["check"]["effects"] == "read_only"
    assert doc["outcomes"][0]["code"] == 1 and doc["outcomes"][0]["name"] == "stale"
    gen_args = {a["name"] for a in commands["gen"]["args"]}
    assert {"--output", "--version", "--check"} <= gen_args
    llms = run(BURGEE, "--llms").json()
    assert {"gen", "check", "new", "refresh"} <= {t["name"] for t in llms["tools"]}
    skill = run(BURGEE, "--skill").out
    assert "burgee gen handlers.py -o tool.py" in skill and "| 1 | `stale` |" in skill
    bash = run(BURGEE, "completion", "bash")
    assert bash.code == 0 and "complete" in bash.out


def _asked(*args: str, cwd: Path | None = None) -> Run:
    """What the `burgee` command answers, asked in this process (its `invoke()`)."""
    return Run(burgee_in_process(*args, cwd=cwd))


def test_gen_json_answers_and_errors_are_data(tmp_path: Path) -> None:
    handlers = REPO / TODO
    out = tmp_path / "todo.py"
    made = _asked("gen", str(handlers), "-o", str(out), "--json")
    assert made.code == 0, made.err
    assert made.json()["data"] == {
        "written": [str(out)],
        "unchanged": [],
        "stale": [],
        "warnings": [],
    }
    assert _asked("gen", str(handlers), "--check", "-o", str(out), "-o", "x").code == 1
    current = _asked("gen", str(handlers), "-o", str(out), "--check", "--json")
    assert (current.code, current.json()["data"]["unchanged"]) == (0, [str(out)])
    out.write_text(out.read_text(encoding="utf-8").replace("todo", "tada"), encoding="utf-8")
    stale = _asked("gen", str(handlers), "-o", str(out), "--check", "--json")
    assert stale.code == 1
    assert stale.json() | {"meta": None} == {
        "ok": True,
        "data": {"written": [], "unchanged": [], "stale": [str(out)], "warnings": []},
        "outcome": "stale",
        "meta": None,
    }
    bad = tmp_path / "bad.py"
    bad.write_text("x = (\n", encoding="utf-8")
    failed = _asked("gen", str(bad), "--json")
    assert failed.code == 2
    error = failed.error_line()["error"]
    assert error["kind"] == "usage" and error["message"] == "1 error; nothing written"
    assert error["details"]["diagnostics"] == [
        {
            "path": str(bad),
            "line": 1,
            "column": 5,
            "severity": "error",
            "message": "syntax error: '(' was never closed",
        }
    ]
    assert failed.json() == failed.error_line()
    text = _asked("gen", str(bad))
    assert text.err == f"{bad}:1:5: error: syntax error: '(' was never closed\n" + (
        "burgee: 1 error; nothing written\n"
    )


def test_check_reports_as_data_and_writes_nothing(tmp_path: Path) -> None:
    checked = _asked("check", TODO, "--json", cwd=REPO)
    assert checked.code == 0, checked.err
    data = checked.json()["data"]
    assert data["program"] == "todo" and "add" in data["commands"]
    assert data["warnings"] == []
    listy = tmp_path / "listy.py"
    listy.write_text(
        'from burgee import command\n\n\n@command(effects="read_only")\n'
        'def names() -> list[str]:\n    """Names."""\n    return []\n',
        encoding="utf-8",
    )
    warned = _asked("check", str(listy), "--json").json()["data"]["warnings"]
    assert [w["severity"] for w in warned] == ["warning"] and "cardinality" in warned[0]["message"]
    strict = _asked("check", str(listy), "--strict", "--json")
    assert strict.code == 2 and strict.error_line()["error"]["details"]["diagnostics"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["listy.py"]


def test_mcp_serves_gen_and_check(tmp_path: Path) -> None:
    out = tmp_path / "todo.py"
    params = StdioServerParameters(command=str(BURGEE), args=["--mcp"], cwd=str(REPO))

    async def go() -> tuple[Any, ...]:
        async with Client(params, mode="legacy") as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            checked = await client.call_tool("check", {"handlers": TODO})
            made = await client.call_tool("gen", {"handlers": TODO, "output": str(out)})
            written = out.read_text(encoding="utf-8")
            current = await client.call_tool(
                "gen", {"handlers": TODO, "output": str(out), "check": True}
            )
            out.write_text("# Generated by burgee\n", encoding="utf-8")
            stale = await client.call_tool(
                "gen", {"handlers": TODO, "output": str(out), "check": True}
            )
            bad = await client.call_tool("check", {"handlers": "no/such/file.py"})
            return tools, checked, made, written, current, stale, bad

    tools, checked, made, written, current, stale, bad = asyncio.run(go())
    assert {"gen", "check", "new", "refresh"} <= tools
    assert not checked.is_error and checked.structured_content["program"] == "todo"
    assert not made.is_error and made.structured_content["result"]["written"] == [str(out)]
    assert written.startswith("#!/usr/bin/env python3\n# Generated by burgee")
    assert not current.is_error and current.meta is None
    assert not stale.is_error and stale.structured_content["result"]["stale"] == [str(out)]
    assert stale.meta is not None and stale.meta["outcome"] == "stale"
    assert bad.is_error
    assert json.loads(bad.content[0].text)["error"]["kind"] == "usage"  # type: ignore[union-attr]


def test_mcp_new_creates_a_project_without_asking(tmp_path: Path) -> None:
    # NOTE: over MCP stdin is the protocol: `new` must not prompt on it (copier would read
    # the client's next message as an answer), so it takes the defaults, as without a terminal.
    params = StdioServerParameters(command=str(BURGEE), args=["--mcp"], cwd=str(tmp_path))

    async def go() -> tuple[Any, ...]:
        async with Client(params, mode="legacy") as client:
            made = await client.call_tool("new", {"name": "zap", "description": "Zaps."})
            again = await client.call_tool("new", {"name": "zap"})
            unnamed = await client.call_tool("new", {})
            after = await client.call_tool("check", {"handlers": str(tmp_path / "zap/handlers.py")})
            return made, again, unnamed, after

    made, again, unnamed, after = asyncio.run(go())
    assert not made.is_error, made.content
    project = tmp_path / "zap"
    assert (project / "zap.py").read_text(encoding="utf-8").startswith("#!/usr/bin/env python3")
    assert "Zaps." in (project / "pyproject.toml").read_text(encoding="utf-8")
    assert {"handlers.py", "pyproject.toml", "skill", "completions"} <= {
        p.name for p in project.iterdir()
    }
    for failed, words in ((again, "is not empty"), (unnamed, "project name is required")):
        assert failed.is_error
        error = json.loads(failed.content[0].text)["error"]  # type: ignore[union-attr]
        assert error["kind"] == "usage" and words in error["message"], error
    # NOTE: the session still works after `new` ran copier and git in it.
    assert not after.is_error and after.structured_content["program"] == "zap"


def _imports(*args: str, stdin: str | None = None) -> set[str]:
    """The top-level packages `burgee ARGS` imports (`python -X importtime`, on stderr)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "burgee", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    found = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+([\w.]+)$", proc.stderr, re.M)
    assert found, proc.stderr
    return {name.split(".")[0] for name in found} | set(found)


def test_the_pipeline_loads_only_when_gen_runs() -> None:
    mcp = "\n".join(
        json.dumps(message)
        for message in (
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        )
    )
    for args, stdin in ((["--help"], None), (["schema"], None), (["--mcp"], mcp + "\n")):
        imported = _imports(*args, stdin=stdin)
        assert "burgee._tool" in imported, imported
        assert not imported & set(PIPELINE), args
    assert set(PIPELINE) <= _imports("check", TODO)


def test_gen_and_check_read_the_handlers_without_libcst(tmp_path: Path) -> None:
    # NOTE: the handlers are read with `ast` and copied with text edits; libcst, which took
    # about 0.2 s to import, is no longer loaded (nor a dependency).
    tool = tmp_path / "todo.py"
    for args in (("gen", TODO, "-o", str(tool)), ("check", TODO)):
        imported = _imports(*args)
        assert "burgee.read.program" in imported, args
        assert "libcst" not in imported, args
    assert tool.is_file()


def test_burgee_imports_inside_handlers_are_checked(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        "from burgee import command\n\n\n"
        '@command(effects="read_only")\n'
        "def version() -> str:\n"
        '    """The version of burgee that is installed."""\n'
        "    from burgee.write.generate import nothing\n"
        "    from burgee.writes import generate\n"
        "    from burgee import nope\n"
        "    return str((nothing, generate, nope))\n",
        encoding="utf-8",
    )
    result = burgee("gen", str(handlers), "-o", str(tmp_path / "tool.py"))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"{handlers}:7:5: error: burgee.write.generate has no name 'nothing'",
        f"{handlers}:8:5: error: burgee has no module 'burgee.writes'",
        f"{handlers}:9:5: error: burgee has no name 'nope'",
        "burgee: 3 errors; nothing written",
    ]
    tool = generate(
        tmp_path,
        """
        from burgee import command


        @command(effects="read_only")
        def version() -> str:
            \"\"\"The version of burgee that is installed.\"\"\"
            from burgee import __version__

            return __version__
        """,
    )
    assert run(tool, "version").out == "0.1.0\n"


def test_a_class_of_a_built_in_kind_raises_the_built_in_error(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        """
        from burgee import CommandError, command


        class Invalid(CommandError):
            kind = "usage"
            exit_code = 2


        @command(effects="read_only")
        def judge(text: str) -> str:
            \"\"\"Refuse empty text.\"\"\"
            if not text:
                raise Invalid("empty", details={"field": "text"}, text="judge: say something")
            return text
        """,
    )
    refused = run(tool, "judge", "--text", "", "--json")
    assert refused.code == 2
    assert refused.json()["error"] == {
        "kind": "usage",
        "message": "empty",
        "details": {"field": "text"},
    }
    # NOTE: without --json, a person reads the error's own text and nothing else.
    assert run(tool, "judge", "--text", "").err == "judge: say something\n"
    doc = run(tool, "schema").json()
    assert [e["kind"] for e in doc["errors"]].count("usage") == 1


def test_the_collector_is_paused_only_while_the_pipeline_runs() -> None:
    seen: list[bool] = []
    with commands._Pipeline():
        seen.append(gc.isenabled())
        found = commands.check(REPO / TODO)
    assert seen == [False] and gc.isenabled()
    assert found.program == "todo"
    gc.disable()
    try:
        # NOTE: a caller that had paused it keeps it paused.
        with commands._Pipeline():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
