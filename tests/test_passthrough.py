"""Command lines of runner tools mean what they mean in argparse and Click.

`Argument(passthrough=True)` (`tool run APP --app-flag`, as `pipx run` and `uv run` read a
line): every word from the pass-through argument's first one is its, the tool's own flags and
the command's own options included; both readings of a line (`_quick_parse` and argparse) and
`_Invocation`, which takes the tool-wide flags out first, find where it begins alike
(`quickargs._pass_start`). A `list[tuple[str, str]]` option takes its words after each flag
(`--env NAME VALUE`, repeated), and means the same given as flags, as `--json` input and over
MCP. tests/test_quickargs.py checks the quick reading against argparse on random lines of
the golden clikit's `run`, a pass-through command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_tool
from tests.mcp_wire import INIT, Server

RUNNER = '''\
"""A runner of apps."""
from typing import Annotated, Any

from burgee import Argument, Option, command, program

program(name="runner", version="1.0.0")


@command(
    effects="non_idempotent",
    name="run",
    aliases=["r"],
    examples=["runner run cowsay --json '{\\"say\\": 1}' -p x"],
)
def run_app(
    app: Annotated[str, Argument(help="The app to run")],
    args: Annotated[list[str], Argument(passthrough=True, help="The app's arguments")] = [],
    python: Annotated[str, Option("-p", help="The Python to use")] = "3",
    verbose: bool = False,
    env: Annotated[list[tuple[str, str]], Option("-e", help="NAME VALUE")] = [],
) -> dict[str, Any]:
    """Run an app with its own arguments."""
    return {"app": app, "args": args, "python": python, "verbose": verbose, "env": env}


@command(effects="non_idempotent", name="exec")
def exec_line(
    line: Annotated[list[str], Argument(passthrough=True)],
    quiet: bool = False,
) -> dict[str, Any]:
    """Run a command line: the first word that is no option starts it."""
    return {"line": line, "quiet": quiet}


@command(effects="destructive")
def ssh(
    host: Annotated[str, Argument()],
    remote: Annotated[list[str], Argument(passthrough=True)] = [],
) -> dict[str, Any]:
    """Run a command on a host; asks first."""
    return {"host": host, "remote": remote}
'''


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("runner"), RUNNER, "runner")


def _data(module: Any, *argv: str) -> Any:
    result = module.invoke(list(argv))
    assert result.exit_code == 0, result.stderr
    return result.envelope["data"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        # NOTE: the app's flags that are the tool's own, or the command's own, are the app's.
        (["run", "APP", "--json", "--help", "-h"], {"args": ["--json", "--help", "-h"]}),
        (
            ["run", "APP", "--timeout", "5", "-o", "json"],
            {"args": ["--timeout", "5", "-o", "json"]},
        ),
        (["run", "-p", "3.12", "APP", "-p", "x"], {"python": "3.12", "args": ["-p", "x"]}),
        (["run", "--verbose", "APP", "--verbose"], {"verbose": True, "args": ["--verbose"]}),
        (["run", "APP", "--python=2"], {"python": "3", "args": ["--python=2"]}),
        # NOTE: a value of the command's own option is no app (`-e NAME VALUE` takes two).
        (
            ["run", "-e", "A", "B", "APP", "-e", "C", "D"],
            {"env": [["A", "B"]], "app": "APP", "args": ["-e", "C", "D"]},
        ),
        # NOTE: a `--` before the app ends the options; after it, it is the app's.
        (["run", "--", "APP", "--x"], {"app": "APP", "args": ["--x"]}),
        (["run", "APP", "--", "--x"], {"app": "APP", "args": ["--", "--x"]}),
        (["run", "APP"], {"app": "APP", "args": []}),
        # NOTE: the value of a tool-wide flag before the app is not the app.
        (["run", "--timeout", "5", "APP", "x"], {"app": "APP", "args": ["x"]}),
        # NOTE: a value starting with "-" sends the line to argparse, which must agree.
        (["run", "--python=-x", "APP", "--python=y"], {"python": "-x", "args": ["--python=y"]}),
        (["run", "-5", "--json"], {"app": "-5", "args": ["--json"]}),
        (["r", "APP", "--json"], {"app": "APP", "args": ["--json"]}),
    ],
)
def test_every_word_after_the_app_is_the_apps(
    runner: Any, argv: list[str], expected: dict[str, Any]
) -> None:
    data = _data(runner, "--json", *argv)
    assert {key: data[key] for key in expected} == expected


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["exec", "--quiet", "ls", "-la", "--quiet"],
            {"line": ["ls", "-la", "--quiet"], "quiet": True},
        ),
        (["exec", "ls", "--json"], {"line": ["ls", "--json"], "quiet": False}),
        (["exec", "--", "-x", "--"], {"line": ["-x", "--"], "quiet": False}),
    ],
)
def test_a_lone_pass_through_starts_at_its_first_word(
    runner: Any, argv: list[str], expected: dict[str, Any]
) -> None:
    assert _data(runner, "--json", *argv) == expected


def test_an_example_passes_the_tool_wide_flags_on(runner: Any) -> None:
    """`gen` checked the example (`--json '{...}'` after the app is the app's, not JSON input
    the command would refuse beside its arguments); the tool runs it alike."""
    data = _data(runner, "--json", "run", "cowsay", "--json", '{"say": 1}', "-p", "x")
    assert data["args"] == ["--json", '{"say": 1}', "-p", "x"]


def test_only_a_yes_before_the_pass_through_confirms(runner: Any) -> None:
    assert _data(runner, "--json", "ssh", "--yes", "h", "rm", "--yes") == {
        "host": "h",
        "remote": ["rm", "--yes"],
    }
    result = runner.invoke(["--json", "ssh", "h", "rm", "--yes"])
    assert result.envelope["error"]["kind"] == "action_required"


def test_the_tool_wide_flags_before_the_app_still_count(runner: Any) -> None:
    result = runner.invoke(["run", "APP", "x", "--json"])
    assert result.envelope is None  # NOTE: `--json` is the app's: the answer is text
    assert '"--json"' in result.stdout
    result = runner.invoke(["run", "--json", "APP", "x"])
    assert result.envelope["data"]["args"] == ["x"]


def test_help_before_the_app_is_the_commands(runner: Any) -> None:
    result = runner.invoke(["run", "--help"])
    assert result.exit_code == 0
    assert "app [args ...]" in result.stdout
    assert "tool-wide flags" in result.stdout


def test_a_required_pass_through_left_empty_is_a_usage_error(runner: Any) -> None:
    result = runner.invoke(["exec", "--quiet", "--json"])
    assert result.exit_code == 2
    assert result.envelope["error"]["kind"] == "usage"
    assert "line" in result.envelope["error"]["message"]


def test_an_unknown_option_before_the_app_is_still_refused(runner: Any) -> None:
    result = runner.invoke(["run", "--bogus", "APP", "--bogus", "--json"])
    assert result.exit_code == 2
    assert result.envelope["error"]["message"] == "unrecognized arguments: --bogus"


def _mcp(tool: Path, name: str, arguments: dict[str, Any]) -> Any:
    server = Server(tool, cwd=tool.parent)
    try:
        server.send(INIT)
        server.read()
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": name, "arguments": arguments}
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
        return server.read()["result"]
    finally:
        server.close()


def test_flags_json_input_and_mcp_agree(runner: Any) -> None:
    argv = ["run", "-e", "LANG", "C", "--env", "A", "b c", "APP", "--json", "-e", "X"]
    by_flags = _data(runner, "--json", *argv)
    values = {"app": "APP", "args": ["--json", "-e", "X"], "env": [["LANG", "C"], ["A", "b c"]]}
    assert {key: by_flags[key] for key in values} == values
    assert _data(runner, "run", "--json", json.dumps(values)) == by_flags
    result = _mcp(Path(runner.__file__), "run", values)
    assert result["structuredContent"] == by_flags


def test_a_tuple_option_given_too_few_words_is_a_usage_error(runner: Any) -> None:
    result = runner.invoke(["--json", "run", "-e", "A"])
    assert result.exit_code == 2
    assert result.envelope["error"]["message"] == "-e/--env: expected 2 arguments"


@pytest.mark.parametrize(
    "word",
    [
        "-5",
        "-.5",
        "-1.",
        "-1e3",
        "-1E+3",
        "-1e",
        "-e3",
        "-1.2.3",
        "-+1",
        "-\u0663",
        "-a b",
        "-",
        "--python=-x",
        "--nope=1",
        "-p",
        "-px",
        "--",
        "-x",
        "x",
        "1",
    ],
)
def test_where_it_begins_tells_options_from_words_as_argparse_does(runner: Any, word: str) -> None:
    """`_pass_start` counts the positional words before the pass-through argument as argparse
    reads them (a negative number or a word with a space is one; `--python=-x` is no word)."""
    command = runner._command(runner.PROGRAM, "run")
    parser = runner._new_parser(runner.PROGRAM, "runner run")
    command.build(parser)
    recorder = runner._recorded(command)
    assert runner._positional(word, recorder) == (parser._parse_optional(word) is None)


LAUNCHER = '''\
"""A launcher whose root command passes a command line on."""
from typing import Annotated, Any

from burgee import Argument, command, program

program(name="launch", version="1.0.0")


@command(effects="non_idempotent", root=True)
def start(
    line: Annotated[list[str], Argument(passthrough=True)],
    quiet: bool = False,
) -> dict[str, Any]:
    """Run a command line."""
    return {"line": line, "quiet": quiet}


@command(effects="read_only")
def status() -> str:
    """Say how it goes."""
    return "ok"
'''


@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("launcher"), LAUNCHER, "launcher")


def test_a_root_commands_pass_through_starts_at_a_word_that_names_nothing(launcher: Any) -> None:
    assert _data(launcher, "--json", "--quiet", "ls", "-la", "--json") == {
        "line": ["ls", "-la", "--json"],
        "quiet": True,
    }
    assert _data(launcher, "--json", "status", "--json") == "ok"
    # NOTE: the tool's own words are never the root command's, as `cli.run` reads them.
    result = launcher.invoke(["schema", "--field", "name"])
    assert result.stdout.strip() == '"launch"'
