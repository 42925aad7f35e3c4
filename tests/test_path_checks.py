"""Paths checked as Click's `click.Path` checks them: `Option(exists=, file_okay=, dir_okay=,
readable=, writable=, executable=, resolve_path=, allow_dash=)` (and the same on `Argument`)
on a `Path` parameter, with Click's defaults and order of checks; a value that fails is a
usage error naming the flag, from the command line, JSON input and MCP alike; help, `schema`
and `--llms` say what the value must be."""

from __future__ import annotations

import inspect
import json
import os
from pathlib import Path

import pytest

import burgee
from burgee.read.markers import _MARKER_KEYS
from tests.helpers import burgee_in_process, generate, in_process

HANDLERS = '''\
"""Checks paths."""
from pathlib import Path
from typing import Annotated, Any, Optional

from burgee import Argument, Option, command, program

program(name="paths", version="1.0.0")


@command(effects="read_only")
def show(
    source: Annotated[Path, Argument(exists=True)],
    config: Annotated[Optional[Path], Option("-c", exists=True, dir_okay=False)] = None,
    into: Annotated[Optional[Path], Option(file_okay=False, resolve_path=True)] = None,
    logs: Annotated[list[Path], Option(writable=True, allow_dash=True)] = [],
    plain: Optional[Path] = None,
    runner: Annotated[Optional[Path], Option(executable=True)] = None,
) -> dict[str, Any]:
    """Show the paths it got."""
    return {
        "source": str(source),
        "config": str(config),
        "into": str(into),
        "logs": [str(log) for log in logs],
    }
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("paths")
    (folder / "here.txt").write_text("x", encoding="utf-8")
    (folder / "sub").mkdir()
    return generate(folder, HANDLERS)


def _error(tool: Path, *args: str) -> str:
    result = in_process(tool).run(*args, "--json")
    assert result.code == 2, (result.out, result.err)
    envelope = json.loads(result.out)
    assert envelope["error"]["kind"] == "usage"
    return str(envelope["error"]["message"])


def test_a_missing_path_that_must_exist_is_a_usage_error_naming_it(tool: Path) -> None:
    assert _error(tool, "show", "nope") == "source: path 'nope' does not exist"
    assert _error(tool, "show", "here.txt", "-c", "gone.toml") == (
        "--config: file 'gone.toml' does not exist"
    )


def test_a_file_or_a_directory_where_the_other_is_wanted(tool: Path) -> None:
    assert _error(tool, "show", "here.txt", "--config", "sub") == (
        "--config: file 'sub' is a directory"
    )
    assert _error(tool, "show", "here.txt", "--into", "here.txt") == (
        "--into: directory 'here.txt' is a file"
    )


def test_a_path_that_need_not_exist_skips_the_other_checks(tool: Path) -> None:
    result = in_process(tool).run("show", "sub", "--into", "new", "--logs", "-", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)["data"]
    # NOTE: resolve_path=True: absolute, symlinks resolved (`os.path.realpath`), as Click does.
    assert data["into"] == os.path.realpath(tool.parent / "new")
    assert data["source"] == "sub" and data["logs"] == ["-"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anything")
def test_writable_is_checked_on_a_path_that_exists(tool: Path) -> None:
    locked = tool.parent / "locked.log"
    locked.write_text("", encoding="utf-8")
    locked.chmod(0o444)
    assert _error(tool, "show", "sub", "--logs", "locked.log") == (
        "--logs: path 'locked.log' is not writable"
    )


def test_executable_is_checked_on_a_path_that_exists(tool: Path) -> None:
    assert _error(tool, "show", "sub", "--runner", "here.txt") == (
        "--runner: path 'here.txt' is not executable"
    )


def test_json_input_is_checked_alike(tool: Path) -> None:
    result = in_process(tool).run("show", "--json", '{"source": "sub", "config": "sub"}')
    assert result.code == 2
    assert json.loads(result.out)["error"]["message"] == "config: file 'sub' is a directory"


def test_help_schema_and_llms_say_what_it_must_be(tool: Path) -> None:
    asked = in_process(tool)
    text = " ".join(asked.run("show", "--help").out.split())
    assert "(an existing file)" in text
    assert "(a directory)" in text
    schema = json.loads(asked.run("schema").out)
    args = {arg["name"]: arg for arg in schema["commands"][0]["args"]}
    assert args["--config"]["burgee_path"] == {"exists": True, "dir_okay": False}
    assert args["--into"]["burgee_path"] == {"file_okay": False, "resolve_path": True}
    assert "burgee_path" not in args["--plain"]
    llms = json.loads(asked.run("--llms").out)
    (show,) = (each for each in llms["tools"] if each["name"] == "show")
    props = show["inputSchema"]["properties"]
    assert props["config"]["description"] == "(an existing file)"


def test_the_checks_need_a_path_type(tmp_path: Path) -> None:
    """On a `Path` or a `str` (as `click.Path()` gives it: a Click program read as it is keeps
    its strings); on anything else, an error."""
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        HANDLERS.replace(
            "plain: Optional[Path] = None", "plain: Annotated[int, Option(exists=True)] = 0"
        ),
        encoding="utf-8",
    )
    result = burgee_in_process("gen", str(handlers), "-o", str(tmp_path / "t.py"))
    assert result.returncode == 2
    assert "exists= of 'plain' needs a Path (or str) type, not int" in result.stderr


@pytest.mark.parametrize("kind", ["Option", "Argument"])
def test_the_authoring_api_takes_what_gen_reads(kind: str) -> None:
    # NOTE: a keyword gen reads that `burgee.Option` lacks fails a handlers file's type check.
    params = inspect.signature(getattr(burgee, kind).__init__).parameters
    keywords = {n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert keywords == _MARKER_KEYS[kind][0]
