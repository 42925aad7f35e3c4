"""`burgee new`: create a project from the copier template, then generate its tool.

`new()` and `refresh()`, the work of `burgee new` and `burgee refresh` (problems raised as
`ScaffoldError`): the copier template `templates/project/`, then `burgee gen` run in the new
project (its `[tool.burgee]` targets: the tool, `skill/`, `completions/`); `install_source()`
says how to install the running burgee (checkout, file or URL it came from) in the "Next:"
steps.
"""

from __future__ import annotations

import argparse
import difflib
import json
import keyword
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

import burgee

PROG = "burgee new"
ANSWERS = ".burgee-answers.yml"
LICENSES = ("MIT", "Apache-2.0", "BSD-3-Clause", "Proprietary")
_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
# NOTE: the project root is on sys.path when its tests run, so a module named like one of
# these would shadow it (or be shadowed) there.
_TAKEN = frozenset(
    {"burgee", "handlers", "tests", "test", "conftest", "pytest", "setup", "pip", "setuptools"}
)


class ScaffoldError(Exception):
    """A problem the user can fix: reported as a usage error, exit code 2."""


def check_name(name: str) -> str:
    """Return the module name for the command name `name`, or raise ScaffoldError."""
    if not _NAME.fullmatch(name):
        raise ScaffoldError(
            f"{name!r} is not a usable command name: use lowercase letters and digits, "
            "with single '-' or '_' between them, starting with a letter (like 'my-tool')"
        )
    module = name.replace("-", "_")
    if keyword.iskeyword(module):
        raise ScaffoldError(f"{name!r} is a Python keyword, so it cannot name the module")
    if module in sys.stdlib_module_names:
        raise ScaffoldError(f"{module!r} is a standard-library module; choose another name")
    if module in _TAKEN:
        raise ScaffoldError(f"{module!r} would clash with the project's own modules")
    return module


def _destination(dst: Path) -> Path:
    """Return `dst` made absolute, refusing a file or a non-empty directory."""
    dst = dst.absolute()
    if dst.exists() and not dst.is_dir():
        raise ScaffoldError(f"{dst} exists and is not a directory")
    if dst.is_dir() and any(dst.iterdir()):
        raise ScaffoldError(f"{dst} exists and is not empty; choose another --dir")
    if not dst.parent.is_dir():
        raise ScaffoldError(f"{dst.parent} does not exist; create it first")
    return dst


def new(args: argparse.Namespace) -> tuple[str, str, Path, bool]:
    """`burgee new`: render, generate and commit in a staging directory, then move the result
    into place; raises ScaffoldError (or OSError) with what the user can fix. Returns the
    project's name, its module, where it is and whether it has its first commit."""
    name: str | None = args.name
    if name is not None:
        check_name(name)
    target: Path | None = args.dir or (Path(name) if name else None)
    dst = _destination(target) if target else None
    interactive = not args.defaults and sys.stdin.isatty() and sys.stdout.isatty()
    if name is None and not interactive:
        raise ScaffoldError("the project name is required: burgee new NAME")
    data: dict[str, Any] = {"burgee_version": burgee.__version__}
    for key in ("name", "description", "author", "license"):
        if getattr(args, key) is not None:
            data["project_name" if key == "name" else key] = getattr(args, key)
    # NOTE: the staging directory sits next to the destination so the final move is a
    # rename on the same file system, and a failure leaves only it to remove.
    where = dst.parent if dst else Path.cwd()
    try:
        staging = Path(tempfile.mkdtemp(prefix=".burgee-new-", dir=where))
    except OSError as error:
        raise ScaffoldError(f"cannot write in {where}: {error.strerror}") from error
    try:
        project = staging / "project"
        answers = _render(project, data, interactive=interactive)
        name = str(answers["project_name"])
        module = check_name(name)
        dst = dst or _destination(Path(name))
        _generate(project, module)
        committed = _git_init(project, name, str(answers.get("author") or ""))
        _move(project, dst)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return name, module, dst, committed


