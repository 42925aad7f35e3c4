"""What a person new to a generated tool types wrong, and what the tool makes of it: JSON that
is no object after `--json`, a secret typed without its flag, a time with a fraction of a
second other than 3 or 6 digits, `--config` naming something that is no file, a root command
with a pass-through argument, an empty-string default in help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import InProcessTool, generate, in_process

HANDLERS = '''
"""Mistakes: what a new user types."""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal, Optional

from burgee import Argument, Option, command, program

program(name="mistakes", config=True)


@command(effects="read_only", root=True)
def run_(
    script: Annotated[str, Argument(help="The script")],
    args: Annotated[list[str], Argument(passthrough=True, help="Its arguments")] = [],
) -> dict[str, Any]:
    """Run a script."""
    return {"script": script, "args": args}


@command(effects="read_only")
def hello(name: Annotated[str, Argument(help="Who to greet")], times: int = 1) -> str:
    """Greet someone."""
    return " ".join([f"Hello, {name}!"] * times)


@command(effects="read_only")
def files(
    dest: Annotated[str, Argument(help="Where to")],
    paths: Annotated[list[str], Argument(help="What")] = [],
    body: Annotated[str, Option(help="The text")] = "",
) -> Any:
    """Copy some files."""
    return {"dest": dest, "paths": paths, "body": body}


@command(effects="read_only")
def pick(
    dest: Annotated[str, Argument(help="Where to")],
    tags: Annotated[list[Literal["a", "b"]], Argument(help="Which")] = [],
) -> Any:
    """Pick some tags."""
    return {"dest": dest, "tags": tags}


@command(effects="idempotent")
def login(token: Annotated[str, Option(secret=True)], user: str = "me") -> str:
    """Log in."""
    return f"{user} ok"


@command(effects="idempotent")
def deploy(
    target: Annotated[Literal["staging", "prod"], Argument(help="Where")],
    token: Annotated[str, Option(secret=True)] = "",
    count: int = 1,
) -> str:
    """Deploy somewhere."""
    return target


@command(effects="idempotent")
def unlock(
    door: Annotated[int, Argument(help="Which door")],
    token: Annotated[str, Option(secret=True)] = "",
) -> int:
    """Unlock a door."""
    return door


@command(effects="read_only")
def when(
    at: Optional[datetime.datetime] = None, alarm: Optional[datetime.time] = None
) -> dict[str, Any]:
    """Echo a date-time and a time."""
    return {
        "at": at.isoformat() if at else None,
        "alarm": alarm.isoformat() if alarm else None,
    }
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> InProcessTool:
    return in_process(generate(tmp_path_factory.mktemp("mistakes"), HANDLERS))


# --- `--json` followed by JSON that is no object -------------------------------------------


@pytest.mark.parametrize("text", ['[{"name": "Ada"}]', ' [{"name": "Ada"}]', "[]"])
def test_a_json_array_after_json_is_input_and_refused(tool: InProcessTool, text: str) -> None:
    """Not the next positional: `hello --json '[...]'` once answered `Hello, [...]!`."""
    result = tool.run("hello", "--json", text)
    assert result.code == 2, result
    error = result.json()["error"]
    assert error["kind"] == "usage"
    assert error["message"] == ("--json input must be a JSON object whose keys are parameter names")
    assert "--batch" in error["hint"]


def test_the_same_array_after_json_equals_gets_the_same_error(tool: InProcessTool) -> None:
    spaced = tool.run("hello", "--json", '[{"name": "Ada"}]').json()
    joined = tool.run("hello", '--json=[{"name": "Ada"}]').json()
    assert spaced == joined


def test_an_object_after_json_with_leading_space_is_input(tool: InProcessTool) -> None:
    result = tool.run("hello", "--json", ' \n {"name": "Ada"}')
    assert (result.code, result.json()["data"]) == (0, "Hello, Ada!")


@pytest.mark.parametrize("word", ['"Ada"', "null", "3", "true"])
def test_a_json_scalar_after_json_stays_a_positional(tool: InProcessTool, word: str) -> None:
    """A scalar is a plain value too (a name, a count): it stays the command's word."""
    result = tool.run("hello", "--json", word)
    assert (result.code, result.json()["data"]) == (0, f"Hello, {word}!")


