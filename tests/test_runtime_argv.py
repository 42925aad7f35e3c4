"""The command line, in-process: the tool-wide flags taken out of argv, the command path,
`--json` input, and parsers whose errors are usage errors."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from typing import Any

import pytest

from burgee.runtime.commandline import argv, argv_parser
from burgee.runtime.commandline.argv import _find, _Invocation, _read_json_input
from burgee.runtime.commandline.argv_parser import _new_parser, _unrecognized
from burgee.runtime.core.errors import UsageError
from burgee.runtime.core.flags import FLAGS
from burgee.runtime.program import Program
from tests.runtime_program import program


def _usage(args: list[str]) -> UsageError:
    with pytest.raises(UsageError) as raised:
        _Invocation(args, program(config=True))
    return raised.value


# NOTE: one row per flag in FLAGS: how it is spelled on a command line, and what it sets.
_EVERY_FLAG: dict[str, tuple[list[str], Callable[[_Invocation], object], object]] = {
    "--json": (["--json"], lambda i: (i.json, i.json_input), (True, None)),
    "--output": (["--output", "json"], lambda i: i.json, True),
    "--debug": (["--debug"], lambda i: i.debug, True),
    "--timeout": (["--timeout", "2.5"], lambda i: i.timeout, 2.5),
    "--schema": (["--schema"], lambda i: i.asked, {"--schema": ""}),
    "--field": (["--llms", "--field", "a.b"], lambda i: i.asked, {"--llms": "", "--field": "a.b"}),
    "--explain": (["--explain", "count"], lambda i: i.asked, {"--explain": "count"}),
    "--config": (["--config", "x.toml"], lambda i: i.asked, {"--config": "x.toml"}),
    "--llms": (["--llms"], lambda i: i.asked, {"--llms": ""}),
    "--mcp": (["--mcp"], lambda i: i.mcp, True),
    "--print-config": (["--mcp", "--print-config"], lambda i: i.print_config, True),
    "--version": (["--version"], lambda i: i.version, True),
    "--batch": (["--batch=calls.jsonl"], lambda i: i.batch, "calls.jsonl"),
    "--max-output": (["--max-output", "500"], lambda i: i.max_output, 500),
    "--spill-dir": (["--spill-dir", "cut"], lambda i: i.spill_dir, "cut"),
    "--output-file": (["--output-file", "a.png"], lambda i: i.asked, {"--output-file": "a.png"}),
    "--jobs": (["--batch", "--jobs", "3"], lambda i: i.jobs, 3),
    "--as-completed": (["--batch", "--as-completed"], lambda i: i.as_completed, True),
    "--allow-destructive": (
        ["--batch", "--allow-destructive"],
        lambda i: i.allow_destructive,
        True,
    ),
    "--skill": (["--skill"], lambda i: i.asked, {"--skill": ""}),
    "--answer": (
        ["--answer", "a=1", "--answer=b=x=y"],
        lambda i: i.answers,
        {"a": "1", "b": "x=y"},
    ),
    # NOTE: --yes belongs to the commands that ask first; it is read once the command is known.
    "--yes": (["--yes"], lambda i: i.rest, ["add", "--yes", "x"]),
}


def test_the_table_covers_every_flag() -> None:
    assert set(_EVERY_FLAG) == {flag.name for flag in FLAGS}


@pytest.mark.parametrize("name", sorted(_EVERY_FLAG))
def test_every_flag_is_taken_out_of_argv(name: str) -> None:
    words, read, expected = _EVERY_FLAG[name]
    # NOTE: `--config` is a tool-wide flag only where the program reads a config file.
    invocation = _Invocation(["add", *words, "x"], program(config=True))
    assert read(invocation) == expected
    if name != "--yes":
        assert invocation.rest == ["add", "x"]


@pytest.mark.parametrize("flag", [flag for flag in FLAGS if flag.metavar and flag.name != "--json"])
def test_a_value_flag_takes_its_value_after_equals_or_as_the_next_word(flag: Any) -> None:
    value = flag.choices[0] if flag.choices else "n=7" if "=" in flag.metavar else "7"
    partner = [name for name in flag.goes_with if name.startswith("-")][:1]
    made = program(config=True)
    after_equals = _Invocation([*partner, f"{flag.name}={value}", "add"], made)
    next_word = _Invocation([*partner, flag.name, value, "add"], made)
    assert after_equals.rest == next_word.rest == ["add"]
    assert vars(after_equals) == vars(next_word)
    assert vars(next_word) != vars(_Invocation(["add"], made))


def test_nothing_given_sets_nothing() -> None:
    invocation = _Invocation([], program())
    assert (invocation.json, invocation.json_input, invocation.debug) == (False, None, False)
    assert (invocation.version, invocation.mcp, invocation.print_config) == (False, False, False)
    assert invocation.timeout is None
    assert invocation.asked == {}
    assert invocation.rest == []


def test_values_of_flags_anywhere_before_the_command() -> None:
    invocation = _Invocation(
        ["--explain=x", "tasks", "--debug", "purge", "--yes", "--timeout=3"], program()
    )
    assert invocation.rest == ["tasks", "purge", "--yes"]
    assert invocation.asked == {"--explain": "x"}
    assert invocation.debug is True
    assert invocation.timeout == 3.0


@pytest.mark.parametrize(
    ("words", "json"),
    [
        (["-ojson"], True),
        (["-otext"], False),
        (["-o", "json"], True),
        (["-o=json"], True),
        (["--output", "json"], True),
        (["--output=json"], True),
        (["--output=text"], False),
    ],
)
def test_output_spellings(words: list[str], json: bool) -> None:
    invocation = _Invocation(["add", *words], program())
    assert invocation.json is json
    assert invocation.rest == ["add"]


def test_output_text_after_json_turns_json_off() -> None:
    assert _Invocation(["--json", "-o", "text"], program()).json is False
    assert _Invocation(["-o", "text", "--json"], program()).json is True


@pytest.mark.parametrize(
    ("words", "json_input", "rest"),
    [
        (["--json"], None, ["add"]),
        (["--json", '{"a": 1}'], '{"a": 1}', ["add"]),
        (["--json", "-"], "-", ["add"]),
        (['--json={"a": 1}'], '{"a": 1}', ["add"]),
        (["--json=-"], "-", ["add"]),
        (["--json", "list"], None, ["add", "list"]),
        (["--json", "[1]"], "[1]", ["add"]),
        (["--json", ' \n{"a": 1}'], ' \n{"a": 1}', ["add"]),
        (["--json", '"a"'], None, ["add", '"a"']),
        (["--json", "3"], None, ["add", "3"]),
        (["--json", "--debug"], None, ["add"]),
    ],
)
def test_json_with_and_without_input(
    words: list[str], json_input: str | None, rest: list[str]
) -> None:
    invocation = _Invocation(["add", *words], program())
    assert invocation.json is True
    assert invocation.json_input == json_input
    assert invocation.rest == rest


def test_json_at_the_end_has_no_input() -> None:
    invocation = _Invocation(["add", "x", "--json"], program())
    assert (invocation.json, invocation.json_input, invocation.rest) == (True, None, ["add", "x"])


def test_double_dash_stops_flag_parsing() -> None:
    invocation = _Invocation(["add", "--", "--debug", "--json", "-ojson", "--timeout=x"], program())
    assert invocation.debug is False
    assert invocation.json is False
    assert invocation.timeout is None
    assert invocation.rest == ["add", "--", "--debug", "--json", "-ojson", "--timeout=x"]


def test_unknown_flags_and_words_pass_through_in_order() -> None:
    invocation = _Invocation(["add", "--count", "3", "-v", "--no-debug", "-oyaml", "x"], program())
    assert invocation.rest == ["add", "--count", "3", "-v", "--no-debug", "-oyaml", "x"]
    assert invocation.debug is False


@pytest.mark.parametrize(
    "token", ["--debug=1", "--schema=x", "--llms=", "--mcp=yes", "--print-config=1", "--version=2"]
)
def test_a_switch_given_a_value(token: str) -> None:
    name = token.partition("=")[0]
    error = _usage([token])
    assert error.message == f"{name} takes no value"
    assert error.exit_code == 2


@pytest.mark.parametrize(
    "name", ["--output", "-o", "--timeout", "--field", "--explain", "--config"]
)
def test_a_value_flag_with_no_value(name: str) -> None:
    assert _usage(["add", name]).message == f"{name} needs a value"


@pytest.mark.parametrize("words", [["-o", "yaml"], ["--output=yaml"], ["--output", ""]])
def test_bad_output(words: list[str]) -> None:
    value = words[-1].partition("=")[2] if "=" in words[-1] else words[-1]
    assert _usage(words).message == f"--output: expected one of json, text, got {value!r}"


MAX_OUTPUT_WANTED = "--max-output: expected a whole number of characters from 0 to"


@pytest.mark.parametrize(
    "text", ["0", "-1", "nan", "NaN", "inf", "-inf", "1e400", "text", "", "0.0"]
)
def test_bad_timeout(text: str) -> None:
    message = f"--timeout: expected a positive number of seconds, got {text!r}"
    assert _usage(["--timeout", text]).message == message
    assert _usage([f"--timeout={text}"]).message == message


@pytest.mark.parametrize(("text", "seconds"), [("1", 1.0), ("0.25", 0.25), ("1e3", 1000.0)])
def test_good_timeout(text: str, seconds: float) -> None:
    assert _Invocation(["--timeout", text], program()).timeout == seconds


def _tables(**facts: Any) -> Program:
    # NOTE: a row of the command table: (handler, summary, shape, inputs, details).
    command = (lambda: None, "s", None, (), (("description", "d"),))
    return program(
        groups={
            "": (("add", "Add"), ("tasks", "Tasks")),
            "tasks": (("purge", ""), ("list", "")),
        },
        commands={"add": command, "tasks purge": command, "tasks list": command},
        **facts,
    )


@pytest.mark.parametrize(
    ("tokens", "found"),
    [
        ([], ("", [])),
        (["add"], ("add", [])),
        (["add", "tasks", "--n", "1"], ("add", ["tasks", "--n", "1"])),
        (["tasks"], ("tasks", [])),
        (["tasks", "purge", "--yes", "x"], ("tasks purge", ["--yes", "x"])),
        (["tasks", "--help"], ("tasks", ["--help"])),
        (["--debug", "add"], ("", ["--debug", "add"])),
    ],
)
def test_find_the_command_path(tokens: list[str], found: tuple[str, list[str]]) -> None:
    assert _find(tokens, _tables()) == found


@pytest.mark.parametrize(
    ("tokens", "found", "json"),
    [
        # NOTE: `--` ends a group's own options; the word after it still names the command,
        # whose words follow (its options, the tool's flags), as Click's group and argparse
        # read it.
        (["--", "add", "--n", "1"], ("add", ["--n", "1"]), False),
        (["--", "add", "--json"], ("add", []), True),
        (["tasks", "--", "purge", "--", "x"], ("tasks purge", ["--", "x"]), False),
        (["--json", "--", "tasks", "--", "list"], ("tasks list", []), True),
        (["--"], ("", ["--"]), False),
        (["--", ""], ("", ["--", ""]), False),
        (["add", "--", "tasks", "--json"], ("add", ["--", "tasks", "--json"]), False),
    ],
)
def test_dash_dash_before_a_command_ends_the_groups_options(
    tokens: list[str], found: tuple[str, list[str]], json: bool
) -> None:
    invocation = _Invocation(tokens, _tables())
    assert (_find(invocation.rest, _tables()), invocation.json) == (found, json)


@pytest.mark.parametrize(
    ("tokens", "message", "hint"),
    [
        (["ad"], "unknown command 'ad'", "did you mean 'add'?"),
        (["tasks", "prge"], "unknown command 'prge'", "did you mean 'purge'?"),
        (["zzz"], "unknown command 'zzz'", "commands: add, tasks"),
        (["tasks", "zzz"], "unknown command 'zzz'", "commands: purge, list"),
        # NOTE: after a group's `--` the next word is still its command (Click's reading)
        (["--", "zzz"], "unknown command 'zzz'", "commands: add, tasks"),
        (["--", "--n"], "unknown command '--n'", "commands: add, tasks"),
        (["tasks", "--", "prge"], "unknown command 'prge'", "did you mean 'purge'?"),
    ],
)
def test_find_an_unknown_command(tokens: list[str], message: str, hint: str) -> None:
    with pytest.raises(UsageError) as raised:
        _find(tokens, _tables())
    assert (raised.value.message, raised.value.hint) == (message, hint)


def _with_root(mode: str) -> Program:
    return _tables(aliases={"ls": "add", "tasks rm": "tasks purge"}, root="add", root_mode=mode)


@pytest.mark.parametrize(
    ("mode", "tokens", "found"),
    [
        # NOTE: an alias is read as the command it names, at its own level.
        ("flags", ["ls", "x"], ("add", ["x"])),
        ("flags", ["tasks", "rm"], ("tasks purge", [])),
        # NOTE: no command named: the root command runs; a help flag still asks for the listing.
        ("flags", [], ("add", [])),
        ("flags", ["--n", "1"], ("add", ["--n", "1"])),
        ("flags", ["--help"], ("", ["--help"])),
        # NOTE: command names win over the root command's words; other words are its own.
        ("words", ["tasks", "list"], ("tasks list", [])),
        ("words", ["Ada", "--shout"], ("add", ["Ada", "--shout"])),
        # NOTE: the only command: no subcommand level at all, even for a command's name.
        ("alone", ["tasks", "--help"], ("add", ["tasks", "--help"])),
    ],
)
def test_find_aliases_and_the_root_command(
    mode: str, tokens: list[str], found: tuple[str, list[str]]
) -> None:
    assert _find(tokens, _with_root(mode)) == found


@pytest.mark.parametrize(
    ("mode", "tokens", "found"),
    [
        ("words", ["--", "tasks", "list"], ("tasks list", [])),
        # NOTE: after `--`, a word that names no command is the root command's, kept apart.
        ("words", ["--", "--shout"], ("add", ["--", "--shout"])),
        ("words", ["--", "Ada"], ("add", ["--", "Ada"])),
        ("flags", ["--", "ls", "x"], ("add", ["x"])),
    ],
)
def test_dash_dash_before_a_command_or_the_root_commands_words(
    mode: str, tokens: list[str], found: tuple[str, list[str]]
) -> None:
    program = _with_root(mode)
    assert _find(_Invocation(tokens, program).rest, program) == found


def test_an_unknown_command_suggests_an_alias() -> None:
    with pytest.raises(UsageError) as raised:
        _find(["tasks", "rmm"], _with_root("flags"))
    assert raised.value.hint == "did you mean 'rm'?"


@pytest.mark.parametrize(
    ("words", "found"),
    [
        (["x", "--yes"], (True, ["x"])),
        (["-y", "x"], (True, ["x"])),
        (["x", "--", "--yes"], (False, ["x", "--", "--yes"])),
        (["x", "--yess"], (False, ["x", "--yess"])),
    ],
)
def test_take_yes(words: list[str], found: tuple[bool, list[str]]) -> None:
    assert argv._take_yes(words) == found


def test_read_json_input() -> None:
    assert _read_json_input('{"a": 1, "b": [true, null]}') == {"a": 1, "b": [True, None]}


def test_read_json_input_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"name": "x"}'))
    assert _read_json_input("-") == {"name": "x"}


def test_json_input_that_is_not_json() -> None:
    with pytest.raises(UsageError) as raised:
        _read_json_input("{nope")
    assert raised.value.message == (
        "--json input is not valid JSON: Expecting property name enclosed in double quotes:"
        " line 1 column 2 (char 1)"
    )


@pytest.mark.parametrize("text", ["[1, 2]", '"a"', "3", "null"])
def test_json_input_that_is_not_an_object(text: str) -> None:
    with pytest.raises(UsageError) as raised:
        _read_json_input(text)
    assert raised.value.message == (
        "--json input must be a JSON object whose keys are parameter names"
    )


def test_parser_errors_become_usage_errors() -> None:
    parser = _new_parser(program(), "tool add", "Add a thing.")
    parser.add_argument("--count", type=int)
    parser.add_argument("name")
    with pytest.raises(UsageError) as raised:
        parser.parse_args(["x", "--count", "many"])
    assert raised.value.message == "--count: invalid int value: 'many'"
    assert raised.value.hint == "run 'tool add --help' for usage"
    with pytest.raises(UsageError, match=r"^the following arguments are required: name$"):
        parser.parse_args([])
    with pytest.raises(UsageError, match=r"^unrecognized arguments: --zzz$"):
        parser.parse_args(["x", "--zzz"])


def test_parser_takes_no_abbreviations_and_sets_no_defaults() -> None:
    parser = _new_parser(program(), "tool add")
    parser.add_argument("--count", type=int)
    with pytest.raises(UsageError, match=r"^unrecognized arguments: --cou \(and 1 more\)$"):
        parser.parse_args(["--cou", "1"])
    assert vars(parser.parse_args([])) == {}
    assert vars(parser.parse_args(["--count", "2"])) == {"count": 2}


def test_help_is_as_wide_as_columns_says(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_terminal(fd: int) -> os.terminal_size:
        raise OSError("not a terminal")

    monkeypatch.setattr(os, "get_terminal_size", no_terminal)
    monkeypatch.setenv("COLUMNS", "100")
    assert argv_parser._terminal_width() == 98
    monkeypatch.setenv("COLUMNS", "10")
    assert argv_parser._terminal_width() == 78
    monkeypatch.setenv("COLUMNS", "wide")
    assert argv_parser._terminal_width() == 78


@pytest.mark.parametrize("flag", ["--field", "--explain", "--timeout", "--output", "--jobs"])
def test_a_value_flag_does_not_take_another_tool_flag(flag: str) -> None:
    # NOTE: found by tests/test_fuzz_argv.py: `hello --field --json` lost the --json.
    assert _usage(["add", flag, "--json"]).message == f"{flag} needs a value"


@pytest.mark.parametrize(
    ("words", "batch"),
    [
        (["--batch"], ""),
        (["--batch", "-"], ""),
        (["--batch=-"], ""),
        (["--batch", "c.jsonl"], "c.jsonl"),
    ],
)
def test_batch_reads_stdin_without_a_file_or_with_a_dash(words: list[str], batch: str) -> None:
    """`--batch -` is stdin, as `--json -` is."""
    invocation = _Invocation(words, program())
    assert (invocation.batch, invocation.rest) == (batch, [])


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--max-output", "-1"], MAX_OUTPUT_WANTED),
        (["--max-output", "9" * 23], MAX_OUTPUT_WANTED),
        (["--max-output", "\u0663"], MAX_OUTPUT_WANTED),
        (["--batch", "--jobs", "0"], "--jobs: expected a whole number from 1 to 999"),
        (["--batch", "--jobs", "\u0663"], "--jobs: expected a whole number from 1 to 999"),
    ],
)
def test_counts_of_tool_wide_flags_say_their_range(words: list[str], message: str) -> None:
    with pytest.raises(UsageError) as refused:
        _Invocation(words, program())
    assert refused.value.message.startswith(message)


@pytest.mark.parametrize(
    "words",
    [["schema", "--field", "a"], ["--field", "a", "schema"], ["add", "--schema", "--field=a"]],
)
def test_field_goes_with_the_schema_command_or_a_describing_flag(words: list[str]) -> None:
    assert _Invocation(words, program()).asked["--field"] == "a"
    with pytest.raises(UsageError, match="--field goes with schema, --schema or --llms"):
        _Invocation(["add", "x", "--field", "a"], program())


def test_an_empty_or_spaced_word_left_over_is_shown_quoted() -> None:
    assert _unrecognized(["", "a b", "c"]) == "unrecognized arguments: '' 'a b' c"


def test_json_input_is_given_once() -> None:
    """A second `--json` without input keeps the first input; a second input is an error."""
    kept = _Invocation(["add", "--json", '{"a": 1}', "--json"], program())
    assert (kept.json_input, kept.rest) == ('{"a": 1}', ["add"])
    with pytest.raises(UsageError, match="--json takes one input"):
        _Invocation(["add", "--json", '{"a": 1}', "--json={}"], program())


@pytest.mark.parametrize("number", ["-5", "-.5", "-1e3", "-2.5E-3", "-1.e2"])
def test_a_negative_number_is_a_value_not_a_flag(number: str) -> None:
    parser = _new_parser(program(), "tool")
    parser.add_argument("--ratio")
    parser.add_argument("value", nargs="?")
    assert vars(parser.parse_args(["--ratio", number, number])) == {
        "ratio": number,
        "value": number,
    }


def test_only_hidden_words_left_over_say_how_many() -> None:
    assert _unrecognized(["--tokn", "s3cret"]) == "unrecognized arguments: --tokn (and 1 more)"
    assert _unrecognized(["-1x"]) == "unrecognized arguments: 1 not shown"
    # NOTE: a word holding a JSON string may be `--json` input that is no object: a secret.
    assert _unrecognized(['["s3cret"]', "[1]"]) == "unrecognized arguments: [1] (and 1 more)"


def test_no_flag_is_suggested_for_the_words_after_a_double_dash() -> None:
    """After `--` every word is a value: `--limit` there is no mistyped flag."""
    parser = _new_parser(program(), "db query")
    parser.add_argument("sql")
    parser.add_argument("--limit")
    with pytest.raises(UsageError) as after:
        parser.parse_args(["--", "-1", "--limit", "1"])
    assert after.value.hint == "every word after '--' is an argument, not a flag"
    with pytest.raises(UsageError) as before:
        parser.parse_args(["--limt", "2", "x", "--", "--limit"])
    assert before.value.hint == "did you mean '--limit'?"


def test_each_flag_sets_what_its_table_row_says() -> None:
    """A flag's row is all its reading needs: the attribute it sets exists on the invocation,
    an integer's bounds are given, and what a switch or a value sets is read back as typed."""
    blank = _Invocation([], program())
    for flag in FLAGS:
        if flag.dest:
            assert hasattr(blank, flag.dest), flag.name
        if flag.kind == "integer":
            assert flag.bounds[1] > flag.bounds[0], flag.name
    read = _Invocation(
        ["--max-output", "007", "--timeout", "1.5", "--debug", "-o", "json"], program()
    )
    assert (read.max_output, read.timeout, read.debug, read.json) == (7, 1.5, True, True)
