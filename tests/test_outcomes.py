"""Declared outcomes, moved built-in exit codes and options that shadow a tool-wide flag, on the
golden `diffy` (an outcome `differ` at exit 1, `internal` moved to 70, `label -o/--version`)."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from tests.helpers import GOLDEN, burgee_in_process, generate, in_process, run

DIFFY = GOLDEN / "diffy" / "diffy.py"


def test_an_outcome_answers_and_exits_with_its_code() -> None:
    text = run(DIFFY, "compare", "a b", "a c")
    assert (text.code, text.out, text.err) == (1, "-b\n+c\n", "")
    answer = run(DIFFY, "compare", "a b", "a c", "--json")
    assert answer.code == 1
    assert answer.json() == {"ok": True, "data": ["-b", "+c"], "outcome": "differ"}
    assert answer.err == ""  # NOTE: an outcome is no failure: no error envelope
    same = run(DIFFY, "compare", "a b", "b a", "-o", "json")
    assert (same.code, same.json()) == (0, {"ok": True, "data": []})


def test_outcomes_and_moved_codes_in_every_description() -> None:
    doc = run(DIFFY, "schema").json()
    assert doc["outcomes"] == [
        {
            "code": 1,
            "name": "differ",
            "description": "The texts differ; the answer lists the lines that differ.",
        }
    ]
    compare = next(c for c in doc["commands"] if c["name"] == "compare")
    assert compare["outcomes"] == ["differ"]
    success = compare["stdout_schema"]["oneOf"][0]
    assert success["properties"]["outcome"] == {"enum": ["differ"]}
    codes = {e["kind"]: e["exit_code"] for e in doc["errors"]}
    assert codes["internal"] == 70
    assert 1 not in codes.values()
    help_text = run(DIFFY, "--help").out
    assert "  1    differ (an outcome, not a failure)\n" in help_text
    assert "  70   internal\n" in help_text
    skill = run(DIFFY, "--skill").out
    assert "| 1 | `differ` | The texts differ; the answer lists the lines that differ. |" in skill
    assert "| 70 | `internal` |" in skill
    llms = run(DIFFY, "--llms").json()
    assert "Outcomes: differ (exit 1)" in llms["tools"][0]["description"]


def test_a_moved_internal_code_is_the_exit_code(tmp_path: Path) -> None:
    tool = generate(
        tmp_path,
        """
        from burgee import command, program

        program(name="crash", exit_codes={"internal": 70})


        @command(effects="read_only")
        def boom() -> int:
            \"\"\"Fail.\"\"\"
            return 1 // 0
        """,
    )
    asked = in_process(tool)
    failed = asked.run("boom", "--json")
    assert failed.code == 70
    assert failed.error_line()["error"]["kind"] == "internal"


CLICK_STYLE = """
from burgee import CommandError, command, program

program(name="port", exit_codes={"internal": 70})


class Failed(CommandError):
    \"\"\"What Click's ClickException was: exit 1.\"\"\"

    kind = "failed"
    exit_code = 1


@command(effects="read_only")
def go() -> str:
    \"\"\"Fail as the Click original did.\"\"\"
    raise Failed("it did not work")