def test_a_batch_line_and_an_mcp_call_are_read_as_before(tool: InProcessTool) -> None:
    line = json.dumps({"id": 1, "command": "hello", "input": {"name": "Ada"}})
    result = tool.run("--batch", stdin=line + "\n")
    assert json.loads(result.out)["data"] == "Hello, Ada!"


# --- a secret typed without its flag -------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (
            ["login", "crash-token-1234"],
            "unrecognized arguments: 1 word not shown, as the command takes a secret",
        ),
        (
            ["login", "--token", "t", "crash-token-1234", "two"],
            "unrecognized arguments: 2 words not shown, as the command takes a secret",
        ),
        (
            ["login", "--tokn", "crash-token-1234"],
            "unrecognized arguments: 2 words not shown, as the command takes a secret",
        ),
        (
            ["login", "--tokn=crash-token-1234"],
            "unrecognized arguments: 1 word not shown, as the command takes a secret",
        ),
        (
            ["deploy", "prod", "crash-token-1234"],
            "unrecognized arguments: 1 word not shown, as the command takes a secret",
        ),
        (
            ["deploy", "crash-token-1234"],
            "target: expected one of staging, prod (the word given is not shown, as the"
            " command takes a secret)",
        ),
    ],
)
def test_a_word_of_a_command_that_takes_a_secret_is_not_shown(
    tool: InProcessTool, words: list[str], message: str
) -> None:
    for json_mode in ([], ["--json"]):
        result = tool.run(*words, *json_mode)
        assert result.code == 2, result
        assert "crash-token-1234" not in result.out + result.err
        assert result.error_line()["error"]["message"] == message


def test_a_mistyped_flag_of_a_command_that_takes_a_secret_is_still_suggested(
    tool: InProcessTool,
) -> None:
    error = tool.run("login", "--tokn", "crash-token-1234").error_line()["error"]
    assert error["hint"] == "did you mean '--token'?"


def test_a_word_left_over_with_json_input_of_a_secret_command_is_not_shown(
    tool: InProcessTool,
) -> None:
    result = tool.run("login", "crash-token-1234", "--json", '{"token": "t"}')
    assert result.code == 2, result
    assert "crash-token-1234" not in result.out + result.err
    assert result.json()["error"]["message"] == (
        "unexpected word (not shown, as the command takes a secret): with --json input, give"
        " every value in the JSON object"
    )


@pytest.mark.parametrize(
    ("word", "message"),
    [
        (
            "crash-token-1234",
            "door: expected an integer, got the word given (not shown, as the command takes a"
            " secret)",
        ),
        # NOTE: a word the message holds anyway ("an"): no part of the message is taken out.
        (
            "an",
            "door: not a valid value (the word given is not shown, as the command takes a secret)",
        ),
    ],
)
def test_a_positional_word_a_converter_refuses_is_not_shown(
    tool: InProcessTool, word: str, message: str
) -> None:
    result = tool.run("unlock", word, "--json")
    assert result.code == 2, result
    assert result.json()["error"]["message"] == message
    shown = tool.run("unlock", word, "--token", "t", "--json").json()["error"]["message"]
    assert shown == message
    plain = tool.run("hello", "Ada", "--times", "x", "--json").json()["error"]["message"]
    assert plain == "--times: expected an integer, got 'x'"


def test_the_words_of_a_command_without_a_secret_are_still_shown(tool: InProcessTool) -> None:
    result = tool.run("hello", "Ada", "extra")
    assert result.error_line()["error"]["message"] == "unrecognized arguments: extra"


