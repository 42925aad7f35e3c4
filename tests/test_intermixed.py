"""Options between positionals mean what they mean in Click, Typer and argparse's
`parse_intermixed_args`: `commit a.txt -m x b.txt` commits both files with the message x.

The command lines are those of real CLIs that broke when ported (a git-like commit, a clone
with a revision, a template tool's root command); each is read by the quick path and by
argparse (a value that starts with "-", or `--`, sends a line to argparse, which must agree;
tests/test_quickargs.py checks the two agree on random lines).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import load_tool

VCS = '''\
"""A git-like tool."""
from typing import Annotated, Any

from burgee import Argument, Option, command, program

program(name="vcs", version="1.0.0")


@command(effects="non_idempotent")
def commit(
    files: Annotated[list[str], Argument(help="Files to commit")],
    message: Annotated[str, Option("-m", help="The message")] = "",
    all: Annotated[bool, Option("-a")] = False,
) -> dict[str, Any]:
    """Record changes."""
    return {"files": files, "message": message, "all": all}


@command(effects="non_idempotent")
def clone(
    source: Annotated[str, Argument()],
    target: Annotated[str, Argument()] = ".",
    revision: Annotated[str, Option("-r")] = "main",
    depth: int = 0,
) -> dict[str, Any]:
    """Copy a repository."""
    return {"source": source, "target": target, "revision": revision, "depth": depth}
'''

TEMPLATE = '''\
"""A template tool: one root command."""
from typing import Annotated, Any

from burgee import Argument, command, program

program(name="tpl", version="1.0.0")


@command(effects="non_idempotent", root=True)
def render(
    pairs: Annotated[list[str], Argument(help="KEY=VALUE pairs")] = [],
    input: bool = True,
) -> dict[str, Any]:
    """Render the template."""
    return {"pairs": pairs, "input": input}
'''


@pytest.fixture(scope="module")
def vcs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("vcs"), VCS, "vcs")


@pytest.fixture(scope="module")
def tpl(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_tool(tmp_path_factory.mktemp("tpl"), TEMPLATE, "tpl")


def _data(module: Any, *argv: str) -> Any:
    result = module.invoke(["--json", *argv])
    assert result.exit_code == 0, result.stderr
    return result.envelope["data"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["commit", "a.txt", "-m", "x", "b.txt"], {"files": ["a.txt", "b.txt"], "message": "x"}),
        (["commit", "a.txt", "-a", "b.txt", "-m", "x"], {"files": ["a.txt", "b.txt"], "all": True}),
        # NOTE: a value starting with "-" sends the line to argparse, which must agree.
        (
            ["commit", "a.txt", "--message=-x", "b.txt"],
            {"files": ["a.txt", "b.txt"], "message": "-x"},
        ),
        (["commit", "a.txt", "-m", "x", "--", "-b.txt"], {"files": ["a.txt", "-b.txt"]}),
        # NOTE: after `--` a flag's spelling is a value (argparse's intermixed reading before
        # Python 3.13 took it for the flag).
        (
            ["commit", "a.txt", "--", "-m", "y"],
            {"files": ["a.txt", "-m", "y"], "message": ""},
        ),
    ],
)
def test_options_between_a_commands_positionals(
    vcs: Any, argv: list[str], expected: dict[str, Any]
) -> None:
    data = _data(vcs, *argv)
    assert {key: data[key] for key in expected} == expected


def test_an_option_between_two_single_positionals(vcs: Any) -> None:
    assert _data(vcs, "clone", "src", "-r", "v1", "dst") == {
        "source": "src",
        "target": "dst",
        "revision": "v1",
        "depth": 0,
    }
    assert _data(vcs, "clone", "src", "--depth=-1", "dst")["target"] == "dst"


def test_a_root_commands_flag_before_its_positionals(tpl: Any) -> None:
    assert _data(tpl, "--no-input", "k=v", "a=b") == {"pairs": ["k=v", "a=b"], "input": False}
    assert _data(tpl, "k=v", "--no-input", "a=b") == {"pairs": ["k=v", "a=b"], "input": False}


def test_too_many_positionals_are_still_refused(vcs: Any) -> None:
    result = vcs.invoke(["clone", "src", "-r", "v1", "dst", "extra", "--json"])
    assert result.exit_code == 2
    assert result.envelope["error"]["kind"] == "usage"
    assert "extra" in result.envelope["error"]["message"]
