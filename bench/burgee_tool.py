"""burgee as the benchmark uses it: the generator's venv, `burgee gen`, installed tools.

The generator venv holds `pip install -e <repo>`, so it always runs the checkout's generator.
An "installed" tool is the generated module wrapped in a tiny package whose
`[project.scripts]` entry points at the module's `main()`, pip-installed into its own venv, as
a user would ship it.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from context import GEN_UNAVAILABLE, Context
from harness import BenchError, clean_env
from venvs import Venv, VenvError, file_digest

PYPROJECT = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "{dist}"
version = "1.0.0"
description = "A burgee-generated tool, packaged for the benchmark."
requires-python = ">=3.10"

[project.scripts]
{script} = "{module}:main"

[tool.setuptools]
py-modules = ["{module}"]
"""


class Burgee:
    """The generator under test. Create with `Burgee.get(ctx)`; None if it is not usable."""

    def __init__(self, ctx: Context, python: Path) -> None:
        self.ctx = ctx
        self.python = python

    @classmethod
    def get(cls, ctx: Context) -> Burgee | None:
        """The generator, or None after a clear skip message if `burgee gen` is unavailable."""
        if "burgee" in ctx.memo:
            return ctx.memo["burgee"]  # type: ignore[return-value]
        tool: Burgee | None = None
        try:
            python = cls._interpreter(ctx)
            reason = cls._probe(python)
            if reason is None:
                tool = cls(python=python, ctx=ctx)
            else:
                ctx.skip(f"{GEN_UNAVAILABLE}: {reason}")
        except VenvError as exc:
            ctx.skip(f"{GEN_UNAVAILABLE}: the generator venv did not build: {exc}")
        ctx.memo["burgee"] = tool
        return tool

    @staticmethod
    def _interpreter(ctx: Context) -> Path:
        if ctx.burgee_python:
            return Path(ctx.burgee_python)
        venv = ctx.venvs.ensure(
            "burgee-gen", editable=ctx.repo, stamp=file_digest(ctx.repo / "pyproject.toml")
        )
        found = ctx.venvs.versions(venv, ["burgee"])
        ctx.versions.update(found)
        return venv.python

    @staticmethod
    def _probe(python: Path) -> str | None:
        proc = subprocess.run(
            [str(python), "-m", "burgee", "gen", "--help"],
            capture_output=True,
            env=clean_env(),
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if proc.returncode == 0:
            return None
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:]
        return f"`python -m burgee gen --help` exits {proc.returncode} ({' '.join(tail)})"

    def gen_argv(self, handlers: Path, output: Path, plain: bool = False) -> tuple[str, ...]:
        """`burgee gen handlers.py -o output.py` (`--plain`: the plain form; else the default
        form, whatever form the file had), through the venv's console script if any."""
        script = self.python.parent / "burgee"
        head = (str(script),) if script.exists() else (str(self.python), "-m", "burgee")
        form = "--plain" if plain else "--no-plain"
        return (*head, "gen", str(handlers), "-o", str(output), form)

    def generate(self, handlers: Path, output: Path, plain: bool = False) -> Path:
        """Run `burgee gen` once; raise BenchError with its stderr if it fails."""
        proc = subprocess.run(
            self.gen_argv(handlers, output, plain),
            capture_output=True,
            env=clean_env(),
            timeout=600,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if proc.returncode != 0 or not output.exists():
            tail = proc.stderr.decode(errors="replace").strip().splitlines()[-6:]
            raise BenchError(
                f"burgee gen {handlers.name} exits {proc.returncode}: {' | '.join(tail)}"
            )
        return output

    def install(
        self,
        venv_name: str,
        module: Path,
        script: str,
        installer: str = "pip",
        requirements: Sequence[str] = (),
    ) -> Venv:
        """Package the generated module with a console script and install it (pip or uv),
        with the PyPI `requirements` its handlers import."""
        if "def main(" not in module.read_text():
            raise BenchError(f"{module.name} defines no main(); cannot make a console script")
        pkg = self.ctx.work / "packages" / venv_name
        if pkg.exists():
            shutil.rmtree(pkg)
        pkg.mkdir(parents=True)
        mod_name = module.stem.replace("-", "_")
        shutil.copyfile(module, pkg / f"{mod_name}.py")
        (pkg / "pyproject.toml").write_text(
            PYPROJECT.format(dist=venv_name, script=script, module=mod_name)
        )
        try:
            return self.ctx.venvs.ensure(
                venv_name,
                requirements,
                local=pkg,
                stamp=file_digest(module),
                installer=installer,
            )
        except VenvError as exc:
            raise BenchError(str(exc)) from exc
