"""What authors ran into using burgee (issue 45's authoring items): a `@prompt` that takes a
`Context`; a root command's example with a shared option; `ctx.show_help()`; aliases of
supported types; a third-party exception class caught by name with its package missing;
`UsageError` raised by a handler; a needless `shadows=True`; a list command's cardinality."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import burgee
from burgee.runtime.core.context import Context as RuntimeContext
from burgee.runtime.core.errors import BUILTIN_ERRORS
from burgee.runtime.program import PROGRAM
from tests.helpers import REPO, burgee_in_process, in_process


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


#: What the authors' `Context` (burgee.markers) and the runtime's spell apart by design: the
#: runtime's type variable's name, and its log level as plain text (checked as it runs).
_SPELLED_APART = {"_F": "_T", "level: 'str'": "level: 'LogLevel'"}


def test_the_authors_context_is_the_runtimes() -> None:
    authors, runtime = burgee.Context(), RuntimeContext("cmd", json=False, program=PROGRAM)

    def public(context: object) -> set[str]:
        return {name for name in dir(context) if not name.startswith("_")}

    # NOTE: `close` runs the on_exit callbacks when the command ends: the tool's, not a handler's.
    assert public(authors) == public(runtime) - {"close"}
    for name in sorted(public(authors)):
        mine = getattr(type(authors), name, None)
        theirs = getattr(type(runtime), name, None)
        if not inspect.isfunction(mine):
            assert not inspect.isfunction(theirs), name
            continue
        assert inspect.isfunction(theirs), name
        said = str(inspect.signature(theirs))
        for runtime_spelling, authors_spelling in _SPELLED_APART.items():
            said = said.replace(runtime_spelling, authors_spelling)
        assert str(inspect.signature(mine)) == said, name


CONTEXT_DEFAULTS = '''\
"""Ctx."""
from burgee import Context, command, program

program(name="cx", version="1.0.0")


@command(effects="read_only")
def one(ctx: Context = None) -> str:  # type: ignore[assignment]
    """One."""
    return ctx.command


@command(effects="read_only")
def two(
    name: str = "x",
    ctx: Context = None,  # type: ignore[assignment]
) -> str:
    """Two."""
    if name == "y":
        ctx.action_required(reason="r", message="m", next=["cx two --name z"])
    return ctx.command
'''


@pytest.mark.slow
def test_the_documented_context_spelling_passes_mypy_strict_in_both_files(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, CONTEXT_DEFAULTS)
    assert code == 0, stderr
    (tmp_path / "burgee").symlink_to(REPO / "generator")
    for checked in (tmp_path / "handlers.py", tool):
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(checked)],
            cwd=tmp_path,
            env={**os.environ, "MYPYPATH": str(tmp_path)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout


SHOWS_HELP = '''\
"""Cookies."""
from typing import Annotated, Optional

from burgee import Argument, Context, command, program

program(name="ck", version="1.0.0")


@command(effects="non_idempotent")
def bake(
    template: Annotated[Optional[str], Argument(help="The template")] = None,
    ctx: Context = None,  # type: ignore[assignment]
) -> str:
    """Bake a project from a template."""
    if template is None:
        ctx.show_help()
    return f"baked {template}"


@command(effects="read_only")
def other() -> str:
    """Another."""
    return ""
'''


def test_a_handler_shows_its_commands_help(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, SHOWS_HELP)
    assert code == 0, stderr
    asked = in_process(tool)
    helped = asked.run("bake", "--help")
    for args in (("bake",), ("bake", "--json")):
        result = asked.run(*args)
        assert (result.code, result.out, result.err) == (0, helped.out, ""), args
    assert "usage: ck bake" in helped.out and "The template" in helped.out
    assert asked.run("bake", "t").out == "baked t\n"


ALIASES = '''\
"""Stages."""
from typing import Annotated, Literal, Optional

from burgee import Option, command, program

program(name="st", version="1.0.0")

Stage = Literal["build", "test"]
Count = Annotated[int, Option("-n", min=1)]
Names = list[str]


@command(effects="read_only")
def run_(
    stage: Stage = "build",
    count: Optional[Count] = None,
    names: Names = [],
    later: Optional[Stage] = None,
) -> str:
    """Run a stage."""
    return f"{stage} {count} {names} {later}"
'''


def test_module_level_aliases_of_supported_types_read_as_written_in_place(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, ALIASES)
    assert code == 0, stderr
    asked = in_process(tool)
    result = asked.run("run", "--stage", "test", "-n", "2", "--names", "a", "--later", "build")
    assert result.out == "test 2 ['a'] build\n", result.err
    refused = asked.run("run", "--stage", "deploy")
    assert refused.code == 2 and "expected one of build, test" in refused.err
    assert asked.run("run", "-n", "0").code == 2
    assert asked.run("run").out == "build None [] None\n"


NEEDLESS_SHADOWS = '''\
"""Flags."""
from typing import Annotated

from burgee import Option, command, program

program(name="fl", version="1.0.0")


@command(effects="read_only")
def show(config: Annotated[str, Option("--config", shadows=True)] = "") -> str:
    """Show."""
    return config
'''


def test_a_needless_shadows_is_a_warning(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, NEEDLESS_SHADOWS)
    assert code == 0, stderr
    assert "warning: --config of 'show' shadows no tool-wide flag" in stderr
    assert in_process(tool).run("show", "--config", "x").out == "x\n"


REFUSED_SHARED = '''\
"""Shared."""
from typing import Annotated

from burgee import Option, command, program

Verbose = Annotated[int, Option("-v", count=True, min="x")]

program(name="sh", version="1.0.0", options=[Verbose])


@command(effects="read_only")
def one(verbose: Verbose = 0) -> str:
    """One."""
    return ""


@command(effects="read_only")
def two(verbose: Verbose = 0) -> str:
    """Two."""
    return ""
'''


def test_a_shared_alias_whose_option_is_refused_is_one_error(tmp_path: Path) -> None:
    code, stderr, _ = _gen(tmp_path, REFUSED_SHARED)
    assert code == 2
    errors = [line for line in stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1, stderr
    assert "handlers.py:6:" in errors[0]


LISTS = '''\
"""Lists."""
from burgee import command, program

program(name="ls2", version="1.0.0")


@command(effects="read_only")
def items() -> list[str]:
    """Some items."""
    return ["a"]


@command(effects="read_only", cardinality="bounded")
def few() -> list[str]:
    """A few items."""
    return ["a"]
'''


def test_a_list_commands_guessed_cardinality_says_so(tmp_path: Path) -> None:
    code, stderr, tool = _gen(tmp_path, LISTS)
    assert code == 0, stderr
    assert "until then its schema says 'bounded' (burgee_guessed)" in stderr
    commands = json.loads(in_process(tool).run("schema").out)["commands"]
    entries = {entry["name"]: entry for entry in commands}
    assert entries["items"]["cardinality"] == "bounded"
    assert entries["items"]["burgee_guessed"] == ["cardinality"]
    assert "burgee_guessed" not in entries["few"]
