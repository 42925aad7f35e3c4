"""The pipeline in one call: read → model → render.

`generate()` (the program read and the module's text): read → `shipped_as()` (how the shipped
tool is run: the nearest pyproject.toml's `[project.scripts]` entry named as the program or
running its module, else `python FILE.py`; `Program.invocation`, for the skill and `--llms`) →
render, and the `burgee gen` line for the header, with `checked()` (examples and warnings;
`--strict`) run while ruff formats the module (`render(meanwhile=)`); `guarded()` turns a
RecursionError or MemoryError anywhere in the pipeline into a diagnostic at the file;
`uncollected()`, the cyclic garbage collector paused while the pipeline runs (`generate()`,
`gen`'s `check`): its objects live until it ends, and the collector walked them again and again;
`default_output()`, `<name>.py` beside the handlers (`<name>_tool.py` when the code imports a
package of that name: `shadowing()` refuses an `-o` that would); the header's
`regenerate_command()` (ending in `--plain` for the plain form) and `is_plain()`, which reads it
back: `generate(plain=None)` keeps the form of the file on disk.
"""

from __future__ import annotations

import gc
import os
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from burgee.model.diagnostics import Diagnostic, GenerationError, SourceSpan
from burgee.model.ir import Program
from burgee.read.imports import load_toml, nearest_pyproject
from burgee.read.program import read_program
from burgee.render.module import render
from burgee.write import examples
from burgee.write.files import HEAD_LINES, is_generated

#: `burgee gen`'s option for the plain form, as the header's regenerate line gives it.
PLAIN_FLAG = "--plain"


@contextmanager
def guarded(path: str) -> Iterator[None]:
    """Turn a RecursionError or MemoryError anywhere in the pipeline into a diagnostic at the
    file: whatever made a parser or a stage run out, gen reports it and writes nothing."""
    try:
        yield
    except (RecursionError, MemoryError) as error:
        span = SourceSpan(path=path, line=1, column=1)
        message = (
            f"burgee cannot read this file ({type(error).__name__}): some code in it is nested "
            "too deeply or is too large; split it into smaller pieces"
        )
        raise GenerationError([Diagnostic(span=span, message=message)]) from None


def read(source: str, path: str, *, name: str | None = None, version: str | None = None) -> Program:
    """`read_program`, guarded."""
    with guarded(path):
        return read_program(source, path, name=name, version=version)


def default_output(handlers: Path, program: Program) -> Path:
    """Where the tool goes without `-o`: `<name>.py` beside the handlers file; `<name>_tool.py`
    when `<name>` is a package its code imports (cruft's `from cruft import _commands`): a
    module of that name would import itself in its place."""
    stem = program.name.replace("-", "_")
    if stem in _imported(program):
        stem += "_tool"
    return handlers.with_name(f"{stem}.py")


def _imported(program: Program) -> set[str]:
    return {module.partition(".")[0] for module, _ in program.third_party}


def shadowing(handlers: str, output: Path, program: Program) -> Diagnostic | None:
    """A problem when the tool's module would be named as a package its code imports: run as a
    script (its folder first on the path) or installed beside it, Python would import the tool
    itself in the package's place (and pip would overwrite one with the other)."""
    if output.stem not in _imported(program):
        return None
    return Diagnostic(
        span=SourceSpan(path=handlers, line=1, column=1),
        message=f"the tool {output.name} would be the module {output.stem!r}, the package its "
        f"code imports: Python would import the tool in its place; name it otherwise (without "
        f"-o: {default_output(Path(handlers), program).name})",
    )


