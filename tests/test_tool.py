"""The generated tool's contract, checked by running golden tools as subprocesses:
help, output modes, JSON input, types, errors and exit codes, pipes and signals."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import GOLDEN, REPO, InProcessTool, generate, in_process, invoked, run


@pytest.fixture(scope="module")
def kitchen_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("kitchen")
    shutil.copy(GOLDEN / "kitchen" / "kitchen.py", work / "kitchen.py")
    return work / "kitchen.py"


@pytest.fixture(scope="module")
def kitchen(kitchen_file: Path) -> InProcessTool:
    """The kitchen tool asked in this process (the process does not matter to most tests)."""
    return in_process(kitchen_file)


@pytest.fixture()
def todo_file(tmp_path: Path) -> Path:
    shutil.copy(REPO / "examples" / "todo" / "todo.py", tmp_path / "todo.py")
    return tmp_path / "todo.py"


@pytest.fixture()
def todo(todo_file: Path) -> InProcessTool:
    return in_process(todo_file)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# ---- help and version ----


def test_root_help_lists_commands_groups_and_exit_codes(kitchen: InProcessTool) -> None:
    result = kitchen.run("--help")
    assert result.code == 0
    for name in ("types", "draw", "fail", "store", "--json", "--output", "--version"):
        assert name in result.out
    assert "secret-sauce" not in result.out
    assert "75   busy" in result.out and "3    missing" in result.out


def test_a_group_without_its_command_is_a_usage_error_after_its_help(
    kitchen: InProcessTool,
) -> None:
    """As in Click: exit 2 in every mode; a person reads the help first (on stderr)."""
    for argv in ((), ("store",)):
        result = kitchen.run(*argv)
        assert (result.code, result.out) == (2, ""), result
        assert result.err.startswith(f"usage: kitchen{''.join(' ' + a for a in argv)} ")
        assert "kitchen: error: missing command\nhint: commands: " in result.err
        assert json.loads(result.err.splitlines()[-1])["error"]["kind"] == "usage"
        answer = kitchen.run(*argv, "--json")
        assert (answer.code, answer.json()["error"]["message"]) == (2, "missing command")
        assert "usage:" not in answer.err
    assert kitchen.run("store", "--help").code == 0


def test_a_lone_double_dash_is_a_missing_command(kitchen: InProcessTool) -> None:
    """`tool --` and `tool store --`: nothing follows the end of the options, so no command
    is named (Click's "Missing command"), not an unknown option `--`."""
    for argv in (("--",), ("store", "--")):
        answer = kitchen.run("--json", *argv)
        assert (answer.code, answer.json()["error"]["message"]) == (2, "missing command"), argv


def test_group_help_at_every_level(kitchen: InProcessTool) -> None:
    assert "shelf" in kitchen.run("store", "--help").out
    shelf = kitchen.run("store", "shelf", "-h")
    assert shelf.code == 0
    assert "count" in shelf.out and "nap" in shelf.out
    assert "usage: kitchen store shelf" in shelf.out


def test_command_help_shows_options_defaults_and_examples(
    kitchen: InProcessTool, todo: InProcessTool
) -> None:
    result = todo.run("add", "--help", env={"COLUMNS": "120"})
    assert result.code == 0
    assert "--priority {low,high}" in result.out
    assert "How urgent it is. (default: low)" in result.out
    assert "-t TAG, --tag TAG" in result.out and "(repeatable)" in result.out
    assert "examples:\n  todo add 'buy milk' --priority high -t shop" in result.out
    assert "A boolean with --flag/--no-flag. (default: off)" in kitchen.run("types", "--help").out


def test_help_is_a_word_too_and_explains_the_flags(kitchen: InProcessTool) -> None:
    """`help` is `--help`, `help COMMAND...` is `COMMAND... --help`, and `help flags` explains
    each tool-wide flag that help only lists (issue 36)."""
    for words in ((), ("store",), ("store", "shelf"), ("types",)):
        assert kitchen.run("help", *words).out == kitchen.run(*words, "--help").out
    listed = kitchen.run("--help").out.partition("tool-wide flags (")[2]
    assert "--timeout SECONDS" in listed and "cancel the command" not in listed
    explained = kitchen.run("help", "flags")
    assert explained.code == 0
    assert "--timeout SECONDS     cancel the command after this many seconds" in explained.out
    sections = [line for line in explained.out.splitlines() if line.endswith(":")]
    assert sections == ["output:", "run:", "describe:", "agents:", "MCP:"]


def test_version(todo: InProcessTool) -> None:
    assert todo.run("--version").out == "todo 1.0.0\n"
    misplaced = todo.run("add", "--version", "--json")
    assert misplaced.code == 2
    assert misplaced.json()["error"]["message"] == (
        "--version is a flag of the tool, not of the command 'add'"
    )


# ---- output ----


def test_json_envelope_and_text_for_people(todo: InProcessTool) -> None:
    added = todo.run("add", "buy milk", "--priority", "high", "-t", "shop", "--json")
    assert added.code == 0
    envelope = added.json()
    assert envelope["ok"] is True
    assert envelope["data"] == {
        "id": 1,
        "title": "buy milk",
        "priority": "high",
        "done": False,
        "due": None,
        "tags": ["shop"],
    }
    assert envelope["meta"]["provenance"]["priority"] == {
        "value": "high",
        "source": "flag",
        "from": "flag --priority",
    }
    todo.run("add", "file taxes", "--due", "2026-04-15")
    listed = todo.run("list")
    assert listed.out.splitlines() == [
        "id  title       priority  done  due         tags",
        '1   buy milk    high      no    -           ["shop"]',
        "2   file taxes  low       no    2026-04-15  []",
    ]
    assert todo.run("-o", "json", "list").json()["data"][1]["due"] == "2026-04-15"
    assert todo.run("list", "--output=json").json()["ok"] is True


@pytest.mark.parametrize(
    "args",
    [
        ["types", "1", "2"],
        ["fail", "print"],
        ["secret-sauce"],
        ["store", "shelf", "count", "a", "bb"],
        ["store", "wipe", "--yes"],
    ],
)
def test_text_output_is_never_valid_json(kitchen: InProcessTool, args: list[str]) -> None:
    result = kitchen.run(*args, "-o", "text")
    assert result.code == 0, result
    assert result.out.strip() and not _is_json(result.out)


def test_scalar_results_are_labelled_in_text(tmp_path: Path) -> None:
    tool = in_process(
        generate(
            tmp_path,
            '''
        from burgee import command

        @command(effects="read_only")
        def answer() -> int:
            """The answer."""
            return 42

        @command(effects="read_only")
        def word(text: str = "true") -> str:
            """Echo a word."""
            return text
    ''',
        )
    )
    assert tool.run("answer").out == "result: 42\n"
    assert tool.run("word").out == "result: true\n"
    assert tool.run("word", "--text", "hello").out == "hello\n"
    assert tool.run("answer", "--json").json() == {"ok": True, "data": 42}


def test_values_of_every_type_are_converted(kitchen: InProcessTool) -> None:
    result = kitchen.run(
        "types",
        "hi",
        "3",
        "-i",
        "1",
        "-i",
        "2",
        "--flag",
        "--color",
        "blue",
        "--level",
        "2",
        "--moment",
        "2026-03-04T05:06:07Z",
        "--at",
        "10:11",
        "--amount",
        "1.25",
        "--ident",
        "12345678-1234-5678-1234-567812345678",
        "--maybe",
        "-5",
        "--path",
        "some/where",
        "--day",
        "2027-02-03",
        "--mode",
        "slow",
        "--json",
    )
    assert result.code == 0, result
    assert result.json()["data"] == {
        "text": "hi",
        "number": 3,
        "ratio": 1.5,
        "flag": True,
        "path": "some/where",
        "day": "2027-02-03",
        "moment": "2026-03-04T05:06:07+00:00",
        "at": "10:11:00",
        "ident": "12345678-1234-5678-1234-567812345678",
        "amount": "1.25",
        "mode": "slow",
        "color": "blue",
        "level": 2,
        "maybe": -5,
        "items": [1, 2],
    }
    assert kitchen.run("types", "a", "1", "--no-flag", "--json").json()["data"]["flag"] is False


def test_variadic_positionals(kitchen: InProcessTool) -> None:
    result = kitchen.run("store", "shelf", "count", "a", "bb", "ccc", "--json")
    assert [row["letters"] for row in result.json()["data"]] == [1, 2, 3]
    missing = kitchen.run("store", "shelf", "count")
    assert missing.code == 2 and missing.error_line()["error"]["kind"] == "usage"


def test_none_result(kitchen: InProcessTool) -> None:
    nap = kitchen.run("store", "shelf", "nap", "--json").json()
    assert nap["ok"] is True and nap["data"] is None
    assert kitchen.run("store", "shelf", "nap").out == ""


# ---- JSON input ----


def test_json_input_is_validated_like_flags(kitchen: InProcessTool) -> None:
    good = kitchen.run(
        "types", "--json", '{"text": "a", "number": 1, "color": "green", "item": [4]}'
    )
    assert good.code == 0, good
    assert good.json()["data"]["color"] == "green" and good.json()["data"]["items"] == [4]
    bad = kitchen.run("types", "--json", '{"text": 5, "ratio": "x", "level": 7, "day": "soon"}')
    assert bad.code == 2
    error = bad.json()["error"]
    assert error["kind"] == "usage"
    for problem in (
        "text: expected a string",
        "number is required",
        "ratio: expected a number, got 'x'",
        "level: expected one of 1, 2, got 7",
        "day: expected a date (YYYY-MM-DD), got 'soon'",
    ):
        assert problem in error["message"]
    assert bad.error_line() == bad.json()


def test_json_input_rejects_unknown_keys_and_non_objects(kitchen: InProcessTool) -> None:
    unknown = kitchen.run("types", "--json", '{"text": "a", "number": 1, "colour": "red"}')
    assert unknown.code == 2 and "unknown key 'colour'" in unknown.json()["error"]["message"]
    # NOTE: every problem at once: each unknown key, and a bad value beside them.
    many = kitchen.run("types", "--json", '{"text": "a", "number": "x", "zz": 1, "colour": 2}')
    error = many.json()["error"]
    assert error["message"] == (
        "unknown key 'colour'; unknown key 'zz'; number: expected an integer, got 'x'"
    )
    assert error["hint"].startswith("keys: text, number")
    # NOTE: a command without inputs refuses keys too (its reader has nothing else to check).
    none = kitchen.run("secret-sauce", "--json", '{"x": 1}')
    assert (none.code, none.json()["error"]["message"]) == (2, "unknown key 'x'")
    assert none.json()["error"]["hint"] == "this command takes no input"
    assert kitchen.run("types", "--json", "[1, 2]").code == 2
    broken = kitchen.run("types", "--json", "{not json")
    assert broken.code == 2 and "not valid JSON" in broken.json()["error"]["message"]


def test_json_input_from_stdin_and_records(kitchen: InProcessTool) -> None:
    shape = {"shape": {"name": "tri", "corners": [{"x": 1, "y": 2}], "color": "red"}, "scale": 2}
    result = kitchen.run("draw", "--json", "-", stdin=json.dumps(shape))
    assert result.code == 0, result
    assert result.json()["data"] == {
        "name": "tri",
        "corners": [{"x": 2.0, "y": 4.0}],
        "color": "red",
        "anchor": None,
        "origin": None,
        "label": "shape",
        "command": "draw",
    }
    nested = kitchen.run("draw", "--json", '{"shape": {"name": "sq", "corners": [{"x": 1}]}}')
    assert (
        nested.code == 2
        and "shape.corners[0]: missing field 'y'" in nested.json()["error"]["message"]
    )
    as_flag = kitchen.run("draw", "--shape", '{"name": "dot"}', "--json")
    assert as_flag.json()["data"]["corners"] == []


def test_json_input_and_flags_do_not_mix(kitchen: InProcessTool) -> None:
    result = kitchen.run("types", "x", "--json", '{"text": "a", "number": 1}')
    assert result.code == 2 and result.json()["error"]["kind"] == "usage"


def test_defaults_are_fresh_on_every_call(tmp_path: Path) -> None:
    # NOTE: generate() writes tmp_path/tool.py, which the script below imports as `tool`.
    generate(
        tmp_path,
        '''
        from burgee import command

        @command(effects="non_idempotent")
        def grow(item: list[str] = []) -> list[str]:
            """Append to the default list, which must not leak into the next call."""
            item.append("x")
            return item
    ''',
    )
    script = "import tool; tool.main(['grow', '--json']); tool.main(['grow', '--json'])"
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert [json.loads(line)["data"] for line in out.splitlines()] == [["x"], ["x"]]


# ---- errors ----


def test_declared_error_kinds_and_exit_codes(kitchen: InProcessTool) -> None:
    missing = kitchen.run("fail", "missing")
    assert missing.code == 3
    assert missing.out == ""
    assert missing.err.splitlines()[:2] == [
        "kitchen: error: there is no such thing",
        "hint: try another thing",
    ]
    assert missing.error_line() == {
        "ok": False,
        "error": {
            "kind": "missing",
            "message": "there is no such thing",
            "hint": "try another thing",
        },
    }
    busy = kitchen.run("fail", "busy", "--json")
    assert busy.code == 75
    assert busy.json() == {
        "ok": False,
        "error": {"kind": "busy", "message": "the kitchen is busy", "retryable": True},
    }
    assert busy.error_line() == busy.json()


def test_internal_errors_hide_the_traceback_unless_asked(kitchen: InProcessTool) -> None:
    crash = kitchen.run("fail", "crash", "--json")
    assert crash.code == 1
    assert "Traceback" not in crash.err
    assert crash.json()["error"]["kind"] == "internal"
    assert "RuntimeError: the oven exploded" in crash.json()["error"]["message"]
    debug = kitchen.run("fail", "crash", "--debug")
    assert debug.code == 1 and "Traceback (most recent call last)" in debug.err
    assert debug.error_line()["error"]["kind"] == "internal"
    env = kitchen.run("fail", "crash", env={"KITCHEN_DEBUG": "1"})
    assert "Traceback (most recent call last)" in env.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["cook"], "unknown command 'cook'"),
        (["types", "a"], "the following arguments are required: number"),
        (["types", "a", "1", "--colour", "red"], "unrecognized arguments: --colour (and 1 more)"),
        (["types", "a", "1", "--color", "pink"], "--color: expected one of"),
        (["types", "a", "one"], "number: expected an integer, got 'one'"),
        (["store", "shelf", "bogus"], "unknown command 'bogus'"),
        (["--output", "yaml", "types"], "--output: expected one of json, text, got 'yaml'"),
    ],
)
def test_usage_errors(kitchen: InProcessTool, args: list[str], message: str) -> None:
    text = kitchen.run(*args)
    assert text.code == 2
    assert text.out == ""
    assert "Traceback" not in text.err
    assert text.error_line()["error"]["kind"] == "usage"
    assert message in text.error_line()["error"]["message"]
    as_json = kitchen.run(*args, "--json")
    assert as_json.code == 2
    assert as_json.json() == as_json.error_line()


