"""burgee's own code is held to the bar it sets for the code it generates."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from tests.helpers import REPO

#: Slow: ruff, mypy --strict and vermin over the package and the generated modules (`pytest -m "not
#: slow"` leaves it out).
pytestmark = pytest.mark.slow


def test_generator_passes_mypy_strict(tmp_path: Path) -> None:
    # NOTE: the package `burgee` lives in the folder `generator/`; a symlink named after
    # the package lets mypy find it the way Python's import system does after install.
    (tmp_path / "burgee").symlink_to(REPO / "generator")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "burgee", "--cache-dir", str(tmp_path / "cache")],
        cwd=REPO,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_and_format_are_clean() -> None:
    for args in (["check"], ["format", "--check"]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *args, "--no-cache", "generator", "tests", "bench"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def _module_names(root: Path) -> dict[str, Path]:
    """Every module of the package `burgee` (the folder `generator/`), by dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = ("burgee", *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(
    module: str, path: Path, modules: dict[str, Path], *, type_only: bool | None = None
) -> set[str]:
    """The burgee modules `module` imports anywhere, in functions too.

    Type-only imports (under `if TYPE_CHECKING:`) count as well (`type_only`), by default
    except in `burgee.runtime`, whose modules are joined into one generated file where their
    names may refer to each other freely (its own test counts them).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if type_only is None:
        type_only = not module.startswith("burgee.runtime")
    skipped = (
        set()
        if type_only
        else {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and _is_type_checking(node.test)
            for statement in node.body
            for inner in ast.walk(statement)
        }
    )
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in modules else base)
    return {name for name in found if name in modules and name != module}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph`, as a closed path, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_generator_has_no_import_cycles() -> None:
    # NOTE: a function-level import hides a cycle from Python but not from this graph.
    modules = _module_names(REPO / "generator")
    assert {"burgee.cli", "burgee.read.program", "burgee.render.module"} <= modules.keys()
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    assert "burgee.render.module" in graph["burgee.write.generate"]
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_runtime_has_no_import_cycles() -> None:
    """The runtime's modules import one another one way, type-only imports included: the
    program they read is one object (`runtime/program.py`) that imports none of them."""
    modules = {
        name: path
        for name, path in _module_names(REPO / "generator").items()
        if name.startswith("burgee.runtime.")
    }
    known = {"burgee.runtime.program", "burgee.runtime.commandline.cli"}
    assert known | {"burgee.runtime.core.context"} <= set(modules)
    graph = {name: _imported(name, path, modules, type_only=True) for name, path in modules.items()}
    assert graph["burgee.runtime.program"] == set()
    assert "burgee.runtime.core.context" in graph["burgee.runtime.execution.table"]
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_runtime_runs_on_python_3_9() -> None:
    # NOTE: the runtime is joined into tools that promise Python 3.9; vermin's console script,
    # run by this interpreter (the package has no __main__).
    vermin = [sys.executable, "-c", "import sys; from vermin import main; sys.exit(main())"]
    result = subprocess.run(
        [*vermin, "--no-tips", "--violations", "-t=3.9-", str(REPO / "generator" / "runtime")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_architecture_is_a_map() -> None:
    """docs/architecture.md stays a map of at most 3,000 words: a module's details live in its
    docstring."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert len(text.split()) <= 3000


def test_architecture_describes_every_module() -> None:
    """docs/architecture.md names each module of the generator by its path under `generator/`
    (the top-level ones by their bare names)."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    generator = REPO / "generator"
    missing = []
    for path in sorted(generator.rglob("*.py")):
        relative = path.relative_to(generator).as_posix()
        if (path.name == "__init__.py" and relative != "__init__.py") or relative == "_tool.py":
            continue
        if f"`{relative}`" not in text and f"`{relative}:" not in text:
            missing.append(relative)
    assert missing == []


def test_every_package_of_the_generator_is_installed() -> None:
    """A folder of `generator/` that pyproject.toml does not list is left out of a wheel: gen
    then fails where it is installed (`burgee.read.dialects` did), never in a checkout."""

    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    generator = REPO / "generator"
    found = {
        ".".join(("burgee", *init.parent.relative_to(generator).parts))
        for init in generator.rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)