# --- fractions of a second -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("23:59:59.5", "23:59:59.500000"),
        ("23:59:59.12", "23:59:59.120000"),
        ("23:59:59.123", "23:59:59.123000"),
        ("23:59:59.1234", "23:59:59.123400"),
        ("23:59:59.123456", "23:59:59.123456"),
        ("23:59:59.1234567", "23:59:59.123456"),
        ("23:59:59.999999999", "23:59:59.999999"),
        ("10:00:00.5Z", "10:00:00.500000+00:00"),
        ("10:00:00.25+02:00", "10:00:00.250000+02:00"),
    ],
)
def test_a_time_takes_one_to_nine_digits_of_a_second(
    tool: InProcessTool, text: str, read: str
) -> None:
    for words in (["--alarm", text], ["--json", json.dumps({"alarm": text})]):
        result = tool.run("when", *words, "--json")
        assert result.code == 0, result
        assert result.json()["data"]["alarm"] == read
    at = tool.run("when", "--at", f"2026-03-01T{text}", "--json")
    assert at.json()["data"]["at"] == f"2026-03-01T{read}"


@pytest.mark.parametrize("text", ["23:59:59.", "23:59:59.1234567890", "23:59:59.1a", "23:59.5"])
def test_a_time_with_no_digit_or_too_many_is_refused(tool: InProcessTool, text: str) -> None:
    result = tool.run("when", "--alarm", text, "--json")
    assert result.code == 2, result
    assert result.json()["error"]["message"] == (
        f"--alarm: expected a time (HH:MM[:SS[.fff]]), got {text!r}"
    )


# --- `--config` naming what is no file -----------------------------------------------------


def test_config_naming_a_device_says_what_it_is(tool: InProcessTool) -> None:
    result = tool.run("hello", "Ada", "--config", "/dev/null", "--json")
    assert result.code == 2, result
    assert result.json()["error"]["message"] == (
        "--config /dev/null: not a regular file (a character device)"
    )


def test_config_naming_a_directory_or_nothing_says_so(tool: InProcessTool, tmp_path: Path) -> None:
    folder = tool.run("hello", "Ada", "--config", str(tmp_path), "--json")
    assert folder.json()["error"]["message"] == f"--config {tmp_path}: a directory, not a file"
    missing = tool.run("hello", "Ada", "--config", str(tmp_path / "no.json"), "--json")
    assert missing.json()["error"]["message"] == f"--config {tmp_path / 'no.json'}: no such file"


# --- a pass-through argument, and a list argument, with a default --------------------------


@pytest.mark.parametrize("words", [[], ["run"]])
def test_only_the_required_argument_is_named_missing(tool: InProcessTool, words: list[str]) -> None:
    result = tool.run(*words, "--json")
    assert result.code == 2, result
    assert result.json()["error"]["message"] == "the following arguments are required: script"


def test_a_list_argument_with_a_default_is_not_required(tool: InProcessTool) -> None:
    result = tool.run("files", "--json")
    assert result.json()["error"]["message"] == "the following arguments are required: dest"
    assert tool.run("files", "d", "--json").json()["data"]["paths"] == []


def test_a_list_argument_of_choices_may_be_left_out(tool: InProcessTool) -> None:
    assert tool.run("pick", "--json").json()["error"]["message"] == (
        "the following arguments are required: dest"
    )
    assert tool.run("pick", "d", "--json").json()["data"] == {"dest": "d", "tags": []}
    assert tool.run("pick", "d", "b", "a", "--json").json()["data"]["tags"] == ["b", "a"]
    refused = tool.run("pick", "d", "c", "--json").json()["error"]["message"]
    assert refused == "tags: expected one of a, b, got 'c'"


# --- an empty-string default in help -------------------------------------------------------


def test_an_empty_string_default_shows_quoted_in_help(tool: InProcessTool) -> None:
    shown = " ".join(tool.run("files", "--help").out.split())
    assert '--body BODY The text (default: "")' in shown
    explained = tool.run("files", "--explain", "body").out
    assert 'body = ""' in explained