def test_unknown_command_suggests_the_close_one(todo: InProcessTool) -> None:
    assert todo.run("ad").error_line()["error"]["hint"] == "did you mean 'add'?"


def test_handler_prints_are_kept_in_the_envelope_in_json_mode(kitchen: InProcessTool) -> None:
    result = kitchen.run("fail", "print", "--json")
    assert result.json() == {
        "ok": True,
        "data": "printed",
        "meta": {"printed": "a handler wrote this to stdout\n"},
    }
    assert "a handler wrote this to stdout" not in result.err


def test_hidden_and_withheld_commands_run(kitchen: InProcessTool) -> None:
    assert kitchen.run("secret-sauce").code == 0
    assert "nap" in kitchen.run("store", "shelf", "--help").out


# ---- pipes, signals, start-up ----


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize("json_mode", [False, True])
def test_broken_pipe_ends_quietly(tmp_path: Path, unbuffered: str, json_mode: bool) -> None:
    tool = generate(
        tmp_path,
        '''
        from burgee import command

        @command(effects="read_only", cardinality="unbounded")
        def many(count: int = 1000000) -> list[int]:
            """Many lines."""
            return list(range(count))
    ''',
    )
    # NOTE: one write far larger than the pipe: CPython's own buffered (and unbuffered) writes
    # can end without an error when the reader goes away in the middle of it.
    shell = f"{sys.executable} {tool} many {'--json' if json_mode else ''} | head -c 2"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    result = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {shell}"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.stdout == ('{"' if json_mode else "0\n")
    assert result.stderr == ""
    assert result.returncode == 141


