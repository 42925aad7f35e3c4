"""Executable docs: every marked example in README.md and docs/*.md is run and compared.

The marker convention is described in docs/contributing.md. In short, an HTML comment right
before a fenced block says what the block is:

- `<!-- run: handlers NAME -->`: a handlers file; `burgee gen` makes the tool NAME from it.
- `<!-- run: tool NAME PATH -->` (no block): the tool NAME, generated from the repo file PATH.
- `<!-- run: file NAME -->`: the block is written to the file NAME in the page's directory.
- `<!-- run: console -->`: `$ ` lines are shell commands; what follows each is its expected
  output (stdout and stderr together). `...` on a line of its own matches any lines, `...`
  inside a line matches any text. `<!-- run: console output=varies -->` runs every command and
  only requires each to succeed.
- `<!-- run: excerpt PATH -->`: the block appears verbatim in the repo file PATH.
- `<!-- not-run: REASON -->`: the explicit exception.

Each page gets its own temporary directory, so pages run in parallel; the commands of one page
run in order in one working directory, with every tool of the page on PATH, and an environment
built from scratch (no agent variables, a private HOME). Each handlers snippet is generated once
per process. `python -m tests.test_docs --update PAGE...` rewrites the shown output of the
commands whose output no longer matches (review the diff like a golden file's).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from burgee.cli import main
from tests.helpers import REPO

#: Slow: every page's examples generated and run (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

DOC_DIR = REPO / "docs"
#: Fenced blocks in these languages, or holding a `$ ` line, must carry a marker.
RUNNABLE_LANGUAGES = {"console", "python", "py", "pycon", "bash", "sh", "shell"}
MARKER = re.compile(r"^<!--\s*(run|not-run):\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def doc_pages() -> list[Path]:
    """README.md and the pages directly under docs/ (docs/incoming/ holds notes, not pages)."""
    return [REPO / "README.md", *sorted(DOC_DIR.glob("*.md"))]


@dataclass
class Block:
    """One fenced block, or one stand-alone marker, of a page."""

    page: Path
    line: int
    language: str
    text: str
    marker: str | None = None  # "run" or "not-run"
    args: list[str] = field(default_factory=list)
    body: int = 0  # how many lines the block's body has; `line` is its first, 0-based

    @property
    def where(self) -> str:
        page = self.page.relative_to(REPO) if self.page.is_relative_to(REPO) else self.page.name
        return f"{page}:{self.line + 1}"


def parse(page: Path, text: str | None = None) -> list[Block]:
    """The fenced blocks and stand-alone markers of a page, in order."""
    lines = (page.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    pending: tuple[str, list[str], int] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        marker = MARKER.match(line.strip())
        fence = FENCE.match(line)
        if marker:
            if pending is not None:  # a marker with no block after it stands alone
                blocks.append(Block(page, pending[2], "", "", pending[0], pending[1]))
            kind, text = marker.groups()
            pending = (kind, text.split() if kind == "run" else [text] if text else [], i)
        elif fence:
            indent, ticks, language = fence.groups()
            body: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(ticks):
                body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
                i += 1
            block = Block(page, i - len(body), language, "\n".join(body) + "\n", body=len(body))
            if pending is not None:
                block.marker, block.args = pending[0], pending[1]
                pending = None
            blocks.append(block)
        elif line.strip() and pending is not None:
            blocks.append(Block(page, pending[2], "", "", pending[0], pending[1]))
            pending = None
        i += 1
    if pending is not None:
        blocks.append(Block(page, pending[2], "", "", pending[0], pending[1]))
    return blocks


def needs_marker(block: Block) -> bool:
    """Whether a block is runnable-looking: a shell or Python language, or a `$ ` line."""
    if block.language == "" and not block.text:
        return False
    return block.language in RUNNABLE_LANGUAGES or any(
        line.startswith("$ ") for line in block.text.splitlines()
    )


# --- comparing output -------------------------------------------------------------------------


def expected_pattern(expected: str) -> re.Pattern[str]:
    """A regex for expected output: `...` alone on a line matches any lines, inside a line any
    text; trailing spaces never count."""
    parts: list[str] = []
    for raw in expected.splitlines():
        line = raw.rstrip()
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def output_matches(expected: str, actual: str) -> bool:
    """Whether the actual output (trailing spaces and blank lines trimmed) fits the expected."""
    actual = "".join(line.rstrip() + "\n" for line in actual.rstrip("\n").splitlines())
    expected = expected.strip("\n")
    if not expected:
        return actual == ""
    return expected_pattern(expected).fullmatch(actual) is not None


def console_steps(text: str) -> list[tuple[str, str]]:
    """The (command, expected output) pairs of a console block; `\\` continues a command."""
    steps: list[tuple[str, str]] = []
    command: list[str] | None = None
    output: list[str] = []
    continued = False
    for line in text.splitlines():
        if continued and command is not None:
            command.append(line)
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            if command is not None:
                steps.append(("\n".join(command), "\n".join(output)))
            command, output = [line[2:]], []
            continued = line.endswith("\\")
        elif command is not None:
            output.append(line)
    if command is not None:
        steps.append(("\n".join(command), "\n".join(output)))
    return steps


# --- running a page --------------------------------------------------------------------------

#: Generated tools by (name, handlers source): each snippet is generated once per process.
_GENERATED: dict[tuple[str, str], Path] = {}


def generated(name: str, source: str, where: str) -> Path:
    """The tool NAME generated from a handlers source, by burgee's own command line run
    in-process (`burgee.cli.main`, what `burgee gen` runs), so the pipeline is imported once."""
    key = (name, source)
    if key not in _GENERATED:
        scratch = tempfile.mkdtemp(prefix="burgee-docs-")
        atexit.register(shutil.rmtree, scratch, ignore_errors=True)
        folder = Path(scratch) / name
        folder.mkdir()
        (folder / "handlers.py").write_text(source, encoding="utf-8")
        out = folder / f"{name.replace('-', '_')}.py"
        messages = io.StringIO()
        with contextlib.redirect_stderr(messages), contextlib.redirect_stdout(messages):
            code = main(["gen", str(folder / "handlers.py"), "-o", str(out)])
        assert code == 0, f"{where}: burgee gen failed:\n{messages.getvalue()}"
        _GENERATED[key] = out
    return _GENERATED[key]


class Page:
    """The sandbox of one page: a working directory, a bin directory with its tools."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.work = root / "work"
        self.bin = root / "bin"
        self.home = root / "home"
        for path in (self.work, self.bin, self.home):
            path.mkdir(parents=True)
        self.wrapper("python", f'exec {shlex.quote(sys.executable)} "$@"')
        self.wrapper("python3", f'exec {shlex.quote(sys.executable)} "$@"')
        self.wrapper("burgee", f'exec {shlex.quote(sys.executable)} -m burgee "$@"')

    def wrapper(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        path.chmod(0o755)

    def env(self) -> dict[str, str]:
        return {
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "COLUMNS": "100",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "TMPDIR": str(self.root),
        }

    def add_tool(self, name: str, source: str, where: str) -> None:
        """Generate the tool NAME from a handlers source and put it on the page's PATH."""
        # NOTE: the tool itself, run by its shebang through a link of its name: installed under
        # its name, it prints the lines it suggests (`next[]`, hints) with that name, as the
        # pages show them. Pages copy the file (`todo.py`).
        out = self.bin / f"{name.replace('-', '_')}.py"
        shutil.copyfile(generated(name, source, where), out)
        out.chmod(0o755)
        link = self.bin / name
        link.unlink(missing_ok=True)  # NOTE: a page may generate the same tool twice
        link.symlink_to(out.name)

    def shell(self, command: str) -> str:
        proc = subprocess.run(
            ["bash", "-c", command],
            check=False,
            cwd=self.work,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=60,
        )
        self.returncode = proc.returncode
        return proc.stdout


def run_block(page: Page, block: Block, fixed: list[str] | None = None) -> list[str]:
    """Run one marked block in the page's sandbox; return what did not hold. With `fixed`, a
    console block's body as the tool printed it is appended there (for `--update`)."""
    kind, *rest = block.args or [""]
    if kind in {"handlers", "file", "excerpt", "console"} and not block.text:
        return [f"{block.where}: `run: {kind}` needs a fenced block right after it"]
    options = dict(arg.split("=", 1) for arg in rest if "=" in arg)
    words = [arg for arg in rest if "=" not in arg]
    problems: list[str] = []
    if kind == "handlers":
        (name,) = words
        (page.work / "handlers.py").write_text(block.text, encoding="utf-8")
        page.add_tool(name, block.text, block.where)
    elif kind == "tool":
        name, path = words
        page.add_tool(name, (REPO / path).read_text(encoding="utf-8"), block.where)
    elif kind == "file":
        (name,) = words
        target = page.work / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text, encoding="utf-8")
    elif kind == "excerpt":
        (path,) = words
        source = (REPO / path).read_text(encoding="utf-8")
        wanted = textwrap.dedent(block.text).strip("\n")
        flat = "\n".join(line.strip() for line in source.splitlines())
        if "\n".join(line.strip() for line in wanted.splitlines()) not in flat:
            problems.append(f"{block.where}: this excerpt is not in {path}")
    elif kind == "console":
        varies = options.get("output") == "varies"
        for command, expected in console_steps(block.text):
            actual = page.shell(command)
            if fixed is not None:
                fixed.append("$ " + command)
                kept = varies or output_matches(expected, actual)
                fixed.extend((expected if kept else actual.rstrip("\n")).splitlines())
            if varies:
                if page.returncode != 0:
                    problems.append(
                        f"{block.where}: `$ {command}` exited {page.returncode}:\n{actual}"
                    )
            elif not output_matches(expected, actual):
                problems.append(
                    f"{block.where}: `$ {command}` printed\n{actual}\n"
                    f"--- but the page shows ---\n{expected}\n"
                )
    else:
        problems.append(f"{block.where}: unknown marker `run: {' '.join(block.args)}`")
    return problems