def shipped_as(handlers: str, output: Path, name: str) -> str:
    """How the tool is run as shipped: the `[project.scripts]` entry of the nearest
    pyproject.toml named as the program or running its module (`NAME = "MODULE:main"`, as
    `burgee new` writes it), else `python FILE.py`."""
    module = output.stem
    found = nearest_pyproject(handlers)
    data = load_toml(found) if found is not None else None
    project = data.get("project") if data is not None else None
    scripts = project.get("scripts") if isinstance(project, dict) else None
    for script, target in scripts.items() if isinstance(scripts, dict) else ():
        runs = isinstance(target, str) and target.partition(":")[0].rpartition(".")[2] == module
        if script == name or runs:
            return str(script)
    return f"python {shlex.quote(module + '.py')}"


def regenerate_command(handlers: str, out: Path, *, plain: bool = False) -> str:
    """The `burgee gen` line to put in the header, relative to the output's directory; with
    `--plain` for the plain form (how `gen` tells a plain file on disk, `is_plain`)."""
    here = out.resolve().parent
    source = os.path.relpath(Path(handlers).resolve(), here)
    line = f"burgee gen {shlex.quote(source)} -o {shlex.quote(out.name)}"
    return f"{line} {PLAIN_FLAG}" if plain else line


def is_plain(path: Path) -> bool:
    """Whether `path` holds a tool burgee wrote in the plain form: the `burgee gen` line of its
    header ends in `--plain` (`regenerate_command`)."""
    if not is_generated(path):
        return False
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            head = [file.readline() for _ in range(HEAD_LINES)]
    except OSError:
        return False
    for line in head:
        if line.startswith("#     burgee gen "):
            try:
                words = shlex.split(line[1:])
            except ValueError:
                return False
            # NOTE: burgee gen SOURCE -o OUTPUT [--plain]: an output named --plain is no flag.
            return words[5:] == [PLAIN_FLAG]
    return False


def generate(
    source: str,
    path: str,
    *,
    output: Path | None = None,
    name: str | None = None,
    version: str | None = None,
    warn: Callable[[Diagnostic], None] | None = None,
    strict: bool = False,
    plain: bool | None = False,
) -> tuple[Program, str]:
    """Generate the module for one handlers file; return the program read and the module's
    source (`plain`: its plain form; None: the form of the output file already there).
    Warnings (things that generate, but the author should know) go to `warn`; with `strict`
    they are errors."""
    with uncollected():
        program = read(source, path, name=name, version=version)
        out = output or default_output(Path(path), program)
        problem = shadowing(path, out, program)
        if problem is not None:
            raise GenerationError([problem])
        invocation = shipped_as(path, out, program.name)
        program = program.model_copy(update={"invocation": invocation})
        if plain is None:
            plain = is_plain(out)
        regenerate = regenerate_command(path, out, plain=plain)

        def check() -> None:
            checked(program, path, warn=warn, strict=strict)

        # NOTE: the checks (every example parsed) run while ruff formats the module.
        with guarded(path):
            return program, render(program, regenerate, plain=plain, meanwhile=check)


@contextmanager
def uncollected() -> Iterator[None]:
    """The cyclic garbage collector paused: the pipeline makes millions of objects (ast trees,
    the IR, the rows) that live until it ends, and the collector walked them all again and again
    as they grew (a 1,000-command program spent a third of its `gen` there, more the larger it
    was). What the pipeline drops is collected once it is done."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def checked(
    program: Program,
    path: str,
    *,
    warn: Callable[[Diagnostic], None] | None = None,
    strict: bool = False,
) -> None:
    """Check what reading alone does not (every example parses; the warnings): warnings and
    notes go to `warn` (with `strict` warnings are errors); raises GenerationError with the
    errors."""
    with guarded(path):
        found = [*program.warnings, *examples.check(program)]
    if strict:
        found = [
            d.model_copy(update={"level": "error"}) if d.level == "warning" else d for d in found
        ]
    for warning in found:
        if warning.level != "error" and warn is not None:
            warn(warning)
    problems = sorted(
        (d for d in found if d.level == "error"), key=lambda d: (d.span.line, d.span.column)
    )
    if problems:
        raise GenerationError(problems)
