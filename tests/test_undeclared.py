"""Effects an app never declared: a command with `effects: "undeclared"` (every command of a
Typer or Click app; `@command(effects="undeclared")` says so in burgee's dialect) is listed as
such, with no MCP annotations (clients then assume the worst), and `--batch`, the skill and
clispec treat it as changing the world. An author declares effects, and withholds a command,
without touching the app: `[tool.burgee.commands."PATH"]` in the pyproject.toml beside it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tests.helpers import burgee_in_process, generate, in_process

APP = '''\
"""An app whose effects nobody declared."""
from burgee import command, group, program

program(name="undecl", version="1.0.0")

db = group("db", help="The database.")


@command(effects="undeclared")
def show() -> str:
    """Show things."""
    return "shown"


@db.command(effects="undeclared")
def drop() -> str:
    """Drop the database."""
    return "dropped"


@command(effects="undeclared")
def sync() -> str:
    """Sync."""
    return "synced"


@command(effects="read_only")
def version() -> str:
    """Say the version."""
    return "1.0.0"
'''

PYPROJECT = """\
[project]
name = "undecl"
version = "1.0.0"

[tool.burgee.commands.show]
effects = "read_only"

[tool.burgee.commands."db drop"]
effects = "withheld"
"""


def _tools(tool: Path) -> dict[str, dict[str, object]]:
    llms = in_process(tool).run("--llms").json()
    return {entry["name"]: entry for entry in llms["tools"]}


def test_an_undeclared_command_has_no_hints_and_says_so(tmp_path: Path) -> None:
    tool = generate(tmp_path, APP)
    tools = _tools(tool)
    assert "annotations" not in tools["sync"]
    assert "undeclared" in str(tools["sync"]["description"])
    assert tools["version"]["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
    }
    schema = in_process(tool).run("schema").json()
    entry = next(c for c in schema["commands"] if c["name"] == "sync")
    # NOTE: clispec has no "undeclared": the worst it can say, and burgee's own key.
    assert (entry["effects"], entry["burgee_effects"]) == ("non_idempotent", "undeclared")
    skill = in_process(tool).run("--skill").out
    lines = skill.splitlines()
    at = next(i for i, text in enumerate(lines) if text.endswith(" sync`: Sync."))
    assert lines[at + 1].strip().startswith("Its effects are undeclared"), skill
    at = next(i for i, text in enumerate(lines) if text.endswith(" version`: Say the version."))
    assert "undeclared" not in lines[at + 1]


def test_an_undeclared_command_runs_alone_in_a_batch(tmp_path: Path) -> None:
    tool = generate(tmp_path, APP)
    calls = [
        {"id": 1, "command": "sync", "input": {}},
        {"id": 2, "command": "version", "input": {}},
    ]
    done = in_process(tool).run("--batch", stdin="".join(json.dumps(c) + "\n" for c in calls))
    assert done.code == 0, done
    answers = [json.loads(line) for line in done.out.splitlines()]
    assert [a["data"] for a in answers] == ["synced", "1.0.0"]


def test_pyproject_declares_effects_beside_the_app(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    tool = generate(tmp_path, APP)
    tools = _tools(tool)
    assert tools["show"]["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
    }
    assert "db drop" not in tools
    assert "annotations" not in tools["sync"]
    # NOTE: withheld is kept out of tools/list, but runs from the command line.
    assert in_process(tool).run("db", "drop").out.strip() == "dropped"


def test_pyproject_errors_are_placed_in_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [tool.burgee.commands.shw]
            effects = "read_only"

            [tool.burgee.commands.sync]
            effects = "sometimes"

            [tool.burgee.commands.version]
            effects = "idempotent"
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "handlers.py").write_text(APP, encoding="utf-8")
    made = burgee_in_process("gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "t.py"))
    assert made.returncode == 2, made.stderr
    pyproject = tmp_path / "pyproject.toml"
    assert (
        f"{pyproject}:1:1: error: [tool.burgee.commands] names no command 'shw'"
        " (did you mean 'show'?)" in made.stderr
    ), made.stderr
    assert f"{pyproject}:5:1: error: effects must be one of read_only," in made.stderr
    assert f"{pyproject}:7:1: error: version declares its effects in the app" in made.stderr, (
        made.stderr
    )