@pytest.mark.parametrize("argv", [["--version"], ["store", "shelf", "list"], ["--batch"]])
def test_a_closed_stdout_is_said_on_stderr(kitchen_file: Path, argv: list[str]) -> None:
    """Started with stdout closed (`tool >&-`), the tool says so and ends as for a broken
    pipe, never as an internal error."""
    result = subprocess.run(
        [sys.executable, str(kitchen_file), *argv],
        input="",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),  # NOTE: after subprocess has put devnull there
    )
    assert result.stderr == "kitchen: error: stdout is closed: nothing can answer\n"
    assert result.returncode == 141


@pytest.mark.parametrize(
    ("argv", "env", "code", "kind"),
    [
        (["stock", "--json", "-"], {}, 2, "usage"),
        (["use", "salt"], {}, 4, "action_required"),
        (["use", "salt"], {"FORCE_TTY": "1"}, 4, "action_required"),
        (["use", "salt", "--json"], {"FORCE_TTY": "1"}, 4, "action_required"),
    ],
)
def test_a_closed_stdin_reads_as_an_empty_one(
    argv: list[str], env: dict[str, str], code: int, kind: str
) -> None:
    """Started with stdin closed (`tool <&-`): `--json -` and the questions find the end of
    input at once, as with an empty stdin (a usage error, `action_required`), never an
    internal error."""
    pantry = GOLDEN / "pantry" / "pantry.py"
    answers = []
    for closed in (False, True):
        result = subprocess.run(
            [sys.executable, str(pantry), *argv],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, **env},
            # NOTE: after subprocess has put devnull there
            preexec_fn=(lambda: os.close(0)) if closed else None,
        )
        answers.append((result.returncode, result.stdout, result.stderr))
    assert answers[1] == answers[0]
    assert answers[1][0] == code
    assert kind in answers[1][1] + answers[1][2]


