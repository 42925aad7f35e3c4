"""Regenerate every golden module and error snapshot: `python tests/regen.py`.

Golden cases are `tests/golden/<case>/handlers.py` → `tests/golden/<case>/<program>.py`;
error cases are `tests/errors/<case>.py` → `tests/errors/<case>.stderr`. Each generated module
(the goldens', the examples' and `generator/_tool.py`) is kept with the code of its string
unpacked (`sections.expand`): the same tool, and its diff shows what changed in the code.
Review the diff (`git diff tests/`) before committing: it is the change in generated output.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def golden_output(case: Path) -> Path:
    """The committed generated module of a golden case."""
    outputs = [p for p in case.glob("*.py") if p.name != "handlers.py"]
    assert len(outputs) <= 1, f"{case} has more than one generated module"
    return outputs[0] if outputs else case / f"{case.name}.py"


def golden_gen_args(out: Path) -> list[str]:
    """`burgee gen` arguments for a golden case, run in its directory: the module, its
    completion scripts and its skill (SKILL.md, AGENTS.md)."""
    return [
        "gen",
        "handlers.py",
        "-o",
        out.name,
        "--force",
        "--completions",
        "completions",
        "--skill-dir",
        "skill",
    ]


def example_gen_args(out: Path) -> list[str]:
    """`burgee gen` arguments for an example, run in its directory: the module only."""
    return ["gen", "handlers.py", "-o", out.name]


def self_hosted_args(*extra: str) -> list[str]:
    """`burgee gen` arguments for burgee's own command line, run in the repository:
    `generator/commands.py` -> `generator/_tool.py`, at burgee's version."""
    from burgee import __version__  # noqa: PLC0415

    return [
        "gen",
        "generator/commands.py",
        "-o",
        "generator/_tool.py",
        "--version",
        __version__,
        *extra,
    ]


def regenerate_self() -> None:
    """Write `generator/_tool.py` with the pipeline itself, not through it: `python -m burgee`
    runs that very file, which a runtime change may have left stale or broken."""
    import argparse  # noqa: PLC0415
    import os  # noqa: PLC0415

    from burgee.write.gen import gen  # noqa: PLC0415

    args = argparse.Namespace(
        handlers=Path("generator/commands.py"),
        output=Path("generator/_tool.py"),
        name=None,
        program_version=self_hosted_args()[5],
        check=False,
        strict=False,
        force=False,
        completions=None,
        skill_dir=None,
        plain=None,
    )
    here = Path.cwd()
    os.chdir(REPO)
    try:
        gen(args, lambda warning: print(warning, file=sys.stderr))
    finally:
        os.chdir(here)


def error_stderr(handlers: Path) -> str:
    """What `burgee gen` prints for a bad handlers file, with the path made relative."""
    proc = subprocess.run(
        [sys.executable, "-m", "burgee", "gen", handlers.name, "-o", "out.py"],
        cwd=handlers.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    return error_snapshot(proc.returncode, proc.stderr)


def error_snapshot(code: int, stderr: str) -> str:
    """How an error case's `.stderr` file holds gen's exit code and what it printed."""
    return f"exit {code}\n{stderr}"


def expanded(module: Path) -> None:
    """Write `module` with its code unpacked in its string (`sections.expand`): the same tool,
    and a diff of it shows what changed in the code."""
    from burgee.render.sections import expand  # noqa: PLC0415

    text = module.read_text(encoding="utf-8")
    module.write_text(expand(text), encoding="utf-8")


def main() -> int:
    """Regenerate everything; return 0."""
    regenerate_self()
    expanded(REPO / "generator" / "_tool.py")
    for case in sorted((HERE / "golden").iterdir()):
        if (case / "handlers.py").exists():
            out = golden_output(case)
            subprocess.run(
                [sys.executable, "-m", "burgee", *golden_gen_args(out)], cwd=case, check=True
            )
            expanded(out)
    for handlers in sorted((HERE / "errors").glob("*.py")):
        handlers.with_suffix(".stderr").write_text(error_stderr(handlers), encoding="utf-8")
        print(f"wrote {handlers.with_suffix('.stderr').relative_to(REPO)}", file=sys.stderr)
    for example in sorted((REPO / "examples").glob("*/handlers.py")):
        out = golden_output(example.parent)
        subprocess.run(
            [sys.executable, "-m", "burgee", *example_gen_args(out)],
            cwd=example.parent,
            check=True,
        )
        expanded(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
