"""What authors ran into using burgee (issue 45's authoring items): a `@prompt` that takes a
`Context`; a root command's example with a shared option; `ctx.show_help()`; aliases of
supported types; a third-party exception class caught by name with its package missing;
`UsageError` raised by a handler; a needless `shadows=True`; a list command's cardinality."""

from __future__ import annotations

import json
from pathlib import Path

import burgee
from burgee.runtime.execution.errors import BUILTIN_ERRORS
from tests.helpers import burgee_in_process, in_process


def _gen(tmp_path: Path, source: str) -> tuple[int, str, Path]:
    """gen's exit code and stderr for `source`, and where the tool went."""
    handlers = tmp_path / "handlers.py"
    handlers.write_text(source, encoding="utf-8")
    out = tmp_path / "tool.py"
    result = burgee_in_process("gen", str(handlers), "-o", str(out))
    return result.returncode, result.stderr, out


PROMPT_WITH_CONTEXT = '''\
"""Prompts."""
from burgee import Context, command, program, prompt

program(name="pc", version="1.0.0")


@command(effects="read_only")
def noop() -> str:
    """Do nothing."""
    return ""


@prompt
def review(topic: str, ctx: Context) -> str:
    """Review a topic."""
    return f"Review {topic} for {ctx.program}"
'''


def test_a_prompt_that_takes_a_context_generates(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, PROMPT_WITH_CONTEXT)
    assert code == 0, stderr
    result = in_process(tool).run("prompt", "review", "--topic", "x")
    assert result.code == 0, result.err
    assert "Review x for pc" in result.out


ROOT_WITH_SHARED = '''\
"""A root command beside another, with a shared option."""
from typing import Annotated

from burgee import Option, command, program

Region = Annotated[str, Option(help="Where")]

program(name="rt", version="1.0.0", options=[Region])


@command(effects="read_only", root=True, examples=["rt --region eu"])
def show(region: Region) -> str:
    """Show a region."""
    return region


@command(effects="read_only")
def other(region: Region) -> str:
    """Another."""
    return region
'''


def test_a_root_commands_example_with_a_shared_option_is_read_as_the_tool_reads_it(
    tmp_path: Path,
) -> None:
    code, stderr, tool = _gen(tmp_path, ROOT_WITH_SHARED)
    assert code == 0, stderr
    result = in_process(tool).run("--region", "eu", "--json")
    assert json.loads(result.out)["data"] == "eu"


USAGE_ERRORS = '''\
"""Sizes."""
from burgee import BadParameter, UsageError, command, program

program(name="sz", version="1.0.0")


@command(effects="read_only")
def size(width: int = 0, height: int = 0) -> str:
    """Size a picture."""
    if not width and not height:
        raise UsageError("give --width or --height", hint="sz size --width 100")
    if width < 0:
        raise BadParameter("must not be negative", param_hint="--width")
    return f"{width}x{height}"
'''


def test_a_handler_raises_a_usage_error(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, USAGE_ERRORS)
    assert code == 0, stderr
    result = in_process(tool).run("size", "--json")
    assert result.code == 2
    error = json.loads(result.out)["error"]
    assert error == {
        "kind": "usage",
        "message": "give --width or --height",
        "hint": "sz size --width 100",
    }
    result = in_process(tool).run("size", "--width", "-3", "--json")
    assert result.code == 2
    error = json.loads(result.out)["error"]
    assert error == {"kind": "usage", "message": "--width: must not be negative"}


def test_the_authoring_usage_errors_are_the_runtimes_kind_and_code() -> None:
    for cls in (burgee.UsageError, burgee.BadParameter):
        assert issubclass(cls, burgee.CommandError)
        assert (cls.kind, cls.exit_code) == ("usage", BUILTIN_ERRORS["usage"][0])
    assert str(burgee.BadParameter("bad", param_hint="--x")) == "--x: bad"


CAUGHT_BY_NAME = '''\
"""Pictures."""
from burgee_absent_pil import Image, UnidentifiedImageError

from burgee import command, program

program(name="pic", version="1.0.0", dependencies=["burgee-absent-pil>=10"])


@command(effects="read_only")
def size(path: str) -> str:
    """A picture's size."""
    try:
        with Image.open(path) as image:
            return str(image.size)
    except (UnidentifiedImageError, OSError):
        return "not a picture"


@command(effects="read_only")
def kind(path: str) -> str:
    """Whether it is a picture."""
    try:
        Image.open(path)
    except UnidentifiedImageError:
        return "no"
    return "yes"
'''


def test_a_missing_packages_exception_caught_by_name_is_a_missing_dependency(
    tmp_path: Path,
) -> None:
    code, stderr, tool = _gen(tmp_path, CAUGHT_BY_NAME)
    assert code == 0, stderr
    for name in ("size", "kind"):
        result = in_process(tool).run(name, "--path", "a.png", "--json")
        assert result.code == BUILTIN_ERRORS["missing_dependency"][0], result.out
        error = json.loads(result.out)["error"]
        assert error["kind"] == "missing_dependency"
        assert error["hint"] == "pip install 'burgee-absent-pil>=10'"
