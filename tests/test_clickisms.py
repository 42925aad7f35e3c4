"""What a Click, Typer or argparse author declares besides flags: the word shown for a value
(`metavar=`) of an option and of a positional, in help, usage, errors, the schema and the
Agent Skill; `deprecated=` on options and commands (a warning on stderr, never in the envelope);
a command's `short_help` line in its group's listing."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import generate

COPY = '''\
"""A copy tool whose placeholders came from Click."""
from pathlib import Path
from typing import Annotated

from burgee import Argument, Option, command, program

program(name="cp2", version="1.0.0")


@command(effects="non_idempotent")
def copy(
    source: Annotated[Path, Argument(metavar="SRC", help="What to copy")],
    into: Annotated[Path, Option("-t", metavar="DIR", help="Where to")],
    size: Annotated[tuple[int, int], Option(metavar="PX")] = (1, 1),
) -> str:
    """Copy a file."""
    return f"{source} -> {into}"


@command(effects="non_idempotent", deprecated="use copy", short_help="Old copy.")
def cp(
    source: Annotated[str, Argument()],
    verbose: Annotated[bool, Option(deprecated=True)] = False,
    level: Annotated[int, Option(deprecated="use --depth")] = 0,
) -> str:
    """The old name of copy, kept for scripts.

    Scripts written before copy existed still call it.
    """
    return source
'''


@pytest.fixture(scope="module")
def cp2(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = generate(tmp_path_factory.mktemp("clickisms"), COPY)
    spec = importlib.util.spec_from_file_location("clickisms_cp2", path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_help_and_usage_show_the_metavars(cp2: Any) -> None:
    text = cp2.invoke(["copy", "--help"]).stdout
    assert "usage: cp2 copy [-h] -t DIR [--size PX PX] SRC" in " ".join(text.split())
    assert "-t DIR, --into DIR" in text
    assert "  SRC " in text


def test_a_missing_positional_is_named_by_its_metavar(cp2: Any) -> None:
    result = cp2.invoke(["copy", "-t", "d", "--json"])
    assert result.exit_code == 2
    assert result.envelope["error"]["message"] == "the following arguments are required: SRC"


def test_the_json_keys_stay_the_parameter_names(cp2: Any) -> None:
    result = cp2.invoke(["copy", "a", "-t", "d", "--json"])
    assert result.envelope["data"] == "a -> d"
    result = cp2.invoke(["copy", "--json", '{"source": "a", "into": "d"}'])
    assert result.envelope["data"] == "a -> d"


def test_the_schema_and_the_skill_show_the_metavars(cp2: Any) -> None:
    schema = cp2.invoke(["schema"]).envelope
    schema = schema.get("data", schema)
    args = {arg["name"]: arg for arg in schema["commands"][0]["args"]}
    assert args["source"]["burgee_metavar"] == "SRC"
    assert args["--into"]["burgee_metavar"] == "DIR"
    skill = cp2.invoke(["--skill"]).stdout
    # NOTE: the skill names the tool as shipped (`python tool.py`: no [project.scripts] here).
    assert "`python tool.py copy SRC --into DIR`" in skill


def test_a_deprecated_command_and_option_warn_on_stderr_only(cp2: Any) -> None:
    result = cp2.invoke(["cp", "a", "--verbose", "--level", "2", "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.envelope["data"] == "a"
    assert "deprecated" not in result.stdout
    assert result.stderr.splitlines() == [
        "cp2: warning: command 'cp' is deprecated: use copy",
        "cp2: warning: --verbose is deprecated",
        "cp2: warning: --level is deprecated: use --depth",
    ]


def test_an_option_not_given_does_not_warn(cp2: Any) -> None:
    result = cp2.invoke(["cp", "a"])
    assert result.stdout == "a\n"
    assert result.stderr == "cp2: warning: command 'cp' is deprecated: use copy\n"
    assert cp2.invoke(["copy", "a", "-t", "d"]).stderr == ""


def test_json_input_names_the_deprecated_key(cp2: Any) -> None:
    result = cp2.invoke(["cp", "--json", '{"source": "a", "level": 1}'])
    assert result.envelope["data"] == "a"
    assert "cp2: warning: 'level' is deprecated: use --depth" in result.stderr


def test_help_says_what_is_deprecated(cp2: Any) -> None:
    text = " ".join(cp2.invoke(["cp", "--help"]).stdout.split())
    assert "Scripts written before copy existed still call it. (deprecated: use copy)" in text
    assert "--verbose, --no-verbose (default: off) (deprecated)" in text
    assert "--level LEVEL (default: 0) (deprecated: use --depth)" in text
    listing = cp2.invoke(["--help"]).stdout
    assert "(deprecated) Old copy." in listing
    assert "The old name of copy" not in listing


def test_the_schema_says_what_is_deprecated(cp2: Any) -> None:
    schema = cp2.invoke(["schema"]).envelope
    schema = schema.get("data", schema)
    commands = {command["name"]: command for command in schema["commands"]}
    assert commands["cp"]["stability"] == "deprecated"
    assert commands["cp"]["burgee_deprecated"] == "use copy"
    assert "stability" not in commands["copy"]
    args = {arg["name"]: arg for arg in commands["cp"]["args"]}
    assert args["--verbose"]["burgee_deprecated"] is True
    assert args["--level"]["burgee_deprecated"] == "use --depth"
    assert "burgee_deprecated" not in args["source"]
    # NOTE: JSON Schema's own annotation, in the input schema agents and MCP clients read.
    properties = commands["cp"]["input_schema"]["properties"]
    assert properties["level"]["deprecated"] is True
    assert "deprecated" not in properties["source"]


def test_an_agent_reads_that_a_command_is_deprecated(cp2: Any) -> None:
    tools = {tool["name"]: tool for tool in cp2.invoke(["--llms"]).envelope["tools"]}
    assert tools["cp"]["description"].endswith("\n\nDeprecated: use copy")
    assert "Deprecated" not in tools["copy"]["description"]


def test_completion_lists_the_short_help(cp2: Any) -> None:
    assert "(deprecated) Old copy." in cp2.invoke(["completion", "zsh"]).stdout


def test_the_fix_the_main_and_run_diagnostic_gives_works(tmp_path: Any) -> None:
    """`def run()` is refused (the generated module has its own `run`); the diagnostic says to
    name it `run_`, which is still the command `run`."""
    source = """\
        from burgee import command


        @command(effects="read_only")
        def run_() -> str:
            '''Run it.'''
            return "ran"


        @command(effects="read_only")
        def main_() -> str:
            '''The main thing.'''
            return "main"
        """
    path = generate(tmp_path, source)
    spec = importlib.util.spec_from_file_location("clickisms_run", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.invoke(["run", "--json"]).envelope["data"] == "ran"
    assert module.invoke(["main", "--json"]).envelope["data"] == "main"
