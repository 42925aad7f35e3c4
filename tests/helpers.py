"""Shared helpers for the black-box tests: generate a tool, run it as a subprocess."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from tests.regen import golden_output

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden"
ERRORS = REPO / "tests" / "errors"
REGEN = "python tests/regen.py"


def burgee(
    *args: str, cwd: Path | None = None, check: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run the generator as users do: `python -m burgee ...`."""
    return subprocess.run(
        [sys.executable, "-m", "burgee", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=check,
        stdin=subprocess.DEVNULL,
    )


def generate(tmp_path: Path, source: str, name: str = "handlers.py", *extra: str) -> Path:
    """Write a handlers file, generate its tool, and return the tool's path."""
    handlers = tmp_path / name
    handlers.write_text(textwrap.dedent(source), encoding="utf-8")
    out = tmp_path / "tool.py"
    result = burgee_in_process("gen", str(handlers), "-o", str(out), *extra)
    assert result.returncode == 0, result.stderr
    return out


def burgee_in_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """What `burgee(*args, cwd=cwd)` answers, asked in this process through the generator's
    own `invoke()` (its command line is a generated tool): about an eighth of the time of a
    process, for the many tests that need a tool made or compare what gen writes, not the
    generator's process (which `burgee()` runs, as users do)."""
    from burgee._tool import invoke  # noqa: PLC0415

    before = os.getcwd()
    os.chdir(cwd or before)
    try:
        done = invoke(list(args))
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(["burgee", *args], done.exit_code, done.stdout, done.stderr)


#: What a golden case or an example is made from: its handlers, and the pyproject.toml its
#: version may come from.
CASE_INPUTS = ("handlers.py", "pyproject.toml")


def plain_build(case: Path, folder: Path) -> Path:
    """The tool of a golden case or an example built with `burgee gen --plain`, in
    `folder/<case>/` (named as the committed module is), with the case's inputs beside it."""
    work = folder / case.name
    work.mkdir(parents=True)
    for name in CASE_INPUTS:
        if (case / name).exists():
            (work / name).write_bytes((case / name).read_bytes())
    out = work / golden_output(case).name
    result = burgee_in_process("gen", "handlers.py", "-o", out.name, "--plain", cwd=work)
    assert result.returncode == 0, result.stderr
    return out


class Run:
    """A finished run of a generated tool."""

    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self) -> Any:
        """stdout parsed as one JSON document."""
        return json.loads(self.out)

    def error_line(self) -> Any:
        """The last line of stderr, which is always the JSON error envelope on failure."""
        lines = self.err.strip().splitlines()
        assert lines, "stderr is empty"
        return json.loads(lines[-1])

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


def invoked(tool: Path, here: Path | None = None) -> str:
    """How a line the tool prints starts (`next[]`, hints) when `run()` ran it: the interpreter
    and the tool's absolute path, so that it runs from any folder; a line that runs a command
    (`next[]`) first goes back to the folder it was printed in, `here` (`cd FOLDER &&`)."""
    start = shlex.join([sys.executable, str(tool.resolve())])
    return f"cd {shlex.quote(os.path.realpath(here))} && {start}" if here else start


def cached_start(tool: Path) -> list[str]:
    """The interpreter's arguments `--mcp --print-config` gives for a tool run as a script
    (before `--mcp`): the file run as `python -m` runs a module, from its cached bytecode, its
    folder first on the path and the current folder not on it."""
    folder, name = str(tool.resolve().parent), tool.stem
    return [
        "-c",
        f"import sys; sys.path = [{folder!r}, *(p for p in sys.path if p)];"
        f" from importlib.machinery import PathFinder; spec = PathFinder.find_spec({name!r},"
        " sys.path[:1]); globals().update(__file__=spec.origin, __cached__=spec.cached,"
        " __loader__=spec.loader, __spec__=spec); sys.argv[0] = spec.origin;"
        f" exec(spec.loader.get_code({name!r}), globals())",
    ]


def load_tool(tmp_path: Path, source: str, name: str) -> Any:
    """Generate a tool from a handlers source and import it in this process, under a module
    name of its own, for tests that call its `invoke()`."""
    return import_tool(generate(tmp_path, source), f"tool_{name}")


def import_tool(path: Path, name: str) -> Any:
    """Import the generated tool at `path` in this process as the module `name` (replacing
    one of that name), for tests that call its `invoke()`."""
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NOTE: dataclasses look their module up while defined
    spec.loader.exec_module(module)
    return module


class InProcess:
    """A generated tool asked in this process through its `invoke()`, as a fresh process run
    in `cwd` with exactly the environment `env` would be (nothing of the test's own)."""

    def __init__(self, path: Path, name: str, cwd: Path, env: dict[str, str]) -> None:
        self.cwd, self.env = cwd, env
        with self.inside():
            self.module = import_tool(path, name)

    @contextlib.contextmanager
    def inside(self) -> Iterator[None]:
        before = os.getcwd()
        os.chdir(self.cwd)
        try:
            with mock.patch.dict(os.environ, self.env, clear=True):
                yield
        finally:
            os.chdir(before)

    def ask(self, *args: str) -> Any:
        """The tool's `Invoked` answer to `args` (exit code, stdout, stderr)."""
        with self.inside():
            return self.module.invoke(list(args))

    def run(self, *args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Run:
        """What `run(tool, *args, stdin=, env=)` answers, asked through `invoke()` instead."""
        with self.inside():
            done = self.module.invoke(list(args), input=stdin or "", env=env)
        return Run(
            subprocess.CompletedProcess(list(args), done.exit_code, done.stdout, done.stderr)
        )


_NAMES = itertools.count()


class InProcessTool:
    """A generated tool asked in this process as `run()` asks it in a subprocess: in `cwd` (its
    folder), with this environment but the `*_DEBUG` switches, and each call a fresh import of
    the tool, so that nothing one call leaves in the module (config files read, secrets seen)
    is there for the next, as in a new process. For the tests where the process does not
    matter; signals, pipes, terminals and start-up keep `run()`."""

    def __init__(self, tool: Path, cwd: Path | None = None) -> None:
        self.tool, self.cwd = tool, cwd or tool.parent
        self.env = {k: v for k, v in os.environ.items() if not k.endswith("_DEBUG")}

    def run(
        self,
        *args: str,
        stdin: str | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Run:
        """What `run(tool, *args, stdin=, env=, cwd=)` answers, asked through `invoke()`."""
        name = f"in_process_{self.tool.stem}_{next(_NAMES)}"
        try:
            inside = InProcess(self.tool, name, cwd or self.cwd, self.env)
            return inside.run(*args, stdin=stdin, env=env)
        finally:
            sys.modules.pop(name, None)


def in_process(tool: Path, cwd: Path | None = None) -> InProcessTool:
    """The tool at `tool` asked in this process (see `InProcessTool`)."""
    return InProcessTool(tool, cwd)


def run(
    tool: Path,
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> Run:
    """Run a generated tool with this interpreter, as a user or an agent would."""
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_DEBUG")}
    environ.update(env or {})
    proc = subprocess.run(
        [sys.executable, str(tool), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=environ,
        cwd=cwd or tool.parent,
        check=False,
    )
    return Run(proc)


def sound_entry(entry: Path) -> bool:
    """Whether the tool's cache entry at `entry` has a head a run would read (`boot._head`)."""
    from burgee.runtime.start import boot  # noqa: PLC0415

    with boot._open_owned(str(entry)) as stream:
        return boot._head(entry.stem, stream) is not None
