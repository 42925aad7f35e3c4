"""The handlers' code is the module's own code, and what the handlers import runs only when a
command (or a `complete=` function) runs.

The default form keeps only burgee's runtime in a string (`render/sections.py`); the handlers,
their converters and the tables are ordinary code that linters, type checkers, coverage and
readers see. Their imports that only function bodies use wait for the first command
(`_import_handlers`, `runtime/execution/table._import_once`): help, schema, completion and the MCP
lists never import what the handlers import.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from burgee.runtime.start.boot import _CODE_OPEN
from tests.helpers import GOLDEN, burgee_in_process, run
from tests.mcp_wire import INIT, line
from tests.regen import golden_output


def _top_level(source: str) -> tuple[set[str], dict[str, ast.stmt], list[str]]:
    """A module's top-level functions, its top-level assignments by name, and its string
    statements after the docstring (as text)."""
    tree = ast.parse(source)
    functions = {
        node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    assigned: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            assigned[node.target.id] = node
        elif isinstance(node, ast.Assign):
            assigned.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
    strings = [
        node.value.value
        for node in tree.body[1:]
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]
    return functions, assigned, strings


@pytest.mark.parametrize("case", ["kitchen", "pantry", "clikit"])
def test_the_handlers_and_tables_are_module_code(case: str) -> None:
    """Every handler of a golden is a function of the module, as `ast` (and coverage,
    linters, type checkers) see them; the one string holds burgee's runtime and the tables
    (its `tables` section, run after the handlers), none of the handlers' code."""
    source = golden_output(GOLDEN / case).read_text(encoding="utf-8")
    functions, assigned, strings = _top_level(source)
    handlers = ast.parse((GOLDEN / case / "handlers.py").read_text(encoding="utf-8"))
    names = {
        node.name
        for node in handlers.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.decorator_list
    }
    assert names
    assert names <= functions
    assert len(strings) == 1  # NOTE: the runtime, last, read from the file by _boot
    assert source.endswith(f"{_CODE_OPEN}{strings[0]}'''\n")
    runtime = ast.parse(strings[0])
    # NOTE: the tables are the string's `tables` section, run where `_tables()` stands.
    tables = {n.target.id for n in runtime.body if isinstance(n, ast.AnnAssign)}  # type: ignore[union-attr]
    for table in ("COMMANDS", "GROUPS", "ERRORS", "RECORDS", "_MCP_NAMES"):
        assert table in tables and table not in assigned, table
    assert "\n_tables()\n" in source[: source.index(_CODE_OPEN)]
    defined = {n.name for n in runtime.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    assert {"main", "invoke", "_execute"} <= defined
    assert not defined & names


#: A package the handlers import: it leaves a mark in $MARKS when it is imported.
PACKAGE = """\
import os

with open(os.environ["MARKS"], "a", encoding="utf-8") as _marks:
    _marks.write("imported\\n")


def shout(text):
    return text.upper()
"""

HANDLERS = '''\
"""Loud: says things loudly."""

import heavy
from typing import Annotated, Literal

from burgee import Argument, Option, command, program

program(name="loud", version="1.0.0", dependencies=["heavy>=1"])


def _moods(partial: str) -> list[str]:
    return [heavy.shout(m).lower() for m in ("calm", "cross") if m.startswith(partial)]


TONES = ("low", "high")


def _tone_words() -> tuple[str, ...]:
    return TONES


def _tones(partial: str) -> list[str]:
    return [t for t in _tone_words() if t.startswith(partial)]


def _loud_words() -> list[str]:
    return [heavy.shout(w) for w in ("up", "down")]


def _pitches(partial: str) -> list[str]:
    return [w.lower() for w in _loud_words() if w.lower().startswith(partial)]


@command(effects="read_only")
def say(
    text: Annotated[str, Argument(help="What to say")],
    mood: Annotated[str, Option(complete=_moods)] = "calm",
    style: Literal["a", "b"] = "a",
    tone: Annotated[str, Option(complete=_tones)] = "low",
    pitch: Annotated[str, Option(complete=_pitches)] = "up",
) -> str:
    """Say it loudly."""
    return heavy.shout(text) + " (" + mood + ")"
'''


@pytest.fixture
def loud(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The tool of HANDLERS, and an environment where `heavy` can be imported."""
    (tmp_path / "site" / "heavy").mkdir(parents=True)
    (tmp_path / "site" / "heavy" / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "handlers.py").write_text(HANDLERS, encoding="utf-8")
    result = burgee_in_process("gen", "handlers.py", "-o", "loud.py", cwd=tmp_path / "src")
    assert result.returncode == 0, result.stderr
    assert "note:" not in result.stderr
    env = {
        "PYTHONPATH": str(tmp_path / "site"),
        "MARKS": str(tmp_path / "marks"),
        "BURGEE_CACHE_DIR": str(tmp_path / "cache"),
    }
    return tmp_path / "src" / "loud.py", env


def _marks(env: dict[str, str]) -> list[str]:
    path = Path(env["MARKS"])
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_what_needs_no_handler_never_imports_what_the_handlers_import(
    loud: tuple[Path, dict[str, str]],
) -> None:
    tool, env = loud
    for args in (
        ["--help"],
        ["say", "--help"],
        ["--version"],
        ["schema"],
        ["--llms"],
        ["--skill"],
        ["completion", "bash"],
        ["__complete", "say", "--style", ""],
        ["__complete", "s"],
    ):
        result = run(tool, *args, env=env)
        assert result.code == 0, (args, result)
        assert _marks(env) == [], args
    calls = [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    ]
    session = subprocess.run(
        [sys.executable, str(tool), "--mcp"],
        input=b"".join(line(message) for message in [INIT, *calls]),
        capture_output=True,
        check=False,
        timeout=60,
        env={**os.environ, **env},
    )
    answers = [json.loads(text) for text in session.stdout.splitlines()]
    assert [a["result"]["tools"][0]["name"] for a in answers[1:]] == ["say"]
    assert _marks(env) == []


def test_a_command_or_a_completer_imports_them_once(loud: tuple[Path, dict[str, str]]) -> None:
    tool, env = loud
    assert run(tool, "say", "hi", env=env).out == "HI (calm)\n"
    assert _marks(env) == ["imported"]
    assert run(tool, "__complete", "say", "--mood", "c", env=env).out.split() == [
        "calm",
        "cross",
    ]
    assert _marks(env) == ["imported", "imported"]  # NOTE: one run, one import


def test_a_completer_that_uses_none_of_them_runs_without_them(
    loud: tuple[Path, dict[str, str]],
) -> None:
    """`_tones` reaches only the file's own constants (through `_tone_words`): TAB runs it
    without `heavy`; `_pitches` reaches `heavy` through `_loud_words`: TAB imports it."""
    tool, env = loud
    assert 'frozenset({"_tones"})' in tool.read_text(encoding="utf-8")
    assert run(tool, "__complete", "say", "--tone", "", env=env).out.split() == ["low", "high"]
    assert _marks(env) == []
    assert run(tool, "__complete", "say", "--pitch", "d", env=env).out.split() == ["down"]
    assert _marks(env) == ["imported"]


def test_a_missing_package_fails_the_command_that_needs_it(
    loud: tuple[Path, dict[str, str]],
) -> None:
    tool, env = loud
    env = {**env, "PYTHONPATH": ""}
    assert run(tool, "--help", env=env).code == 0
    result = run(tool, "say", "hi", "--json", env=env)
    assert result.code == 69, result
    assert "Traceback" not in result.err
    error = result.error_line()["error"]
    assert error["kind"] == "missing_dependency"
    assert "heavy" in error["hint"]


def test_an_import_module_level_code_uses_runs_at_start_and_gen_says_why(
    tmp_path: Path,
) -> None:
    source = HANDLERS.replace("\ndef _moods", '\nLOUD = heavy.shout("x")\n\n\ndef _moods')
    (tmp_path / "handlers.py").write_text(source, encoding="utf-8")
    result = burgee_in_process("gen", "handlers.py", "-o", "loud.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    number = source.splitlines().index('LOUD = heavy.shout("x")') + 1
    assert result.stderr.splitlines()[0] == (
        f"handlers.py:{number}:8: note: the tool imports heavy on every start (help, schema, "
        "completion, MCP lists): heavy is used here when the module is defined; an import "
        "only functions use runs when the first command runs"
    )
    code = (tmp_path / "loud.py").read_text(encoding="utf-8")
    assert "def _import_handlers" not in code
    assert "try:\n    import heavy\nexcept ImportError" in code


def test_a_handler_runs_as_module_code_under_coverage(tmp_path: Path) -> None:
    """Coverage of a test that runs a command through `invoke()` reports the handler's lines
    as statements of the tool that ran (code in a string is no statement to it)."""
    tool = golden_output(GOLDEN / "minimal")
    script = textwrap.dedent(
        f"""
        import importlib.util, json, sys
        import coverage

        cov = coverage.Coverage(data_file=None, include=[{str(tool)!r}])
        cov.start()
        spec = importlib.util.spec_from_file_location("minimal_tool", {str(tool)!r})
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        result = module.invoke(["hello", "--name", "Ada"])
        cov.stop()
        _, statements, _, missing, _ = cov.analysis2({str(tool)!r})
        run = sorted(set(statements) - set(missing))
        print(json.dumps({{"exit": result.exit_code, "lines": run}}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["exit"] == 0
    tree = ast.parse(tool.read_text(encoding="utf-8"))
    hello = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "hello")
    body = {node.lineno for node in hello.body[1:]}  # NOTE: the docstring is no statement run
    assert body and body <= set(found["lines"])


USER_TEST = """\
import minimal


def test_hello() -> None:
    result = minimal.invoke(["hello", "--name", "Ada"])
    assert result.exit_code == 0
    assert result.stdout == "Hello, Ada!\\n"
    assert minimal.hello("Ada") == "Hello, Ada!"


def fails(ctx: minimal.Context) -> None:
    raise minimal.CommandError("no", hint="later")
"""


@pytest.mark.slow  # NOTE: a type checker (docs/contributing.md)
def test_a_users_test_that_calls_invoke_type_checks(tmp_path: Path) -> None:
    """`mypy --strict` on a test that imports the tool and calls its `invoke` (and a
    handler, and names `Context`): the runtime's names are declared for type checkers."""
    tool = golden_output(GOLDEN / "minimal")
    (tmp_path / tool.name).write_bytes(tool.read_bytes())
    (tmp_path / "test_minimal.py").write_text(USER_TEST, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "test_minimal.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
