"""A tool split across files and using a third-party package: siblings bundled into the one file,
third-party imports declared (PEP 723) and guarded, so the tool describes itself without them and
a command that needs a missing one fails as `missing_dependency`."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path
from typing import Any

import pytest
import tomllib
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from burgee.model.diagnostics import GenerationError
from burgee.runtime.core.errors import BUILTIN_ERRORS
from burgee.write.generate import generate
from tests import helpers
from tests.helpers import GOLDEN, burgee

#: Slow: builds and installs wheels (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

HELPERS = '''\
"""Helpers of the tool, in their own file."""

from __future__ import annotations

import math


def double(x: int) -> int:
    """Twice x."""
    return x * 2


def root(x: float) -> float:
    return math.sqrt(x)


if __name__ == "__main__":
    print("never in the tool")
'''

MODELS = '''\
from dataclasses import dataclass

from burgee import group

notes = group("notes", help="Notes kept apart.")


@dataclass
class Point:
    """A point."""

    x: int
    y: int
'''

HANDLERS = '''\
"""A tool split across files, with one third-party package."""

import tinydep
from helpers import double
from helpers import root as square_root
from models import Point, notes

from burgee import command, program

program(name="split", version="1.2.0", dependencies=["tinydep>=0.1"])


@command(effects="read_only", examples=["split twice --n 3"])
def twice(n: int) -> int:
    """Double a number."""
    return double(n)


@command(effects="read_only", examples=["split sqrt --x 9"])
def sqrt(x: float) -> float:
    """Square root."""
    return square_root(x)


@command(effects="read_only", examples=["split shout --text hi"])
def shout(text: str) -> str:
    """Shout through tinydep."""
    return tinydep.shout(text)


@notes.command(effects="read_only", examples=["split notes where --point '{\\"x\\": 1}'"])
def where(point: Point) -> dict[str, int]:
    """Where a point is."""
    return {"x": point.x, "y": point.y}
'''

TINYDEP = 'def shout(text):\n    return text.upper() + "!"\n'


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("split")
    (root / "helpers.py").write_text(HELPERS, encoding="utf-8")
    (root / "models.py").write_text(MODELS, encoding="utf-8")
    (root / "handlers.py").write_text(HANDLERS, encoding="utf-8")
    result = burgee("gen", "handlers.py", "-o", "split.py", cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "burgee: wrote split.py\n"
    return root


def _venv(where: Path, *, with_dependency: bool) -> Path:
    """A fresh virtual environment; with the dependency, `tinydep` is installed in it."""
    venv.EnvBuilder(with_pip=False).create(where)
    python = where / "bin" / "python"
    if with_dependency:
        site = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        package = Path(site) / "tinydep"
        package.mkdir()
        (package / "__init__.py").write_text(TINYDEP, encoding="utf-8")
    return python


def _run(python: Path, tool: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # NOTE: from a folder without the siblings: the tool must need nothing but itself.
    return subprocess.run(
        [str(python), str(tool), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tool.parent.parent,
    )


@pytest.fixture(scope="module")
def shipped(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated file alone in a folder, as it is shipped."""
    folder = tmp_path_factory.mktemp("shipped") / "bin"
    folder.mkdir()
    tool = folder / "split.py"
    tool.write_bytes((project / "split.py").read_bytes())
    return tool


def test_the_tool_carries_a_pep_723_block(project: Path) -> None:
    text = (project / "split.py").read_text(encoding="utf-8")
    block = re.search(r"(?m)^# /// script$\n((?:^#(?: .*)?$\n)+)^# ///$", text)
    assert block is not None
    metadata = tomllib.loads("".join(line[2:] + "\n" for line in block[1].splitlines()))
    assert metadata == {"requires-python": ">=3.9", "dependencies": ["tinydep>=0.1"]}
    assert "never in the tool" not in text
    assert "import helpers" not in text and "from helpers" not in text
    assert "from models" not in text


