"""Black-box tests of `burgee new`: run it as users do and check what it leaves behind."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from burgee import scaffold
from burgee.render.sections import expand

#: Slow: builds projects and virtual environments and runs their own tests (`pytest -m "not slow"`
#: leaves it out).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent


def burgee(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m burgee ...` with no terminal on stdin."""
    return subprocess.run(
        [sys.executable, "-m", "burgee", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )


def in_terminal(
    args: Sequence[str], cwd: Path, replies: Sequence[tuple[str, bytes]]
) -> tuple[int, str]:
    """Run `args` on a pseudo-terminal, sending each reply once its prompt text appears."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(
        args,
        cwd=cwd,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, "TERM": "xterm"},
        start_new_session=True,
    )
    os.close(slave)
    output, seen, pending = b"", 0, list(replies)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            if not select.select([master], [], [], 0.1)[0]:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
            if pending and (found := output.find(pending[0][0].encode(), seen)) >= 0:
                seen = found + len(pending[0][0])
                os.write(master, pending.pop(0)[1])
        else:
            proc.kill()
            pytest.fail(f"timed out; output so far:\n{output.decode(errors='replace')}")
    finally:
        os.close(master)
    return proc.wait(timeout=30), output.decode(errors="replace")


@pytest.mark.parametrize(
    ("name", "complaint"),
    [
        ("My-Tool", "not a usable command name"),
        ("1tool", "not a usable command name"),
        ("my--tool", "not a usable command name"),
        ("my tool", "not a usable command name"),
        ("tool-", "not a usable command name"),
        ("class", "keyword"),
        ("json", "standard-library module"),
        ("handlers", "clash"),
    ],
)
def test_rejects_unusable_names(tmp_path: Path, name: str, complaint: str) -> None:
    proc = burgee("new", name, "--defaults", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("burgee: error: ")
    assert complaint in proc.stderr
    assert "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "tool").mkdir()
    (tmp_path / "tool" / "keep.txt").write_text("mine\n")
    proc = burgee("new", "tool", "--defaults", cwd=tmp_path)
    assert proc.returncode == 2
    assert "exists and is not empty" in proc.stderr
    assert [p.name for p in (tmp_path / "tool").iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tool"]


def test_refuses_a_file_and_a_missing_parent(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    proc = burgee("new", "tool", "--dir", "taken", "--defaults", cwd=tmp_path)
    assert proc.returncode == 2
    assert "is not a directory" in proc.stderr
    proc = burgee("new", "tool", "--dir", "no/such/place", "--defaults", cwd=tmp_path)
    assert proc.returncode == 2
    assert "does not exist" in proc.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_rejects_a_bad_answer_without_leaving_anything(tmp_path: Path) -> None:
    proc = burgee("new", "tool", "--description", "two\nlines", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("burgee: error: invalid description")
    proc = burgee("new", "tool", "--license", "WTFPL", cwd=tmp_path)
    assert proc.returncode == 2
    assert "--license: expected one of MIT, Apache-2.0" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_never_prompts_without_a_terminal(tmp_path: Path) -> None:
    proc = burgee("new", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "burgee: error: the project name is required: burgee new NAME\n"
    assert list(tmp_path.iterdir()) == []
    # Without --defaults and without a terminal, the defaults apply instead of a prompt.
    proc = burgee("new", "quiet-tool", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    answers = (tmp_path / "quiet-tool" / ".burgee-answers.yml").read_text()
    assert 'license: "MIT"' in answers
    assert 'description: "A command-line tool made with burgee."' in answers


def test_creates_the_project(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    proc = burgee(
        "new",
        "demo-tool",
        "--description",
        'Demo "tool" for tests.',
        "--author",
        "Ada Lovelace",
        "--license",
        "Apache-2.0",
        "--dir",
        "work/demo",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Created demo-tool in work/demo/" in proc.stdout
    project = tmp_path / "work" / "demo"
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["demo"]
    files = {str(p.relative_to(project)) for p in project.rglob("*") if ".git" not in p.parts}
    assert files >= {
        ".burgee-answers.yml",
        ".gitignore",
        "AGENTS.md",
        "LICENSE",
        "README.md",
        "demo_tool.py",
        "handlers.py",
        "pyproject.toml",
        "tests",
        "tests/test_demo_tool.py",
    }
    pyproject = (project / "pyproject.toml").read_text()
    assert "dependencies = []" in pyproject
    assert 'demo-tool = "demo_tool:main"' in pyproject
    assert 'py-modules = ["demo_tool"]' in pyproject
    assert 'license = "Apache-2.0"' in pyproject
    assert 'description = "Demo \\"tool\\" for tests."' in pyproject
    assert "Apache License" in (project / "LICENSE").read_text()
    readme = (project / "README.md").read_text()
    assert "$ burgee gen " in readme
    # NOTE: editing an example command fails its tests: the README says so before they do.
    assert "`tests/` pins what the example commands answer" in readme
    assert "\n[tool.burgee]\n" in pyproject
    assert '\nhandlers = "handlers.py"\noutput = "demo_tool.py"\n' in pyproject
    assert {"skill/AGENTS.md", "skill/demo-tool/SKILL.md", "completions/demo-tool.fish"} <= files
    assert "Generated by burgee" not in (project / "AGENTS.md").read_text()
    handlers = (project / "handlers.py").read_text()
    assert 'program(name="demo-tool"' in handlers
    compile(handlers, "handlers.py", "exec")
    if shutil.which("git"):
        log = subprocess.run(
            ["git", "log", "--format=%s"], cwd=project, capture_output=True, text=True, check=True
        )
        assert log.stdout == "Create demo-tool with burgee new\n"
        status = subprocess.run(
            ["git", "status", "--porcelain"],
            cwd=project,
            capture_output=True,
            text=True,
            check=True,
        )
        assert status.stdout == ""


def test_commits_without_a_git_identity(tmp_path: Path) -> None:
    if not shutil.which("git"):
        pytest.skip("git is not installed")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("GIT_CONFIG_GLOBAL", None)
    env = {k: v for k, v in env.items() if not k.startswith(("GIT_AUTHOR", "GIT_COMMITTER"))}
    proc = burgee("new", "anon", "--defaults", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    log = subprocess.run(
        ["git", "log", "--format=%an <%ae>"],
        cwd=tmp_path / "anon",
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert log.stdout == "burgee <burgee@localhost>\n"


def test_json_callers_get_what_was_made_and_what_to_run_next(tmp_path: Path) -> None:
    """An agent (`--json`, or burgee's own MCP tool) gets the project and the next steps as
    data, not `data: null` and text it has to scrape."""
    proc = burgee("new", "made", "--defaults", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)["data"]
    assert {k: data[k] for k in ("name", "module", "path")} == {
        "name": "made",
        "module": "made",
        "path": str((tmp_path / "made").resolve()),
    }
    assert data["next"][0] == "cd made" and data["next"][-1] == "pytest"
    assert "burgee gen" in data["next"]
    assert "Created" not in proc.stdout


def test_asks_in_a_terminal(tmp_path: Path) -> None:
    code, output = in_terminal(
        [sys.executable, "-m", "burgee", "new", "--author", "Bo"],
        tmp_path,
        [("command's name", b"term-tool\r"), ("what the tool does", b"\r"), ("license", b"\r")],
    )
    assert code == 0, output
    answers = (tmp_path / "term-tool" / ".burgee-answers.yml").read_text()
    assert 'author: "Bo"' in answers
    assert 'license: "MIT"' in answers


def test_interrupted_in_a_terminal_leaves_nothing(tmp_path: Path) -> None:
    code, output = in_terminal(
        [sys.executable, "-m", "burgee", "new", "stopped"],
        tmp_path,
        [("what the tool does", b"\x03")],
    )
    assert code == 130, output
    assert "aborted; nothing was written" in output
    assert list(tmp_path.iterdir()) == []


def test_refresh_adds_missing_files_and_never_overwrites(tmp_path: Path) -> None:
    assert burgee("new", "fresh", "--defaults", cwd=tmp_path).returncode == 0
    project = tmp_path / "fresh"
    proc = burgee("refresh", cwd=project)
    assert (proc.returncode, proc.stdout) == (0, "The template files are up to date.\n")
    (project / ".gitignore").unlink()
    readme = (project / "README.md").read_text() + "My own notes.\n"
    (project / "README.md").write_text(readme)
    (project / "handlers.py").write_text("# rewritten by hand\n")
    proc = burgee("refresh", "--dir", str(project), cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "added    .gitignore\ndiffers  README.md\n")
    assert (project / ".gitignore").is_file()
    assert (project / "README.md").read_text() == readme
    proc = burgee("refresh", "--diff", cwd=project)
    assert proc.returncode == 0
    assert proc.stderr == "differs  README.md\n"
    assert proc.stdout.startswith("--- a/README.md\n+++ b/README.md\n")
    assert proc.stdout.endswith("-My own notes.\n")
    patch = proc.stdout
    (project / ".gitignore").unlink()
    proc = burgee("refresh", "--diff", "--json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)["data"]
    assert data == {"added": [".gitignore"], "differs": ["README.md"], "patch": patch}
    proc = burgee("refresh", "--json", cwd=project)
    assert json.loads(proc.stdout)["data"] == {"added": [], "differs": ["README.md"], "patch": None}
    proc = burgee("refresh", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("burgee: error: ")


@pytest.mark.slow
def test_new_project_installs_and_passes_its_own_tests(tmp_path: Path) -> None:
    """burgee new from an installed wheel, then install the project and run its tests."""
    source = tmp_path / "burgee-src"
    # NOTE: installing from a copy keeps pip's build/ and *.egg-info out of the checkout.
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".git", "build", "dist", "*.egg-info", "__pycache__", ".venv", "*_cache"
        ),
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"

    def run(*args: str | Path, cwd: Path = tmp_path) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [str(a) for a in args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
        return proc

    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", source, "pytest")
    # The installed wheel carries its templates: generating outside the repo gives the very
    # module committed in examples/ (kept with its code unpacked: `tests/regen.py`), and the
    # tool runs on the venv's bare interpreter.
    outside = tmp_path / "outside" / "todo"
    outside.mkdir(parents=True)
    shutil.copy(REPO / "examples" / "todo" / "handlers.py", outside / "handlers.py")
    run(bin_dir / "burgee", "gen", "handlers.py", "-o", "todo.py", cwd=outside)
    committed = (REPO / "examples" / "todo" / "todo.py").read_text(encoding="utf-8")
    assert expand((outside / "todo.py").read_text(encoding="utf-8")) == committed
    added = run(python, "-I", "todo.py", "add", "from the wheel", "--json", cwd=outside)
    assert json.loads(added.stdout)["data"]["title"] == "from the wheel"
    run(bin_dir / "burgee", "new", "e2e-tool", "--defaults", "--author", "Tess Ter")
    project = tmp_path / "e2e-tool"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", project)
    requires = run(python, "-c", "import importlib.metadata as m; print(m.requires('e2e-tool'))")
    # NOTE: no runtime dependency; pytest only for the `test` extra.
    assert requires.stdout.strip() == "['pytest>=8; extra == \"test\"']"
    tests = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    assert " passed" in tests.stdout and "failed" not in tests.stdout
    assert "--help" not in run(bin_dir / "e2e-tool", "--help").stderr
    shown = run(bin_dir / "e2e-tool", "hello", "Ada", "--json")
    assert json.loads(shown.stdout)["data"] == {"text": "Hello, Ada!", "times": 1}


def test_a_new_project_stays_green_through_edit_refresh_test(tmp_path: Path) -> None:
    """Edit handlers.py, run the one refresh command (`burgee gen`), and the project's own
    tests pass: the tool, its skill, AGENTS.md and completions are all regenerated, and the
    version comes from pyproject.toml alone."""
    proc = burgee("new", "green-tool", "--defaults", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "python3 -m venv .venv" in proc.stdout
    assert f"pip install {scaffold.install_source()}" in proc.stdout
    project = tmp_path / "green-tool"
    handlers = project / "handlers.py"
    assert "version=" not in handlers.read_text(encoding="utf-8")

    def tests() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    assert tests().returncode == 0
    with handlers.open("a", encoding="utf-8") as file:
        file.write(
            '\n\n@command(effects="read_only", examples=["green-tool shout hi"])\n'
            "def shout(text: Annotated[str, Argument()]) -> str:\n"
            '    """Shout a text."""\n'
            "    return text.upper()\n"
        )
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace('version = "0.1.0"', 'version = "0.2.0"'),
        encoding="utf-8",
    )
    stale = tests()
    assert stale.returncode == 1 and "Refresh them with: burgee gen" in stale.stdout
    refreshed = burgee("gen", cwd=project)
    assert refreshed.returncode == 0, refreshed.stderr
    written = sorted(line.removeprefix("burgee: wrote ") for line in refreshed.stderr.splitlines())
    assert written == [
        "completions/_green-tool",
        "completions/green-tool",
        "completions/green-tool.fish",
        "completions/green-tool.ps1",
        "green_tool.py",
        "skill/AGENTS.md",
        "skill/green-tool/SKILL.md",
    ]
    assert "green-tool shout TEXT" in (project / "skill" / "AGENTS.md").read_text(encoding="utf-8")
    green = tests()
    assert green.returncode == 0, green.stdout + green.stderr
    version = subprocess.run(
        [sys.executable, "green_tool.py", "--version"],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    assert version.stdout == "green-tool 0.2.0\n"


def test_new_with_its_reader_gone_ends_quietly_with_141(tmp_path: Path) -> None:
    """`burgee new ... | head`: the project is made; the closed pipe is the usual quiet 141."""
    read, write = os.pipe()
    os.close(read)  # NOTE: no reader from the start: the first write fails, every time
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "burgee", "new", "piped", "--defaults"],
            cwd=tmp_path,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write)
    assert proc.returncode == 141, proc.stderr
    assert "error" not in proc.stderr
    assert (tmp_path / "piped" / "piped.py").is_file()