def test_ctrl_c_exits_130_without_a_traceback(kitchen_file: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(kitchen_file), "store", "shelf", "nap", "--seconds", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "Traceback" not in err and out == ""


def test_only_the_running_commands_parser_is_built(todo_file: Path) -> None:
    """A plain line builds no parser at all (the quick reading); a line with an error builds
    the running command's parser only."""
    script = (
        "import argparse, tool\n"
        "built = []\n"
        "init = argparse.ArgumentParser.__init__\n"
        "def counting(self, *a, **k):\n"
        "    built.append(k.get('prog'))\n"
        "    init(self, *a, **k)\n"
        "argparse.ArgumentParser.__init__ = counting\n"
        "tool.main(['list', '--json'])\n"
        "print(built)\n"
        "tool.main(['list', '--bogus'])\n"
        "print(built)\n"
    )
    shutil.copy(todo_file, todo_file.parent / "tool.py")
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=todo_file.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[-2:] == ["[]", "['todo list']"]


OPTIONAL_CHOICE = '''
"""Optional positionals with choices."""

import enum
from typing import Annotated, Literal

from burgee import Argument, command, program

program(name="picky", version="1.0.0")


class Size(enum.Enum):
    S = "s"
    M = "m"


@command(effects="read_only")
def pick(
    mode: Annotated[Literal["fast", "slow"], Argument()] = "fast",
    size: Annotated[Size, Argument()] = Size.M,
) -> str:
    """Pick."""
    return f"{mode} {size.value}"


@command(effects="read_only")
def other() -> str:
    """Other."""
    return "other"
'''


def test_an_optional_positional_with_choices_may_be_left_out(tmp_path: Path) -> None:
    tool = in_process(generate(tmp_path, OPTIONAL_CHOICE))
    assert tool.run("pick").out == "fast m\n"
    assert tool.run("pick", "slow").out == "slow m\n"
    assert tool.run("pick", "slow", "s").out == "slow s\n"
    refused = tool.run("pick", "medium", "--json")
    assert refused.code == 2
    assert "mode: expected one of fast, slow, got 'medium'" in refused.json()["error"]["message"]


def test_a_hidden_option_is_left_out_of_help_and_still_works(tmp_path: Path) -> None:
    tool = in_process(
        generate(
            tmp_path,
            '''
        from typing import Annotated

        from burgee import Option, command


        @command(effects="read_only")
        def go(name: str = "x", internal: Annotated[str, Option(hidden=True)] = "") -> str:
            """Go."""
            return name + internal
        ''',
        )
    )
    shown = tool.run("go", "--help")
    assert shown.code == 0 and "--name NAME" in shown.out
    assert "--internal" not in shown.out and "SUPPRESS" not in shown.out
    assert tool.run("go", "--internal", "!").out == "x!\n"
    # NOTE: nor is it offered for a mistyped flag.
    hint = tool.run("go", "--internl", "!", "--json").json()["error"]["hint"]
    assert "did you mean" not in hint and "internal" not in hint
    assert (
        tool.run("go", "--nme", "y", "--json").json()["error"]["hint"] == "did you mean '--name'?"
    )
    explained = tool.run("go", "--explain", "nope", "--json").json()["error"]["hint"]
    assert explained == "options: --name"


def test_a_trailing_underscore_is_dropped_from_command_names_and_env_vars(
    tmp_path: Path,
) -> None:
    tool = in_process(
        generate(
            tmp_path,
            '''
        from typing import Annotated

        from burgee import Option, command, program

        program(name="lister", env_prefix="LS")


        @command(effects="read_only", cardinality="bounded")
        def list_(limit: int = 3) -> list[int]:
            """List numbers."""
            return list(range(limit))


        @command(effects="read_only")
        def tag(tags_: Annotated[dict[str, str], Option("--tag")] = {}) -> dict[str, str]:
            """Echo tags."""
            return tags_
        ''',
        )
    )
    assert tool.run("list", "--limit", "2", "--json").json()["data"] == [0, 1]
    names = [t["name"] for t in tool.run("--llms").json()["tools"]]
    assert names == ["help", "list", "tag", "output"]
    assert "(env: LS_TAGS)" in tool.run("tag", "--help").out
    assert tool.run("tag", "--json", env={"LS_TAGS": "a=1"}).json()["data"] == {"a": "1"}


def test_a_positional_tuple_takes_its_items_as_words(tmp_path: Path) -> None:
    tool = in_process(
        generate(
            tmp_path,
            '''
        from typing import Annotated, Any, Literal

        from burgee import Argument, command


        @command(effects="read_only")
        def a(
            mode: Annotated[Literal["x", "y"], Argument()],
            point: Annotated[tuple[int, int], Argument()],
            rest: Annotated[list[int], Argument()] = [],
        ) -> dict[str, Any]:
            """A."""
            return {"mode": mode, "point": point, "rest": rest}
        ''',
        )
    )
    assert " a [-h] {x,y} point point [rest ...]\n" in tool.run("a", "--help").out
    expected = {"mode": "x", "point": [1, 2], "rest": [3]}
    assert tool.run("a", "x", "1", "2", "3", "--json").json()["data"] == expected
    given = '{"mode": "x", "point": [1, 2], "rest": [3]}'
    assert tool.run("a", "--json", given).json()["data"] == expected
    assert " a MODE POINT POINT [REST...]`" in tool.run("--skill").out
    bad = tool.run("a", "x", "1", "q", "--json")
    assert (bad.code, bad.json()["error"]["message"]) == (2, "point: expected an integer, got 'q'")


def test_a_context_may_be_annotated_optional(tmp_path: Path) -> None:
    # NOTE: the spellings a type checker accepts with the default None.
    tool = in_process(
        generate(
            tmp_path,
            '''
        from typing import Optional

        from burgee import Context, command


        @command(effects="read_only")
        def one(ctx: Optional[Context] = None) -> str:
            """One."""
            assert ctx is not None
            return ctx.command


        @command(effects="read_only")
        def two(ctx: "Context | None" = None) -> str:
            """Two."""
            assert ctx is not None
            return ctx.command


        @command(effects="read_only")
        def three(ctx: Optional["Context"] = None) -> str:
            """Three."""
            assert ctx is not None
            return ctx.command
        ''',
        )
    )
    assert tool.run("one", "--json").json()["data"] == "one"
    assert tool.run("two", "--json").json()["data"] == "two"
    assert tool.run("three", "--json").json()["data"] == "three"
    assert tool.run("--llms").json()["tools"][1]["inputSchema"]["properties"] == {}


def test_a_command_that_is_not_destructive_asks_first_when_confirm_is_given(
    tmp_path: Path,
) -> None:
    tool = in_process(
        generate(
            tmp_path,
            '''
        from burgee import command


        @command(effects="non_idempotent", confirm="Really send {to}?")
        def send(to: str) -> str:
            """Send a message."""
            return f"sent to {to}"


        @command(effects="non_idempotent")
        def note(text: str) -> str:
            """Write a note: no question asked."""
            return text
        ''',
        )
    )
    stopped = tool.run("send", "--to", "bob", "--json")
    assert stopped.code == 4
    assert stopped.json()["error"]["message"] == "send asks first: it runs only when confirmed"
    assert stopped.json()["next"][0]["command"].endswith(" send --to bob --yes --json")
    assert tool.run("send", "--to", "bob", "--yes").out == "sent to bob\n"
    assert tool.run("note", "--text", "hi").out == "hi\n"
    assert tool.run("note", "--text", "hi", "--yes").code == 2
    schema = {c["name"]: c for c in tool.run("schema").json()["commands"]}
    assert schema["send"]["confirmation_bypass_arg"] == "--yes"
    assert "confirmation_bypass_arg" not in schema["note"]


def test_a_float_result_that_is_not_a_json_number_says_what_it_was(tmp_path: Path) -> None:
    tool = in_process(
        generate(
            tmp_path,
            '''
        from burgee import command


        @command(effects="read_only")
        def ratio() -> float:
            """NaN."""
            return float("nan")


        @command(effects="read_only")
        def missing() -> float:
            """None, where a float was promised."""
            return None  # type: ignore[return-value]
        ''',
        )
    )
    nan = tool.run("ratio", "--json").json()["error"]["message"]
    assert nan == "result: nan is not a JSON number (NaN and the infinities are not)"
    none = tool.run("missing", "--json").json()["error"]["message"]
    assert none == "result: expected a number, got null"


NOT_NUMBERS = '''
from dataclasses import dataclass
from typing import Optional, TypedDict

from burgee import command


@dataclass
class Score:
    name: str
    score: Optional[float] = None


class Row(TypedDict):
    id: int


@command(effects="read_only")
def maybe() -> Optional[float]:
    """An optional float."""
    return float("inf")


@command(effects="read_only")
def scores() -> Score:
    """A dataclass."""
    return Score("a", float("-inf"))


@command(effects="read_only", cardinality="bounded")
def floats() -> list[float]:
    """A list."""
    return [1.0, float("nan")]


@command(effects="read_only")
def row() -> Row:
    """A TypedDict."""
    return {"id": float("nan")}  # type: ignore[typeddict-item]
'''

#: What each command says, wherever the NaN or infinity is: never null with `ok: true`.
NOT_NUMBER_ERRORS = {
    "maybe": "result: inf is not a JSON number (NaN and the infinities are not)",
    "scores": "result.score: -inf is not a JSON number (NaN and the infinities are not)",
    "floats": "result[1]: nan is not a JSON number (NaN and the infinities are not)",
    "row": "result.id: nan is not a JSON number (NaN and the infinities are not)",
}


def test_nan_or_an_infinity_anywhere_in_a_result_is_an_error_that_says_so(tmp_path: Path) -> None:
    """On the command line (`--json` and text) and over MCP alike."""
    from tests.mcp_wire import INIT, exchange, line  # noqa: PLC0415

    path = generate(tmp_path, NOT_NUMBERS)
    tool = in_process(path)
    for name, message in NOT_NUMBER_ERRORS.items():
        answer = tool.run(name, "--json")
        assert (answer.code, answer.json()["error"]["message"]) == (1, message), name
        text = tool.run(name)
        assert (text.code, text.out, text.error_line()["error"]["message"]) == (1, "", message)
    calls = [
        {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": n, "arguments": {}}}
        for i, n in enumerate(NOT_NUMBER_ERRORS, 1)
    ]
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    replies, _, _, _ = exchange(path, b"".join(map(line, [INIT, done, *calls])))
    for reply in replies[1:]:
        result = reply["result"]
        envelope = json.loads(result["content"][0]["text"])
        assert result["isError"] is True
        assert envelope["error"]["message"] == list(NOT_NUMBER_ERRORS.values())[reply["id"] - 1]


PLAIN_NEXT = '''
from burgee import Context, command, program

program(name="shipit", version="1.0.0")


@command(effects="destructive", confirm=False)
def deploy(target: str = "staging", yes: bool = False, ctx: Context = None) -> str:
    """Deploy."""
    if not yes:
        ctx.action_required(
            reason="confirm",
            message="deploying needs a decision",
            next=["deploy --target prod --yes", {"command": "deploy --yes", "when": "for staging"}],
        )
    return target
'''


def test_action_required_takes_plain_command_lines(tmp_path: Path) -> None:
    """`next=["deploy --target prod --yes"]`, the natural spelling, is a command line like
    `{"command": ...}`: an `action_required` answer (exit 4), not an internal error."""
    tool = generate(tmp_path, PLAIN_NEXT)
    result = run(tool, "deploy", "--json")
    assert result.code == 4, result
    answer = result.json()
    shipit = invoked(tool, tool.parent)
    assert answer["next"] == [
        {"command": f"{shipit} deploy --target prod --yes --json"},
        {"command": f"{shipit} deploy --yes --json", "when": "for staging"},
    ]
    assert answer["error"]["hint"] == (
        f"run '{shipit} deploy --target prod --yes --json';"
        f" run '{shipit} deploy --yes --json' for staging"
    )


EXACT = '''
from decimal import Decimal

from burgee import Context, command


@command(effects="read_only")
def price(amount: Decimal, ratio: float = 0.5) -> list[str]:
    """The amount as the handler got it."""
    return [repr(amount), repr(ratio)]


@command(effects="read_only")
def sure(amount: Decimal, ctx: Context = None) -> str:
    """Ask first: the line that answers gives the amount again."""
    ctx.ask("Sure?", choices=["yes"], name="sure")
    return repr(amount)
'''


@pytest.mark.parametrize(
    "number",
    ["12345678901234567890.123456789", "1.50", "1e3", "-0.0", "0.1", "3.14159265358979323"],
)
def test_a_decimal_input_given_as_a_json_number_keeps_its_digits(
    tmp_path: Path, number: str
) -> None:
    """`--json`, `--batch` and MCP's `tools/call` alike: the number as written, never its
    nearest float (`1.2345678901234567E+19`); a float input is the float of that text."""
    from tests.mcp_wire import INIT, exchange, line  # noqa: PLC0415

    path = generate(tmp_path, EXACT)
    given = f'{{"amount": {number}, "ratio": {number}}}'
    expected = [f"Decimal({str(__import__('decimal').Decimal(number))!r})", repr(float(number))]
    tool = in_process(path)
    assert tool.run("price", "--json", given).json()["data"] == expected
    batch = tool.run("--batch", stdin=f'{{"id": 1, "command": "price", "input": {given}}}\n')
    assert json.loads(batch.out)["data"] == expected
    call = (
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call",'
        f' "params": {{"name": "price", "arguments": {given}}}}}\n'
    )
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    replies, _, _, _ = exchange(path, line(INIT) + line(done) + call.encode())
    assert json.loads(replies[1]["result"]["content"][0]["text"])["data"] == expected
    # NOTE: the line that runs a call again (a batch's, MCP's) gives the number as it was read.
    amount = f'{{"amount": {number}}}'
    batch = tool.run("--batch", stdin=f'{{"id": 1, "command": "sure", "input": {amount}}}\n')
    again = json.loads(batch.out)["next"][0]["command"]
    assert f'"amount": {number}' in again
    assert tool.run(*shlex.split(again)[1:]).json()["data"] == expected[0]
    asked = call.replace(given, amount).replace("price", "sure")
    replies, _, _, _ = exchange(path, line(INIT) + line(done) + asked.encode())
    stopped = json.loads(replies[1]["result"]["content"][0]["text"])
    assert f'"amount":{number}' in stopped["next"][0]["command"]
