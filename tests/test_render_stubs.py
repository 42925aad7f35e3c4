"""The runtime's stubs: what type checkers and linters see of names defined in the code string."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from burgee.render import placed_imports
from burgee.render import stubs as stubs_module
from burgee.render.format import formatted
from burgee.render.stubs import _Binding, _Index, _stub, _text, stubs
from burgee.runtime.catalog import runtime_names
from tests.helpers import REPO

#: What the generated module's plain code and a user's tests call.
PUBLIC = placed_imports.PUBLIC

#: A user's test of the tool: `import tool; tool.invoke([...])`.
USE = """\
from typing import Any, assert_type

import public as tool

result = tool.invoke(["x"], input="", env={"A": "1"})
assert_type(result.exit_code, int)
assert_type(result.stdout, str)
assert_type(result.envelope, Any)
assert_type(tool.main(["x"]), int)
assert_type(tool.main(), int)


def failing(ctx: tool.Context) -> None:
    ctx.progress(1, 2)
    if ctx.interactive:
        raise tool.UsageError("no")
    raise tool.CommandError("no", hint="later")
"""

#: Shapes the runtime has none of today, as a runtime module could write them.
SHAPES = """\
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, assert_type, overload


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)

    @property
    def norm(self) -> int:
        return self.x + self.y


class Pair(NamedTuple):
    a: str
    b: int = 1


@overload
def one(x: int) -> int: ...
@overload
def one(x: str) -> str: ...
def one(x: int | str) -> int | str:
    return x


async def fetch(url: str, *, tries: int = 3, size: int = len("abc")) -> bytes:
    return url.encode() * tries * size


class Outer:
    class Inner:
        value: int = 1

    @staticmethod
    def make(n: int = -1) -> Outer:
        return Outer()

    @classmethod
    def build(cls) -> Iterator[Outer]:
        yield cls()
"""

SHAPES_USE = """
point = Point(1)
assert_type(point.y, int)
assert_type(Point(1, 2, ["a"]).norm, int)
assert_type(Pair("a").b, int)
assert_type(one(1), int)
assert_type(one("s"), str)
assert_type(Outer.make(), Outer)
assert_type(Outer.Inner().value, int)
assert_type(list(Outer.build()), list[Outer])


async def go() -> bytes:
    return await fetch("u", tries=1)
"""


def _shapes() -> str:
    """SHAPES's stubs under TYPE_CHECKING, and code that uses them."""
    tree = ast.parse(SHAPES)
    imports = "\n".join(ast.unparse(n) for n in tree.body if isinstance(n, ast.ImportFrom))
    code = "\n\n".join(
        _text(_stub(_Binding((0, 0), "shapes", node, checking=False)), {})
        for node in tree.body
        if not isinstance(node, ast.ImportFrom)
    )
    head = f"from __future__ import annotations\n\n{imports}\n"
    block = textwrap.indent(code, "    ")
    text = f"{head}\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n{block}\n{SHAPES_USE}"
    return formatted(text, "shapes.py")


def _module(names: tuple[str, ...] | frozenset[str]) -> str:
    """A module holding the stubs of `names` as the generated module does."""
    block = textwrap.indent(stubs(names), "    ")
    head = '"""Stubs."""\n\nfrom __future__ import annotations\n\nTYPE_CHECKING = False\n'
    return f"{head}if TYPE_CHECKING:\n{block}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = tmp_path_factory.mktemp("stubs")
    (found / "public.py").write_text(_module(PUBLIC), encoding="utf-8")
    (found / "every.py").write_text(_module(runtime_names()), encoding="utf-8")
    (found / "use.py").write_text(USE, encoding="utf-8")
    (found / "shapes.py").write_text(_shapes(), encoding="utf-8")
    return found


def _run(*args: str, cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.slow  # NOTE: a type checker (docs/contributing.md)
def test_stubs_pass_mypy_strict(folder: Path) -> None:
    # NOTE: one run for every file: mypy is slow.
    _run(
        "mypy",
        "--strict",
        "--cache-dir",
        str(folder / "cache"),
        "public.py",
        "every.py",
        "use.py",
        "shapes.py",
        cwd=folder,
    )


def test_stubs_pass_ruff(folder: Path) -> None:
    files = ["public.py", "every.py", "use.py", "shapes.py"]
    # NOTE: the runtime's signatures, which mirror argparse's and JSON-RPC's (pyproject.toml
    # lets the runtime have them).
    config = ["--config", str(REPO / "pyproject.toml"), "--extend-ignore", "PLR0917"]
    _run("ruff", "check", "--no-cache", *config, *files, cwd=folder)
    # NOTE: the generated module is checked with ruff's defaults.
    _run("ruff", "check", "--no-cache", "--isolated", *files, cwd=folder)
    _run("ruff", "format", "--check", "--isolated", "--line-length", "100", *files, cwd=folder)


def test_a_function_keeps_its_signature_and_brings_what_it_names() -> None:
    text = stubs(["invoke"])
    signature = 'argv: Sequence[str], *, input: str = "", env: dict[str, str] | None = None'
    assert f"def invoke(\n    {signature}\n) -> Invoked: ..." in text
    assert "from collections.abc import Sequence\n" in text
    assert "class Invoked:\n" in text
    assert "    exit_code: int\n" in text
    assert "    def envelope(self) -> Any: ..." in text


def test_a_class_stub_shows_what_its_users_call_not_the_runtime_own_members() -> None:
    """Python parses a script's stubs on every run (issue 49): `Context`'s handlers call
    `ctx.progress` and read `ctx.command`, never `ctx._answers`."""
    text = stubs(["Context"])
    assert "    def progress(" in text
    assert "    command: str\n" in text
    assert "    def __init__(" in text
    assert "_answers" not in text
    assert "def _given" not in text
    # NOTE: only `Context.__init__` names `Program`: the runtime makes one and passes it on.
    assert "class Program: ...\n" in text
    assert "    def __init__(self, command: str, json: bool, program: Program)" in text


def test_the_program_own_names_can_be_left_to_the_caller() -> None:
    assert "\nPROGRAM: Program\n" in stubs(["PROGRAM"])
    assert "class Program:" in stubs(["PROGRAM"])
    assert "class Program:" not in stubs(["PROGRAM"], defined=["Program"])


def test_output_is_the_same_whatever_the_order() -> None:
    names = sorted(runtime_names())
    assert stubs(names) == stubs(reversed(names))


def test_a_name_the_runtime_does_not_bind_is_refused() -> None:
    with pytest.raises(LookupError, match="no_such_name"):
        stubs(["invoke", "no_such_name"])


def test_stubbing_parses_only_the_runtime_it_stubs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tool stubs a few dozen of the runtime's names; parsing every chunk of it was a third
    of a large program's rendering."""
    index = _Index()
    monkeypatch.setattr(stubs_module, "_index", lambda: index)
    stubs(PUBLIC)
    assert 0 < len(index.parsed) < len(index.chunks) / 4
