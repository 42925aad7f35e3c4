"""The tool describes itself, in-process: `schema`, `--schema`, `--field`, `--llms`."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from burgee.runtime.answers.output import _PRINTED
from burgee.runtime.commandline.argv import _Invocation
from burgee.runtime.commandline.describe import _describe, _part
from burgee.runtime.core.errors import UsageError
from burgee.runtime.program import replaced
from tests.runtime_program import program

ADD = {
    "name": "add",
    "summary": "Add a thing.",
    "args": [{"name": "item", "type": "string"}],
    "options": [{"name": "--count", "type": "integer"}, {"name": "--dry-run", "type": "boolean"}],
}
PURGE = {"name": "tasks purge", "summary": "Purge tasks."}
LIST = {"name": "tasks list", "summary": "List tasks."}
HIDDEN = {"name": "debug-dump", "summary": "Internal.", "hidden": True}
DOCUMENT = {"clispec": "0.3", "name": "tool", "commands": [ADD, PURGE, LIST, HIDDEN]}
LLMS = {"tools": [{"name": "add", "description": "Add a thing."}]}


# NOTE: a row of the command table: (handler, summary, shape, inputs, details).
_COMMAND = (lambda: None, "s", None, (), (("description", "d"),))
#: The program described: its documents, and the commands argv names.
TOOL = program(
    documents={"schema": json.dumps(DOCUMENT), "llms": json.dumps(LLMS)},
    name="tool",
    groups={"": (("add", ""), ("tasks", "")), "tasks": (("purge", ""), ("list", ""))},
    commands={"add": _COMMAND, "tasks purge": _COMMAND, "tasks list": _COMMAND},
)


def _printed(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert _describe(_Invocation(argv, TOOL)) is _PRINTED
    out = capsys.readouterr().out
    assert out.endswith("\n")
    assert out.count("\n") == 1, "one line when stdout is not a terminal"
    return json.loads(out)


def _refused(*argv: str) -> UsageError:
    with pytest.raises(UsageError) as raised:
        _describe(_Invocation(argv, TOOL))
    return raised.value


def _visible(*commands: dict[str, Any]) -> dict[str, Any]:
    return {**DOCUMENT, "commands": list(commands)}


def test_schema_prints_every_visible_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "schema") == _visible(ADD, PURGE, LIST)
    assert _printed(capsys, "--schema") == _visible(ADD, PURGE, LIST)
    assert _printed(capsys, "schema", "--help") == _visible(ADD, PURGE, LIST)


def test_schema_of_one_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "schema", "add") == _visible(ADD)
    assert _printed(capsys, "schema", "tasks", "purge") == _visible(PURGE)
    assert _printed(capsys, "add", "--schema") == _visible(ADD)
    assert _printed(capsys, "tasks", "purge", "--schema") == _visible(PURGE)


def test_schema_of_a_group_is_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "schema", "tasks") == _visible(PURGE, LIST)
    assert _printed(capsys, "tasks", "--schema") == _visible(PURGE, LIST)


def test_a_hidden_command_is_shown_only_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "schema", "debug-dump") == _visible(HIDDEN)


def test_schema_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "--schema", "--field", "commands.0.name") == "add"
    assert _printed(capsys, "--schema", "--field=commands.tasks list.summary") == "List tasks."
    assert _printed(capsys, "schema", "--field", "clispec") == "0.3"


def test_field_of_one_command_starts_at_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "add", "--schema", "--field", "options.count") == {
        "name": "--count",
        "type": "integer",
    }
    assert _printed(capsys, "add", "--schema", "--field", "options.dry-run.type") == "boolean"
    assert _printed(capsys, "add", "--schema", "--field", "args.item") == ADD["args"][0]
    assert _printed(capsys, "schema", "add", "--field", "summary") == "Add a thing."


def test_a_field_that_is_not_there() -> None:
    error = _refused("add", "--schema", "--field", "options.colour")
    assert error.message == "--field options.colour: nothing at 'colour'"
    error = _refused("--schema", "--field", "commands.9")
    assert error.message == "--field commands.9: nothing at '9'"


def test_llms_prints_the_manifest(capsys: pytest.CaptureFixture[str]) -> None:
    assert _printed(capsys, "--llms") == LLMS


def test_schema_of_an_unknown_command() -> None:
    error = _refused("schema", "nope")
    assert (error.message, error.hint) == ("unknown command 'nope'", "run 'tool schema' for all")
    error = _refused("--schema", "tasks", "prge")
    assert (error.message, error.hint) == ("unknown command 'prge'", "did you mean 'purge'?")
    # NOTE: the path, or a group, as help shows them; never a hidden command.
    assert _refused("schema", "task", "purg").hint == "did you mean 'tasks purge'?"
    assert _refused("schema", "taks").hint == "did you mean 'tasks'?"
    assert _refused("schema", "debug-dum").hint == "run 'tool schema' for all"


def test_config_is_no_flag_of_a_tool_without_one() -> None:
    """A program that reads no config file leaves `--config` to its commands (issue 35)."""
    invocation = _Invocation(["--config", "x.toml", "add"], TOOL)
    assert (invocation.rest, invocation.config()) == (["--config", "x.toml", "add"], None)
    assert _describe(invocation) is None
    read = _Invocation(["--config", "x.toml", "add"], replaced(TOOL, config=True))
    assert (read.rest, read.config()) == (["add"], "x.toml")


def test_anything_else_is_not_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert _describe(_Invocation(["add", "x"], TOOL)) is None
    assert capsys.readouterr().out == ""


def test_indented_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    _describe(_Invocation(["--llms"], TOOL))
    assert capsys.readouterr().out == json.dumps(LLMS, indent=2) + "\n"


def test_part_by_key_index_and_name() -> None:
    items = [{"name": "--count"}, {"name": "x"}, {"name": "7"}]
    assert _part({"a": {"b": 1}}, "a", "a") == {"b": 1}
    assert _part([10, 20, 30], "2", "f.2") == 30
    assert _part(items, "x", "f.x") == {"name": "x"}
    assert _part(items, "count", "f.count") == {"name": "--count"}
    assert _part(items, "--count", "f.--count") == {"name": "--count"}
    # NOTE: an index past the end may still be an item's name.
    assert _part(items, "7", "f.7") == {"name": "7"}
    assert _part(items, "1", "f.1") == {"name": "x"}


@pytest.mark.parametrize(
    ("data", "part"),
    [
        ({"a": 1}, "b"),
        ([1, 2], "2"),
        ([{"name": "x"}], "y"),
        ("text", "0"),
        ({"name": "a"}, "a"),
        # NOTE: digits that int() does not read: a usage error, not an internal one.
        ([1, 2, 3], "\u00b2"),
        ([1, 2, 3], "1\u2082"),
    ],
)
def test_part_that_is_not_there(data: Any, part: str) -> None:
    with pytest.raises(UsageError) as raised:
        _part(data, part, f"top.{part}")
    assert raised.value.message == f"--field top.{part}: nothing at {part!r}"
