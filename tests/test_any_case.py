"""Choices taken in any case (`case_sensitive=False`): Click's `Choice(case_sensitive=False)`
and Typer's `case_sensitive=False` read as written, and burgee's own `Option(...)`/`Argument(...)`
setting. A word naming a choice in another case is that choice, as Click gives it: the same
values as Click's own parser on the same lines; help still lists the choices; a word that is
no choice in any case is a usage error (exit 2); JSON input stays exact (its schema's enum).
Also Click's help markers in a docstring (`\\b`, `\\f`), read as Click reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest

from tests.helpers import burgee_in_process, generate, import_tool

CLICK_APP = '''\
"""Paint things."""
import click


@click.command()
@click.argument("color", type=click.Choice(["red", "Green"], case_sensitive=False))
@click.option("--format", "fmt", type=click.Choice(["json", "text"], case_sensitive=False),
              default="text", help="How to print.")
@click.option("--tag", type=click.Choice(["a", "b"], case_sensitive=False), multiple=True)
@click.option("--mode", type=click.Choice(["fast", "slow"]), default="fast")
def paint(color, fmt, tag, mode):
    """Paint one color."""
    return {"color": color, "fmt": fmt, "tag": list(tag), "mode": mode}
'''

#: Lines Click takes (each choice as it declared it) and lines it refuses (exit 2).
LINES = (
    "red", "RED", "ReD", "green", "GREEN", "Green", "red --format JSON", "red --format Text",
    "red --tag A --tag b", "red --tag B --format json", "red --mode FAST", "blue",
    "red --format yaml", "red --tag c", "red --mode slow", "rEd --format=TEXT",
)  # fmt: skip


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[click.Command, Any]:
    folder = tmp_path_factory.mktemp("any_case")
    app = folder / "paint_app.py"
    app.write_text(CLICK_APP, encoding="utf-8")
    out = folder / "paint_tool.py"
    made = burgee_in_process("gen", str(app), "-o", str(out))
    assert made.returncode == 0, made.stderr
    module = import_tool(app, "any_case_click_app")
    return module.paint, import_tool(out, "any_case_paint_tool")


def _click(command: click.Command, line: str) -> dict[str, Any] | None:
    """What Click's own parser makes of `line`: the values, or None if it refuses it."""
    try:
        return command.main(line.split(), standalone_mode=False)  # type: ignore[no-any-return]
    except click.UsageError:
        return None


@pytest.mark.parametrize("line", LINES)
def test_the_tool_reads_a_line_as_click_does(both: tuple[click.Command, Any], line: str) -> None:
    command, tool = both
    want = _click(command, line)
    done = tool.invoke([*line.split(), "--json"])
    if want is None:
        assert done.exit_code == 2, done.stdout
        assert json.loads(done.stdout)["error"]["kind"] == "usage"
    else:
        assert done.exit_code == 0, done.stdout + done.stderr
        assert json.loads(done.stdout)["data"] == want


def test_the_lines_hold_both_answers(both: tuple[click.Command, Any]) -> None:
    """The lines above are not all taken nor all refused (the test could not pass by one)."""
    read = [_click(both[0], line) for line in LINES]
    assert 0 < read.count(None) < len(read)
    assert {"RED", "GREEN", "JSON"} & {w for line in LINES for w in line.split()}


def test_help_still_lists_the_choices(both: tuple[click.Command, Any]) -> None:
    done = both[1].invoke(["--help"])
    assert done.exit_code == 0
    assert "--format {json,text}" in done.stdout
    assert "{red,Green}" in done.stdout


def test_json_input_takes_the_choices_as_written(both: tuple[click.Command, Any]) -> None:
    """JSON input is typed: its schema's enum, the choices exactly (an agent reads them)."""
    tool = both[1]
    ok = tool.invoke(["--json", '{"color": "Green", "fmt": "json"}'])
    assert ok.exit_code == 0, ok.stdout
    assert json.loads(ok.stdout)["data"]["color"] == "Green"
    done = tool.invoke(["--json", '{"color": "GREEN"}'])
    assert done.exit_code == 2
    schema = json.loads(tool.invoke(["schema"]).stdout)
    found = json.dumps(schema)
    assert '"enum": ["red", "Green"]' in found


