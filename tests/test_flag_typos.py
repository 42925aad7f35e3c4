"""A mistyped flag gets a "did you mean" from the command's own options and the tool-wide
flags that apply to it (`flags.FLAGS`), case aside: `--jsn`, `--JSON` and `-j` mean `--json`,
`--format` (another tool's name for it) `--output`."""

from __future__ import annotations

import json

import pytest

from tests.helpers import InProcessTool, generate, in_process

HANDLERS = '''
"""Typos."""

from __future__ import annotations

import json

from typing import Annotated

from burgee import Option, command, group, program

program(name="typos")
remote = group("remote", help="Remotes.")


@command(effects="read_only")
def ls(sort: str = "name") -> str:
    """List things."""
    return sort


@command(effects="destructive")
def rm(name: str) -> str:
    """Remove a thing."""
    return name


@command(effects="idempotent")
def login(token: Annotated[str, Option(secret=True)]) -> str:
    """Log in."""
    return "ok"


@remote.command(effects="read_only")
def show() -> str:
    """Show the remotes."""
    return "origin"
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> InProcessTool:
    return in_process(generate(tmp_path_factory.mktemp("typos"), HANDLERS))


@pytest.mark.parametrize(
    ("words", "hint"),
    [
        (["ls", "--jsn"], "did you mean '--json'?"),
        (["ls", "--JSON"], "did you mean '--json'?"),
        (["ls", "-json"], "did you mean '--json'?"),
        (["ls", "-j"], "did you mean '--json'?"),
        (["ls", "-O", "json"], "did you mean '-o'?"),
        (["ls", "--format", "json"], "did you mean '--output'?"),
        (["ls", "--format=json"], "did you mean '--output'?"),
        (["ls", "--srot", "x"], "did you mean '--sort'?"),
        (["ls", "--SORT", "x"], "did you mean '--sort'?"),
        (["ls", "--timout", "3"], "did you mean '--timeout'?"),
        (["rm", "x", "--force"], "did you mean '--yes'?"),
        (["rm", "x", "--YES"], "did you mean '--yes'?"),
        (["remote", "--jsn"], "did you mean '--json'?"),
    ],
)
def test_a_mistyped_flag_is_suggested(tool: InProcessTool, words: list[str], hint: str) -> None:
    result = tool.run(*words)
    assert result.code == 2, result
    assert result.error_line()["error"]["hint"] == hint


def test_yes_is_suggested_only_where_it_applies(tool: InProcessTool) -> None:
    """`ls` does not ask first: `--force` is no `--yes` there."""
    hint = tool.run("ls", "--force").error_line()["error"]["hint"]
    assert "--yes" not in hint


def test_a_command_that_takes_a_secret_names_the_flag_but_quotes_no_word(
    tool: InProcessTool,
) -> None:
    result = tool.run("login", "--jsn", "crash-token-1234")
    assert result.code == 2, result
    assert "crash-token-1234" not in result.out + result.err
    assert "--jsn" not in result.out + result.err
    assert result.error_line()["error"]["hint"] == "did you mean '--json'?"


# --- `--yes` where it means nothing, and as a key of JSON input ------------------------------


@pytest.mark.parametrize(
    "words", [["ls", "--yes"], ["ls", "-y"], ["ls", "--yes", "--json", "{}"], ["ls", "--YES"]]
)
def test_yes_on_a_command_that_does_not_ask_says_so(tool: InProcessTool, words: list[str]) -> None:
    """`help flags` lists `--yes` with the tool-wide flags: only a command that asks takes it."""
    result = tool.run(*words)
    assert result.code == 2, result
    hint = result.error_line()["error"]["hint"]
    assert hint == "this command does not ask yes or no: --yes is only for the commands that do"


def test_help_flags_says_yes_is_for_the_commands_that_ask(tool: InProcessTool) -> None:
    help_text = " ".join(tool.run("help", "flags").out.split())
    assert "--yes answer yes to the command's every yes/no question" in help_text


@pytest.mark.parametrize("key", ["yes", "force"])
def test_yes_as_a_key_of_json_input_says_how_to_confirm(tool: InProcessTool, key: str) -> None:
    result = tool.run("rm", "--json", json.dumps({"name": "a", key: True}))
    assert result.code == 2, result
    error = result.json()["error"]
    assert error["message"] == f"unknown key {key!r}"
    assert error["hint"] == "keys: name; confirmation is no key: give --yes after the JSON input"
    confirmed = tool.run("rm", "--json", '{"name": "a"}', "--yes")
    assert (confirmed.code, confirmed.json()["data"]) == (0, "a")


def test_yes_as_a_key_of_a_command_that_does_not_ask_lists_the_keys(tool: InProcessTool) -> None:
    error = tool.run("ls", "--json", '{"yes": true}').json()["error"]
    assert error["hint"] == "keys: sort"