def test_with_the_dependency_installed_every_command_works(shipped: Path, tmp_path: Path) -> None:
    python = _venv(tmp_path / "env", with_dependency=True)
    shout = _run(python, shipped, "shout", "--text", "hi", "--json")
    assert shout.returncode == 0, shout.stderr
    assert json.loads(shout.stdout)["data"] == "HI!"
    assert json.loads(_run(python, shipped, "twice", "--n", "4", "--json").stdout)["data"] == 8
    assert json.loads(_run(python, shipped, "sqrt", "--x", "9", "--json").stdout)["data"] == 3.0
    where = _run(python, shipped, "notes", "where", "--point", '{"x": 1, "y": 2}', "--json")
    assert json.loads(where.stdout)["data"] == {"x": 1, "y": 2}


def test_without_the_dependency_the_tool_describes_itself(shipped: Path, tmp_path: Path) -> None:
    python = _venv(tmp_path / "env", with_dependency=False)
    for args in (
        ["--help"],
        ["--version"],
        ["schema"],
        ["--llms"],
        ["--skill"],
        ["completion", "bash"],
        ["notes", "--help"],
        ["shout", "--help"],
    ):
        result = _run(python, shipped, *args)
        assert result.returncode == 0, (args, result.stderr)
        assert result.stderr == "", (args, result.stderr)
    schema = json.loads(_run(python, shipped, "schema").stdout)
    documented = {e["kind"]: e["exit_code"] for e in schema["errors"]}
    assert documented["missing_dependency"] == BUILTIN_ERRORS["missing_dependency"][0] == 69
    assert json.loads(_run(python, shipped, "twice", "--n", "4", "--json").stdout)["data"] == 8


def test_without_the_dependency_a_command_that_needs_it_fails_cleanly(
    shipped: Path, tmp_path: Path
) -> None:
    python = _venv(tmp_path / "env", with_dependency=False)
    code = BUILTIN_ERRORS["missing_dependency"][0]
    for args in (["shout", "--text", "hi", "--json"], ["shout", "--text", "hi"]):
        result = _run(python, shipped, *args)
        assert result.returncode == code, result
        assert "Traceback" not in result.stderr
        error = json.loads(result.stderr.strip().splitlines()[-1])["error"]
        assert error["kind"] == "missing_dependency"
        assert error["hint"] == "pip install 'tinydep>=0.1'"
        assert "tinydep" in error["message"]


def test_without_the_dependency_mcp_serves_and_answers_a_clear_error(
    shipped: Path, tmp_path: Path
) -> None:
    python = _venv(tmp_path / "env", with_dependency=False)
    server = StdioServerParameters(command=str(python), args=[str(shipped), "--mcp"])

    async def go() -> tuple[Any, Any, Any]:
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                tools = await session.list_tools()
                shout = await session.call_tool("shout", {"text": "hi"})
                return init, tools, shout

    init, tools, shout = asyncio.run(go())
    assert init.server_info.name == "split"
    assert {t.name for t in tools.tools} >= {"twice", "sqrt", "shout", "notes_where"}
    assert shout.is_error
    envelope = json.loads(shout.content[0].text)
    assert envelope["error"]["kind"] == "missing_dependency"
    assert envelope["error"]["hint"] == "pip install 'tinydep>=0.1'"