def _render(project: Path, data: dict[str, Any], *, interactive: bool) -> dict[str, Any]:
    """Render the template into `project`; return the answers."""
    # NOTE: copier takes 0.4 s to import, so only `new` and `refresh` pay for it.
    from copier import run_copy  # noqa: PLC0415
    from copier.errors import CopierError  # noqa: PLC0415

    author = _git_config("user.name")
    try:
        with as_file(files("burgee.templates") / "project") as template:
            worker = run_copy(
                str(template),
                project,
                data=data,
                user_defaults={"author": author} if author else None,
                defaults=not interactive,
                quiet=True,
                overwrite=False,
            )
    except ValueError as error:
        # NOTE: copier raises a plain ValueError for a missing required answer under
        # `defaults=True` and for an answer its validator rejects.
        raise ScaffoldError(_copier_message(str(error))) from error
    except KeyboardInterrupt:
        raise  # NOTE: copier's CopierAnswersInterrupt is also a CopierError.
    except CopierError as error:
        raise ScaffoldError(str(error) or type(error).__name__) from error
    return dict(worker.answers.user)


def refresh(project: Path, *, diff: bool) -> tuple[list[str], list[str], str | None]:
    """`burgee refresh`: add the template files `project` lacks; find (and with `diff`, diff)
    the ones that differ; never overwrite anything. Answers the files added, the files that
    differ, and the patch (None unless `diff`)."""
    data: dict[str, Any] = {}
    if not (project / ANSWERS).is_file():
        raise ScaffoldError(f"{project} has no {ANSWERS}; was it made by burgee new?")
    try:
        lines = (project / ANSWERS).read_text(encoding="utf-8").splitlines()
        for line in lines:
            if line.strip() and not line.startswith("#"):
                key, _, value = line.partition(":")
                data[key.strip()] = json.loads(value)
    except (OSError, ValueError) as error:
        raise ScaffoldError(f"cannot read {project / ANSWERS}: {error}") from error
    data = {key: value for key, value in data.items() if not key.startswith("_")}
    data["burgee_version"] = burgee.__version__
    added: list[str] = []
    differs: list[str] = []
    patch = "" if diff else None
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "project"
        _render(fresh, data, interactive=False)
        for new in sorted(path for path in fresh.rglob("*") if path.is_file()):
            relative = new.relative_to(fresh).as_posix()
            mine = project / relative
            if relative == "handlers.py":
                continue  # the user's code, only ever a starting point
            if mine.is_file() and mine.read_bytes() == new.read_bytes():
                continue
            if not mine.exists():
                mine.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(new, mine)
                added.append(relative)
                continue
            differs.append(relative)
            if patch is not None:
                patch += "".join(
                    difflib.unified_diff(
                        mine.read_text("utf-8", "replace").splitlines(keepends=True),
                        new.read_text(encoding="utf-8").splitlines(keepends=True),
                        f"a/{relative}",
                        f"b/{relative}",
                    )
                )
    return added, differs, patch


def _copier_message(message: str) -> str:
    """Phrase copier's answer errors in terms of `burgee new`'s options."""
    required = re.fullmatch(r'Question "(\w+)" is required', message)
    if required:
        return f"no answer for {required[1]!r}: give it as an option, or run in a terminal"
    invalid = re.fullmatch(r"Validation error for question '(\w+)': (.*)", message, re.S)
    if invalid:
        return f"invalid {invalid[1]}: {' '.join(invalid[2].split())}"
    return message