def run_page(page_file: Path, root: Path, text: str | None = None) -> list[str]:
    """Run every `run:` block of a page, in order; return every problem found."""
    page = Page(root)
    problems: list[str] = []
    for block in parse(page_file, text):
        if block.marker == "run":
            problems.extend(run_block(page, block))
    return problems


def update_page(page_file: Path, root: Path) -> None:
    """Rewrite the output of every console block whose shown output no longer matches."""
    lines = page_file.read_text(encoding="utf-8").splitlines()
    page = Page(root)
    edits: list[tuple[Block, list[str]]] = []
    for block in parse(page_file):
        if block.marker == "run":
            fixed: list[str] = []
            run_block(page, block, fixed)
            if block.args[:1] == ["console"]:
                edits.append((block, fixed))
    for block, fixed in reversed(edits):
        lines[block.line : block.line + block.body] = fixed
    page_file.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":  # python -m tests.test_docs --update PAGE...: refresh shown output
    for name in sys.argv[2:] if sys.argv[1:2] == ["--update"] else []:
        with tempfile.TemporaryDirectory() as scratch:
            update_page(Path(name).resolve(), Path(scratch))


# --- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("page_file", doc_pages(), ids=lambda p: p.name)
def test_page_examples_run(page_file: Path, tmp_path: Path) -> None:
    """Every marked example of the page runs, and prints what the page shows."""
    problems = run_page(page_file, tmp_path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page_file", doc_pages(), ids=lambda p: p.name)
def test_every_runnable_block_is_marked(page_file: Path) -> None:
    """A shell or Python block (or one with a `$ ` line) says `run:` or `not-run: REASON`."""
    unmarked = [
        block.where for block in parse(page_file) if needs_marker(block) and block.marker is None
    ]
    bare = [
        block.where for block in parse(page_file) if block.marker == "not-run" and not block.args
    ]
    assert not unmarked, f"blocks without a run:/not-run: marker: {unmarked}"
    assert not bare, f"not-run: markers without a reason: {bare}"


def test_every_page_is_linked() -> None:
    """Each page of docs/ is reachable: linked from README.md or docs/index.md."""
    links = (REPO / "README.md").read_text(encoding="utf-8") + (DOC_DIR / "index.md").read_text(
        encoding="utf-8"
    )
    missing = [p.name for p in DOC_DIR.glob("*.md") if p.name != "index.md" and p.name not in links]
    assert not missing, f"pages no one links to: {missing}"


def test_relative_links_resolve() -> None:
    """Every relative link of a page points at a file that exists."""
    broken = []
    for page_file in doc_pages():
        text = page_file.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page_file.parent / target.split("#", 1)[0]).resolve()
            if not path.exists():
                broken.append(f"{page_file.name}: {target}")
    assert not broken, f"broken links: {broken}"


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="mkdocs not installed")
def test_mkdocs_build_is_strict_clean(tmp_path: Path) -> None:
    """The pages build as a site (mkdocs.yml) with no warning: every page in the nav, every
    `page.md#anchor` link landing on a heading. No plugin, no network."""
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_quick_start_runs(tmp_path: Path) -> None:
    """The README's quick start: a virtual environment, then its first command, past its `pip
    install .` (this environment has burgee installed), works from a checkout; the second is
    what CI's .ci/run runs."""
    blocks = [b.text.strip() for b in parse(REPO / "README.md") if b.language == "console"]
    venv, first, second = blocks[0], blocks[1], blocks[2]
    assert venv == "python3 -m venv .venv && . .venv/bin/activate"
    assert first.startswith("pip install . && burgee gen examples/todo/handlers.py")
    (tmp_path / "examples").symlink_to(REPO / "examples")
    page = Page(tmp_path / "sandbox")
    proc = subprocess.run(
        ["bash", "-c", first.removeprefix("pip install . && ")],
        cwd=tmp_path,
        env=page.env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('{"ok": true, "data": {"id": 1, "title": "buy milk"')
    assert second == "pip install -e '.[test]' && python -m pytest -q -n auto"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet --disable-pip-version-check -e '.[test]'" in ci
    assert "\npython -m pytest -q -n auto\n" in ci


def test_readme_is_short() -> None:
    """The README stays an entry point (under ~10 KB); the subjects live in docs/."""
    assert len((REPO / "README.md").read_bytes()) < 10_500


# --- the checker checks -----------------------------------------------------------------------

DRIFTED = """\
<!-- run: handlers hello -->
```python
from burgee import command

@command(effects="read_only")
def greet(name: str = "world") -> str:
    \"\"\"Say hello.\"\"\"
    return f"hello {name}"
```

<!-- run: console -->
```console
$ hello greet --name ada
hello ada
$ hello greet --name ada --json
{"ok": true, "data": "hello bob", "meta": ...}
```
"""


def test_a_drifted_example_fails(tmp_path: Path) -> None:
    """The checker is not vacuous: a page whose shown output differs from the tool's fails,
    at the drifted command only."""
    problems = run_page(tmp_path / "page.md", tmp_path / "sandbox", DRIFTED)
    assert len(problems) == 1
    assert "hello greet --name ada --json" in problems[0]
    assert '{"ok": true, "data": "hello ada", "meta": ' in problems[0]


def test_ellipsis_matching() -> None:
    """`...` alone matches any lines (zero included), inside a line any text; nothing else."""
    assert output_matches("a\n...\nd", "a\nb\nc\nd\n")
    assert output_matches("a\n...\nd", "a\nd\n")
    assert output_matches("took ... ms", "took 12.5 ms\n")
    assert not output_matches("a\nd", "a\nb\nd\n")
    assert not output_matches("took ... ms", "took 12.5 s\n")
    assert not output_matches("", "something\n")