def _refused(tmp_path: Path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    handlers = tmp_path / "handlers.py"
    with pytest.raises(GenerationError) as raised:
        generate(handlers.read_text(encoding="utf-8"), str(handlers))
    return [str(d).replace(f"{tmp_path}/", "") for d in raised.value.diagnostics]


COMMAND = """
from burgee import command


@command(effects="read_only")
def go() -> int:
    \"\"\"Go.\"\"\"
    return 1
"""


def test_a_sibling_imported_as_a_module_is_refused_at_the_import(tmp_path: Path) -> None:
    found = _refused(
        tmp_path, {"helpers.py": "X = 1\n", "handlers.py": "import helpers\n" + COMMAND}
    )
    assert found == [
        "handlers.py:1:1: error: import helpers: burgee bundles a sibling module into the tool, "
        "so import its names instead: from helpers import NAME"
    ]


def test_a_name_the_sibling_lacks_or_defines_twice_is_refused(tmp_path: Path) -> None:
    """A name two modules define is renamed in the sibling where that is safe; where the
    sibling also binds it inside a function (a parameter here), bundling is refused."""
    found = _refused(
        tmp_path,
        {
            "helpers.py": "def go():\n    return 2\n\n\ndef twice(go):\n    return go * 2\n",
            "handlers.py": "from helpers import nothing\n" + COMMAND,
        },
    )
    assert found == [
        "handlers.py:1:1: error: helpers.py and handlers.py both define 'go'; bundled into one "
        "module, one would replace the other",
        "handlers.py:1:1: error: helpers.py has no top-level name 'nothing' to import",
    ]


CLASHES = {
    "a.py": 'NAME = "a"\n\n\ndef _main():\n    return NAME\n',
    "b.py": (
        'NAME = "b"\n\n\ndef _main():\n    return NAME\n\n\n'
        "def shout():\n    global NAME\n    NAME = NAME + '!'\n    return _main().upper()\n"
    ),
    "c.py": "from b import _main as inner\n\n\ndef _main():\n    return inner() + 'c'\n",
    "handlers.py": (
        "from a import _main as main_a\n"
        "from b import _main as main_b, shout\n"
        "from c import _main as main_c\n"
        "from burgee import command\n\n"
        'NAME = "top"\n\n\n'
        '@command(effects="read_only")\n'
        "def go() -> list[str]:\n"
        '    """Go."""\n'
        "    return [main_a(), main_b(), shout(), main_b(), main_c(), NAME]\n"
    ),
}


def test_names_several_siblings_define_each_keep_their_module(tmp_path: Path) -> None:
    """Sibling modules that define the same name (towncrier's `_main` in build.py, check.py
    and create.py): each is renamed in its module's code, so every use means its own."""
    for name, text in CLASHES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "tool.py"
    burgee("gen", str(tmp_path / "handlers.py"), "-o", str(out), "--name", "clash")
    answer = subprocess.run(
        [sys.executable, str(out), "go", "--json"], capture_output=True, text=True, check=False
    )
    assert json.loads(answer.stdout)["data"] == ["a", "b", "B!", "b!", "b!c", "top"], answer


MODULES = {
    "__init__.py": "",
    "fmt.py": (
        "from .util import shout\n\n\n"
        "class Tools:\n    kind = 'base'\n\n\n"
        "def tools(kind):\n"
        "    if kind == 'md':\n"
        "        from . import fmt_md\n\n        return fmt_md.MdTools()\n"
        "    from . import (  # a comment\n        fmt_rst,\n    )\n\n"
        "    return fmt_rst.RstTools()\n"
    ),
    "fmt_md.py": "from .fmt import Tools\n\n\nclass MdTools(Tools):\n    kind = 'md'\n",
    "fmt_rst.py": "from .fmt import Tools\n\n\nclass RstTools(Tools):\n    kind = 'rst'\n",
    "util.py": "def shout(text):\n    return text.upper()\n",
    "handlers.py": (
        "from . import util\n"
        "from .fmt import tools\n"
        "from burgee import command\n\n\n"
        '@command(effects="read_only")\n'
        "def go(kind: str) -> str:\n"
        '    """Go."""\n'
        "    return util.shout(tools(kind).kind)\n"
    ),
}


def test_a_sibling_module_imported_as_a_module_is_bundled(tmp_path: Path) -> None:
    """`from . import fmt_md` inside a function (towncrier's `_vcs.py`, scriv's `format.py`),
    `from . import util` at the top: the module is bundled and the name is it, also where the
    two modules import each other (the one in a function runs later)."""
    package = tmp_path / "shop"
    package.mkdir()
    for name, text in MODULES.items():
        (package / name).write_text(text, encoding="utf-8")
    out = tmp_path / "tool.py"
    made = burgee("gen", str(package / "handlers.py"), "-o", str(out), "--name", "shop")
    assert made.returncode == 0, made.stderr
    for kind, want in (("md", "MD"), ("rst", "RST")):
        answer = subprocess.run(
            [sys.executable, str(out), "go", "--kind", kind, "--json"],
            capture_output=True, text=True, check=False, cwd=tmp_path / "shop",
        )  # fmt: skip
        assert json.loads(answer.stdout)["data"] == want, answer


def test_a_sibling_import_in_a_block_that_runs_at_import_is_refused(tmp_path: Path) -> None:
    source = "try:\n    from helpers import X\nexcept ImportError:\n    X = 0\n" + COMMAND
    found = _refused(tmp_path, {"helpers.py": "X = 1\n", "handlers.py": source})
    assert found == [
        "handlers.py:2:5: error: the sibling module helpers is imported inside a block; burgee "
        "bundles sibling modules imported at the top level only: move the import there"
    ]


LAZY = {
    "__init__.py": "",
    # NOTE: shiv's builder.py: a function defined in both branches of an `if`, each with a
    # loop variable of its own (the namespace held the variables, not the function).
    "helpers.py": (
        "import sys\n\nif sys.version_info < (3, 11):\n"
        "    def items(xs):\n        for old in xs:\n            yield old\n"
        "else:\n    def items(xs):\n        for new in xs:\n            yield new\n"
    ),
    # NOTE: llm's models.py, datasette's utils/sqlite.py: a name bound in `try`, a sibling's
    # names imported for type checkers only and inside a function (a lazy import).
    "models.py": (
        "from typing import TYPE_CHECKING\n\ntry:\n    import nothing_here as json\n"
        "except ImportError:\n    import json\n\n"
        "if TYPE_CHECKING:\n    from .parts import Part\n\n\n"
        "def count(rows: list[Part]) -> int:\n    from .parts import size as measure\n\n"
        "    return measure(rows)\n"
    ),
    "parts.py": "class Part: ...\n\n\ndef size(rows):\n    return len(rows)\n",
    "handlers.py": (
        "from . import helpers\n"
        "from .models import count, json\n"
        "from burgee import command\n\n\n"
        '@command(effects="read_only")\n'
        "def go() -> str:\n"
        '    """Go."""\n'
        "    return json.dumps([count([1, 2, 3]), list(helpers.items([4]))])\n"
    ),
}


def test_names_bound_in_blocks_and_lazy_imports_are_bundled(tmp_path: Path) -> None:
    package = tmp_path / "lazy"
    package.mkdir()
    for name, text in LAZY.items():
        (package / name).write_text(text, encoding="utf-8")
    out = tmp_path / "tool.py"
    made = burgee("gen", str(package / "handlers.py"), "-o", str(out), "--name", "lazy")
    assert made.returncode == 0, made.stderr
    answer = subprocess.run(
        [sys.executable, str(out), "go", "--json"], capture_output=True, text=True, check=False
    )
    assert json.loads(answer.stdout)["data"] == "[3, [4]]", answer


def test_diagnostics_in_a_bundled_sibling_name_its_file(tmp_path: Path) -> None:
    found = _refused(
        tmp_path,
        {
            "notes.py": 'from burgee import command\n\n\n@command(effects="sideways")\n'
            'def jot() -> None:\n    """Jot."""\n',
            "handlers.py": "from notes import jot\n" + COMMAND,
        },
    )
    assert found == [
        "notes.py:4:18: error: effects must be one of read_only, idempotent, "
        "non_idempotent, destructive, withheld, undeclared"
    ]


def test_every_sibling_that_cannot_be_read_is_reported_in_one_run(tmp_path: Path) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "nul.py").write_bytes(b"X = 1\0\n")
    (folder / "latin.py").write_bytes(b'Y = "\xff"\n')
    (folder / "broken.py").write_text("def f(:\n", encoding="utf-8")
    (folder / "fine.py").write_text("from nul import X\nZ = 1\n", encoding="utf-8")
    imports = "from nul import X\nfrom latin import Y\nfrom broken import f\nfrom fine import W\n"
    (folder / "handlers.py").write_text(imports + COMMAND, encoding="utf-8")
    # NOTE: named as the handlers file was (sub/...), so each one opens from where gen ran.
    result = burgee("gen", "sub/handlers.py", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "sub/handlers.py:4:1: error: sub/fine.py has no top-level name 'W' to import",
        "sub/broken.py:1:7: error: syntax error: invalid syntax",
        "sub/latin.py:1:6: error: cannot decode byte 0xff as utf-8; save the file as UTF-8 or "
        "declare its encoding (# coding: ...)",
        "sub/nul.py:1:6: error: the file contains a NUL byte, which Python refuses",
        "burgee: 4 errors; nothing written",
    ]
    assert sorted(p.name for p in folder.iterdir()) == [
        "broken.py",
        "fine.py",
        "handlers.py",
        "latin.py",
        "nul.py",
    ]