OWN = '''\
"""Own dialect."""
from enum import Enum
from typing import Annotated, Literal

from burgee import Argument, Option, command


class Color(str, Enum):
    RED = "red"
    GREEN = "green"


@command(effects="read_only")
def paint(
    color: Annotated[Color, Argument(case_sensitive=False)],
    fmt: Annotated[Literal["json", "text"], Option("--format", case_sensitive=False)] = "text",
) -> str:
    """Paint.

    Args:
        color: The color.
        fmt: The format.
    """
    return f"{color.value} {fmt}"
'''


def test_burgee_s_own_dialect_takes_it(tmp_path: Path) -> None:
    tool = import_tool(generate(tmp_path, OWN), "any_case_own")
    done = tool.invoke(["paint", "GREEN", "--format", "JSON"])
    assert (done.exit_code, done.stdout) == (0, "green json\n")
    assert tool.invoke(["paint", "Blue"]).exit_code == 2


def test_it_needs_a_choice(tmp_path: Path) -> None:
    source = OWN.replace("Annotated[Color, Argument(case_sensitive=False)]", "Color").replace(
        'Literal["json", "text"], Option("--format", case_sensitive=False)',
        'str, Option("--format", case_sensitive=False)',
    )
    (tmp_path / "handlers.py").write_text(source, encoding="utf-8")
    done = burgee_in_process("gen", str(tmp_path / "handlers.py"), "-o", str(tmp_path / "t.py"))
    assert done.returncode == 2
    assert "case_sensitive=False of 'fmt' needs a Literal or an Enum" in done.stderr
    assert not (tmp_path / "t.py").exists()


TYPER_APP = '''\
"""Typer paint."""
from enum import Enum

import typer

app = typer.Typer()


class Color(str, Enum):
    red = "red"
    green = "green"


@app.command()
def paint(color: Color = typer.Option("green", case_sensitive=False)) -> None:
    """Paint."""
    typer.echo(color.value)
'''


def test_typer_s_setting_and_a_default_given_as_the_value_are_read(tmp_path: Path) -> None:
    app = tmp_path / "typer_paint.py"
    app.write_text(TYPER_APP, encoding="utf-8")
    out = tmp_path / "typer_tool.py"
    made = burgee_in_process("gen", str(app), "-o", str(out))
    assert made.returncode == 0, made.stderr
    assert "case_sensitive" not in made.stderr  # NOTE: read, no warning left
    tool = import_tool(out, "any_case_typer")
    done = tool.invoke(["--color", "RED"])
    assert (done.exit_code, done.stdout) == (0, "red\n")
    # NOTE: Typer converts a default given as the Enum's value, as it converts a word
    assert tool.invoke([]).stdout == "green\n"


def test_click_s_help_markers_read_as_click_reads_them(tmp_path: Path) -> None:
    """`\\b` (keep the next paragraph as written) is no text, and help ends at `\\f` (what
    follows is for the source's readers): towncrier's `create` leaked `\\b` into --llms."""
    app = tmp_path / "marked.py"
    app.write_text(
        "import click\n\n\n@click.command()\ndef create():\n"
        '    """Create a fragment.\n\n    \\b\n    These are:\n      a\n      b\n'
        '    \\f\n    :param x: for the source only\n    """\n',
        encoding="utf-8",
    )
    made = burgee_in_process("gen", str(app), "-o", str(tmp_path / "t.py"))
    assert made.returncode == 0, made.stderr
    tool = import_tool(tmp_path / "t.py", "any_case_marked")
    for line in (["--help"], ["--llms"], ["schema"]):
        text = tool.invoke(line).stdout
        assert "These are:" in text, line
        assert chr(8) not in text and chr(12) not in text, line
        assert "\\u0008" not in text and "\\b" not in text and "\\f" not in text, line
        assert "for the source only" not in text and "param x" not in text, line