def _generate(project: Path, module: str) -> None:
    """Generate the new project's tool, skill and completion scripts: `burgee gen` in the
    project, which reads its targets from `[tool.burgee]`, as the user will run it."""
    proc = subprocess.run(
        [sys.executable, "-m", "burgee", "gen"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    if proc.returncode != 0:
        # NOTE: the diagnostics name the staging directory, which is removed afterwards.
        sys.stderr.write(proc.stderr)
        raise ScaffoldError(f"generating {module}.py failed")


def _git_config(key: str) -> str | None:
    """Return a git setting, or None when git or the setting is missing."""
    if shutil.which("git") is None:
        return None
    proc = subprocess.run(
        ["git", "config", "--get", key], capture_output=True, text=True, check=False
    )
    return proc.stdout.strip() or None


def _git_init(project: Path, name: str, author: str) -> bool:
    """Make `project` a git repository with one commit; warn and go on if git fails."""
    if shutil.which("git") is None:
        return False
    # NOTE: a bare machine has no identity configured; fall back to one so the commit works.
    identity = []
    if _git_config("user.name") is None:
        identity += ["-c", f"user.name={author or 'burgee'}"]
    if _git_config("user.email") is None:
        identity += ["-c", "user.email=burgee@localhost"]
    steps = (
        ["init", "--quiet"],
        ["add", "--all"],
        ["commit", "--quiet", "--no-verify", "-m", f"Create {name} with burgee new"],
    )
    for step in steps:
        proc = subprocess.run(
            ["git", *identity, *step], cwd=project, capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            detail = proc.stderr.strip().splitlines()
            print(
                f"{PROG}: warning: git {step[0]} failed"
                + (f": {detail[-1]}" if detail else "")
                + "; the project is there, make the first commit yourself",
                file=sys.stderr,
            )
            return False
    return True


def _move(project: Path, dst: Path) -> None:
    """Move the rendered project to `dst`, which is missing or an empty directory."""
    try:
        if dst.is_dir():
            if any(dst.iterdir()):
                raise ScaffoldError(f"{dst} is no longer empty; nothing was written")
            for child in project.iterdir():
                child.rename(dst / child.name)
        else:
            project.rename(dst)
    except OSError as error:
        raise ScaffoldError(f"cannot create {dst}: {error.strerror or error}") from error


def next_steps(where: str, name: str, module: str) -> list[tuple[str, str]]:
    """What to run after `burgee new`, in order: (command line, what it is for)."""
    steps = [("cd " + shlex.quote(where), "")] if where != "." else []
    return [
        *steps,
        ("python3 -m venv .venv && . .venv/bin/activate", ""),
        ('pip install -e ".[test]"', f"the tool and pytest; then: {name} --help"),
        (f"pip install {install_source()}", "burgee, to regenerate"),
        ("burgee gen", f"after editing handlers.py: refreshes {module}.py, skill/, completions/"),
        ("pytest", ""),
    ]


def report(name: str, module: str, dst: Path, committed: bool) -> None:
    """Tell a person what `new` made and what to do next."""
    where = relative(dst)
    repo = " (a git repository with one commit)" if committed else ""
    print(f"Created {name} in {where}/{repo}.")
    print("Next:")
    steps = next_steps(where, name, module)
    width = max(len(line) for line, why in steps if why)
    for line, why in steps:
        print(f"  {line:<{width}}   # {why}" if why else f"  {line}")


def install_source() -> str:
    """What to give `pip install` for the burgee that is running: its checkout (editable) or
    the file or URL it was installed from (PEP 610), else its name and version."""
    from importlib.metadata import PackageNotFoundError, distribution  # noqa: PLC0415

    checkout = Path(burgee.__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "generator").is_dir():
        return f"-e {shlex.quote(str(checkout))}"
    try:
        direct = distribution("burgee").read_text("direct_url.json")
    except PackageNotFoundError:
        direct = None
    url = json.loads(direct).get("url", "") if direct else ""
    if url.startswith("file://"):
        return shlex.quote(url.removeprefix("file://"))
    return shlex.quote(url) if url else f"burgee=={burgee.__version__}"


def relative(path: Path) -> str:
    """Show `path` relative to the working directory when it is inside it."""
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)