def test_the_tool_is_the_same_wherever_gen_runs_from(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "handlers.py").write_text("from helpers import X\n" + COMMAND, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    made = burgee("gen", "handlers.py", "-o", "tool.py", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    banner = "# ---- From handlers.py (with helpers.py) ----"
    assert banner in (tmp_path / "tool.py").read_text(encoding="utf-8").splitlines()
    for handlers, out in (
        ("../handlers.py", "../tool.py"),
        (tmp_path / "handlers.py", tmp_path / "tool.py"),
    ):
        again = burgee("gen", str(handlers), "-o", str(out), "--check", cwd=tmp_path / "sub")
        assert again.returncode == 0, again.stderr


def test_a_relative_import_of_a_package_sibling_is_bundled(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "models.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n    x: int\n",
        encoding="utf-8",
    )
    (package / "handlers.py").write_text(
        "from .models import Point\n\nfrom burgee import command\n\n\n"
        '@command(effects="read_only")\ndef norm(point: Point) -> int:\n'
        '    """Norm."""\n    return abs(point.x)\n',
        encoding="utf-8",
    )
    result = burgee("gen", "pkg/handlers.py", "-o", "norm.py", "--name", "norm", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    run = subprocess.run(
        [sys.executable, "norm.py", "norm", "--point", '{"x": -3}', "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert json.loads(run.stdout)["data"] == 3, run.stderr


def test_undeclared_dependencies_are_listed_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text("import yaml\n" + COMMAND, encoding="utf-8")
    result = burgee("gen", "handlers.py", "-o", "go.py", "--name", "go", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "handlers.py:1:1: warning: the handlers import third-party packages but declare no "
        "dependencies; the tool's PEP 723 block lists PyYAML: declare them, with versions, in "
        "program(dependencies=[...]) or pyproject.toml"
    )
    text = (tmp_path / "go.py").read_text(encoding="utf-8")
    assert '#     "PyYAML",' in text
    assert 'yaml = _Missing("yaml", "PyYAML", _import_error)' in text


def test_dependencies_come_from_the_nearest_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "go"\nversion = "1"\ndependencies = ["PyYAML>=6", "rich"]\n',
        encoding="utf-8",
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "handlers.py").write_text("import yaml\n" + COMMAND, encoding="utf-8")
    result = burgee("gen", "src/handlers.py", "-o", "go.py", "--name", "go", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    text = (tmp_path / "go.py").read_text(encoding="utf-8")
    assert '#     "PyYAML>=6",\n#     "rich",\n' in text


def test_an_import_no_declared_dependency_provides_is_a_warning(tmp_path: Path) -> None:
    """Dependencies taken from a pyproject.toml above the handlers (a monorepo's, say) that
    do not provide an import: the PEP 723 block would install the wrong things, silently."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "mono"\nversion = "1"\ndependencies = ["django>=5", "PyYAML>=6"]\n',
        encoding="utf-8",
    )
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "handlers.py").write_text(
        "import yaml\nimport rich\n" + COMMAND, encoding="utf-8"
    )
    result = burgee("gen", "tools/handlers.py", "-o", "go.py", "--name", "go", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "tools/handlers.py:2:1: warning: the handlers import rich, which no declared dependency "
        "provides (the dependencies come from pyproject.toml); the tool's PEP 723 block does "
        "not install it: add its distribution there"
    )


@pytest.mark.parametrize("case", ["kitchen", "minimal", "settings"])
def test_golden_tools_run_on_the_oldest_python_they_declare(case: str) -> None:
    # NOTE: vermin checks the source (tests/test_quality.py); this runs the tool on a real
    # Python 3.9 where one is installed, and is a visible skip where it is not.
    python = _python39()
    tool = next(p for p in (GOLDEN / case).glob("*.py") if p.name != "handlers.py")
    for args in (["--help"], ["schema"], ["--version", "--json"]):
        result = subprocess.run(
            [python, str(tool), *args], capture_output=True, text=True, check=False, timeout=60
        )
        assert result.returncode == 0, (args, result.stderr)


def _python39() -> str:
    """A working Python 3.9 (on PATH, or one pyenv installed), or a visible skip."""
    candidates = [
        shutil.which("python3.9"),
        *map(str, Path.home().glob(".pyenv/versions/3.9*/bin/python3.9")),
    ]
    for candidate in candidates:
        if candidate is None:
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.stdout.strip() == "(3, 9)":
            return candidate
    pytest.skip("no Python 3.9 installed to run the tools on their declared minimum")


def test_a_tool_with_siblings_and_a_missing_dependency_runs_on_python_3_9(shipped: Path) -> None:
    python = Path(_python39())
    assert _run(python, shipped, "twice", "--n", "2", "--json").stdout.startswith('{"ok": true')
    missing = _run(python, shipped, "shout", "--text", "hi", "--json")
    assert missing.returncode == 69
    assert json.loads(missing.stdout)["error"]["kind"] == "missing_dependency"


def test_an_import_inside_a_handler_that_fails_is_a_missing_dependency(tmp_path: Path) -> None:
    handlers = tmp_path / "handlers.py"
    handlers.write_text(
        "from burgee import command\n\n\n"
        '@command(effects="read_only", examples=["late go"])\n'
        "def go() -> int:\n"
        '    """Import late."""\n'
        "    import burgee_no_such_package_xyz\n\n"
        "    return burgee_no_such_package_xyz.VALUE\n",
        encoding="utf-8",
    )
    made = burgee("gen", "handlers.py", "-o", "late.py", "--name", "late", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    result = _run(Path(sys.executable), tmp_path / "late.py", "go", "--json")
    assert result.returncode == BUILTIN_ERRORS["missing_dependency"][0]
    assert json.loads(result.stdout)["error"] == {
        "kind": "missing_dependency",
        "message": "this command needs the module 'burgee_no_such_package_xyz', which is not "
        "installed",
        "hint": "pip install burgee_no_such_package_xyz",
    }


PINNED = """
import burgee_absent_pkg
import burgee_absent_two

from burgee import command, program

program(name="pinned", dependencies=["burgee-absent-pkg>=4.9", "burgee_absent_two==1.0"])


@command(effects="read_only")
def size() -> str:
    \"\"\"Needs the first.\"\"\"
    return burgee_absent_pkg.naturalsize(1)


@command(effects="read_only")
def other() -> str:
    \"\"\"Needs the second.\"\"\"
    return burgee_absent_two.VALUE
"""


def test_the_missing_dependency_hint_keeps_the_declared_version(tmp_path: Path) -> None:
    """The hint installs what the PEP 723 block declares, pin included, quoted where the shell
    would read `>` as a redirection: the line runs as shown."""
    tool = helpers.generate(tmp_path, PINNED)
    answers = [helpers.run(tool, name, "--json").json() for name in ("size", "other")]
    hints = [answer["error"]["hint"] for answer in answers]
    assert hints == ["pip install 'burgee-absent-pkg>=4.9'", "pip install burgee_absent_two==1.0"]