"""


def test_a_moved_internal_code_frees_exit_code_1_for_a_declared_error(tmp_path: Path) -> None:
    tool = generate(tmp_path, CLICK_STYLE)
    asked = in_process(tool)
    failed = asked.run("go", "--json")
    assert (failed.code, failed.error_line()["error"]["kind"]) == (1, "failed")
    codes = {e["kind"]: e["exit_code"] for e in asked.run("schema").json()["errors"]}
    assert (codes["failed"], codes["internal"]) == (1, 70)


def test_exit_code_1_is_internals_until_it_is_moved(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(
        CLICK_STYLE.replace(', exit_codes={"internal": 70}', ""), encoding="utf-8"
    )
    result = burgee_in_process(
        "gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "port.py")
    )
    assert result.returncode == 2
    assert (
        "exit_code 1 of Failed must be between 1 and 125 and not one of the built-in codes: "
        "1 (internal), 2 (usage)" in result.stderr
    )


def test_mcp_returns_the_result_and_names_the_outcome() -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(DIFFY), "--mcp"])

    async def go(mode: str) -> Any:
        async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
            return await client.call_tool("compare", {"left": "a b", "right": "a c"})

    for mode in ("legacy", "auto"):
        result = asyncio.run(go(mode))
        assert not result.is_error
        assert result.structured_content == {"result": ["-b", "+c"]}
        assert result.meta is not None and result.meta["outcome"] == "differ"
        assert json.loads(result.content[0].text)["outcome"] == "differ"  # type: ignore[union-attr]


def test_a_shadowing_option_wins_on_its_command() -> None:
    own = run(DIFFY, "label", "notes", "-o", "upper", "--version", "2")
    assert (own.code, own.out) == (0, "NOTES V2\n")
    glued = run(DIFFY, "label", "notes", "--output=upper", "--json")
    assert glued.json()["data"] == "NOTES V1"
    # NOTE: -o json is the label's case there, so argparse refuses it as a usage error.
    refused = run(DIFFY, "label", "notes", "-o", "json")
    assert refused.code == 2
    message = refused.error_line()["error"]["message"]
    assert message == "--output: expected one of upper, lower, got 'json'"
    # NOTE: elsewhere the tool-wide flags are what they always were.
    assert run(DIFFY, "compare", "a", "a", "-o", "json").json() == {"ok": True, "data": []}
    assert run(DIFFY, "--version").out == "diffy 1.0.0\n"
    assert run(DIFFY, "compare", "a", "a", "--version").code == 2


def test_help_completion_and_schema_describe_the_commands_own_option() -> None:
    help_text = run(DIFFY, "label", "--help").out
    own, _, tool_wide = help_text.partition("tool-wide flags (")
    assert "-o {upper,lower}, --output {upper,lower}" in own
    assert "--version VERSION" in own
    spellings = set(re.findall(r"(?<![\w-])-[\w-]+", tool_wide))
    assert "--json" in spellings and spellings.isdisjoint({"-o", "--output"})
    compare_help = run(DIFFY, "compare", "--help").out.partition("tool-wide flags (")[2]
    assert "-o/--output FORMAT" in compare_help
    doc = run(DIFFY, "schema", "label").json()
    args = {a["name"]: a for a in doc["commands"][0]["args"]}
    assert args["--output"]["enum"] == ["upper", "lower"]
    bash = (GOLDEN / "diffy" / "completions" / "diffy").read_text(encoding="utf-8")
    assert "upper" in bash


def test_gen_refuses_an_unmarked_clash_with_a_hint(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        "from typing import Annotated\n"
        "from burgee import Option, command\n\n\n"
        '@command(effects="read_only")\n'
        'def show(output: Annotated[str, Option("-o")] = "x") -> str:\n'
        '    """Show."""\n'
        "    return output\n",
        encoding="utf-8",
    )
    result = burgee_in_process("gen", str(handlers), "-o", str(tmp_path / "out.py"))
    assert result.returncode == 2
    assert "declare Option(..., shadows=True)" in result.stderr


def test_a_command_lists_the_outcomes_its_handler_raises(tmp_path: Path) -> None:
    doc = run(DIFFY, "schema").json()
    outcomes = {c["name"]: c.get("outcomes") for c in doc["commands"]}
    assert outcomes["compare"] == ["differ"] and outcomes["label"] is None
    label = next(c for c in doc["commands"] if c["name"] == "label")
    assert "outcome" not in label["stdout_schema"]["oneOf"][0]["properties"]
    # NOTE: an outcome only a helper raises may end any command.
    tool = generate(
        tmp_path,
        """
        from burgee import Outcome, command


        class Empty(Outcome):
            \"\"\"Nothing to show.\"\"\"

            name = "empty"
            exit_code = 3


        def checked_text(text: str) -> str:
            if not text:
                raise Empty(text)
            return text


        @command(effects="read_only")
        def show(text: str = "") -> str:
            \"\"\"Show a text.\"\"\"
            return checked_text(text)


        @command(effects="read_only")
        def echo(text: str = "") -> str:
            \"\"\"Echo a text.\"\"\"
            return text
        """,
    )
    asked = in_process(tool)
    listed = {c["name"]: c.get("outcomes") for c in asked.run("schema").json()["commands"]}
    assert listed["show"] == ["empty"] and listed["echo"] == ["empty"]
    ended = asked.run("show", "--json")
    assert (ended.code, ended.json()["outcome"], ended.json()["data"]) == (3, "empty", "")
