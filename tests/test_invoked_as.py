"""The command lines a tool prints (`next[]`, hints) start as the tool was run: a person or an
agent pastes one into a shell from any folder, the tool not installed under its name."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from burgee.runtime.core.errors import _uv_cached
from tests.helpers import GOLDEN, generate, run

#: Slow: installs tools with pip and uv (`pytest -m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

CLIKIT = GOLDEN / "clikit" / "clikit.py"

WIPE = '''
from burgee import command, program

program(name="wiper", version="1.0.0")


@command(effects="destructive")
def wipe(name: str) -> str:
    """Wipe NAME."""
    return f"wiped {name}"
'''


def _environ(**extra: str) -> dict[str, str]:
    # NOTE: the tool's folder is never on PATH: only its printed line can find it.
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_DEBUG")}
    return {**environ, "PATH": "/usr/bin:/bin", **extra}


def _shell(line: str, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run a printed line as an agent would: one string, handed to a shell."""
    return subprocess.run(
        ["sh", "-c", line],
        cwd=cwd,
        env=_environ(**extra),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _tool(tmp_path: Path) -> tuple[Path, Path]:
    """A generated tool in a folder of its own, and another folder to run lines from."""
    home = tmp_path / "tool"
    home.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return generate(home, WIPE), elsewhere


def test_the_next_command_runs_from_another_folder(tmp_path: Path) -> None:
    tool, elsewhere = _tool(tmp_path)
    stopped = subprocess.run(
        [sys.executable, tool.name, "wipe", "--name", "a b", "--json"],
        cwd=tool.parent,
        env=_environ(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert stopped.returncode == 4, stopped.stderr
    line = json.loads(stopped.stdout)["next"][0]["command"]
    ran = _shell(line, elsewhere)
    assert ran.returncode == 0, (line, ran.stderr)
    assert json.loads(ran.stdout)["data"] == "wiped a b"


def test_the_usage_hint_runs_from_another_folder(tmp_path: Path) -> None:
    tool, elsewhere = _tool(tmp_path)
    result = run(tool, "wipe", "--name", "x", "extra", "--json")
    assert result.code == 2
    hint = result.json()["error"]["hint"]
    assert hint.startswith("run '") and hint.endswith("' for usage"), hint
    line = hint.removeprefix("run '").removesuffix("' for usage")
    shown = _shell(line, elsewhere)
    assert shown.returncode == 0 and "Wipe NAME." in shown.stdout, (line, shown)


def test_a_tool_on_path_by_its_name_is_named(tmp_path: Path) -> None:
    """Installed under its name (here a copy on PATH, started through its shebang), the tool is
    what a line names: the short form a person types."""
    tool, elsewhere = _tool(tmp_path)
    folder = tmp_path / "bin"
    folder.mkdir()
    installed = folder / "wiper"
    text = tool.read_text(encoding="utf-8").split("\n", 1)[1]
    installed.write_text(f"#!{sys.executable}\n{text}", encoding="utf-8")
    installed.chmod(0o755)
    path = f"{folder}{os.pathsep}/usr/bin:/bin"
    stopped = _shell("wiper wipe --name x --json", elsewhere, PATH=path)
    assert stopped.returncode == 4, stopped.stderr
    line = json.loads(stopped.stdout)["next"][0]["command"]
    assert line == f"cd {shlex.quote(str(elsewhere))} && wiper wipe --name x --yes --json"
    assert _shell(line, elsewhere, PATH=path).returncode == 0


def test_an_entry_point_off_path_is_named_by_its_path(tmp_path: Path) -> None:
    """`[project.scripts]` installs a script that imports the tool and calls `main`; run by
    its path (its folder not on PATH), that path is what a line names."""
    tool, elsewhere = _tool(tmp_path)
    script = tmp_path / "venv-bin" / "wiper"
    script.parent.mkdir()
    script.write_text(
        f"#!{sys.executable}\nimport sys\nfrom tool import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    python_path = {"PYTHONPATH": str(tool.parent)}
    stopped = _shell(f"{script} wipe --name x --json", elsewhere, **python_path)
    assert stopped.returncode == 4, stopped.stderr
    line = json.loads(stopped.stdout)["next"][0]["command"]
    assert line == f"cd {shlex.quote(str(elsewhere))} && {script} wipe --name x --yes --json"
    assert _shell(line, elsewhere, **python_path).returncode == 0


def test_python_m_from_the_tools_folder_becomes_its_path(tmp_path: Path) -> None:
    """`python -m tool` finds the module through the current folder: elsewhere it would not;
    the line runs the file instead."""
    tool, elsewhere = _tool(tmp_path)
    stopped = subprocess.run(
        [sys.executable, "-m", "tool", "wipe", "--name", "x", "--json"],
        cwd=tool.parent,
        env=_environ(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert stopped.returncode == 4, stopped.stderr
    line = json.loads(stopped.stdout)["next"][0]["command"]
    assert str(tool) in line and " -m " not in line, line
    assert _shell(line, elsewhere).returncode == 0


def test_the_batch_line_names_its_file_by_its_absolute_path(tmp_path: Path) -> None:
    tool, elsewhere = _tool(tmp_path)
    (tool.parent / "calls.jsonl").write_text('{"command": "wipe", "input": {"name": "x"}}\n')
    stopped = run(tool, "--batch", "calls.jsonl")
    assert stopped.code == 125, stopped
    line = json.loads(stopped.out)["next"][0]["command"]
    ran = _shell(line, elsewhere)
    assert ran.returncode == 0, (line, ran.stderr)
    assert json.loads(ran.stdout)["data"] == "wiped x"


def test_an_embedding_program_sees_the_tools_name(tmp_path: Path) -> None:
    """Imported by another program (a test's `invoke()`), the tool has no command line of its
    own: lines start with its name."""
    tool, _ = _tool(tmp_path)
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import tool;"
        " print(json.dumps(tool.invoke(['wipe', '--name', 'x', '--json']).envelope))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tool.parent)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(proc.stdout)["next"][0]["command"] == "wiper wipe --name x --yes --json"


# ---- --mcp --print-config under `uv run` -------------------------------------------------


#: uv on PATH, or beside this interpreter (`pip install uv` in the virtualenv).
UV = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))


@pytest.mark.skipif(UV is None, reason="uv is not installed: `uv run` cannot be tried")
def test_print_config_under_uv_run_registers_uv_not_its_cache(tmp_path: Path) -> None:
    """A script with dependencies runs, under `uv run`, in an environment of uv's cache that
    `uv cache clean` removes: the configuration runs the tool through uv instead."""
    assert UV is not None
    tool, elsewhere = _tool(tmp_path)
    # NOTE: a PEP 723 block (no dependencies needed) makes uv build a cached environment.
    text = tool.read_text(encoding="utf-8")
    tool.write_text(
        text.replace("\n", "\n# /// script\n# dependencies = []\n# ///\n", 1), encoding="utf-8"
    )
    cache = tmp_path / "uv-cache"
    uv_env = {"UV_CACHE_DIR": str(cache), "UV_NO_PROGRESS": "1", "UV_OFFLINE": "1"}
    uv_run = [UV, "run", "--no-project", "--python", sys.executable]
    printed = subprocess.run(
        [*uv_run, str(tool), "--mcp", "--print-config"],
        cwd=elsewhere,
        env=_environ(**uv_env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert printed.returncode == 0, printed.stderr
    server = json.loads(printed.stdout)["mcpServers"]["wiper"]
    assert server["args"] == ["run", "--script", str(tool), "--mcp"]
    assert Path(server["command"]).name == "uv", server
    subprocess.run([UV, "cache", "clean"], env=_environ(**uv_env), capture_output=True, check=True)
    answered = subprocess.run(
        [server["command"], *server["args"], "--print-config"],
        cwd="/",
        env=_environ(**uv_env, UV_PYTHON=sys.executable),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert answered.returncode == 0, answered.stderr


@pytest.mark.skipif(UV is None, reason="uv is not installed: `uv run` cannot be tried")
def test_a_next_line_under_uv_run_runs_through_uv_not_its_cache(tmp_path: Path) -> None:
    """Under `uv run`, a line the tool prints names uv, as `--print-config` does: the cached
    environment's interpreter is gone after `uv cache clean`, the line still runs."""
    assert UV is not None
    tool, elsewhere = _tool(tmp_path)
    text = tool.read_text(encoding="utf-8")
    tool.write_text(
        text.replace("\n", "\n# /// script\n# dependencies = []\n# ///\n", 1), encoding="utf-8"
    )
    cache = tmp_path / "uv-cache"
    uv_env = {"UV_CACHE_DIR": str(cache), "UV_NO_PROGRESS": "1", "UV_OFFLINE": "1"}
    uv_run = [UV, "run", "--no-project", "--python", sys.executable]
    stopped = subprocess.run(
        [*uv_run, str(tool), "wipe", "--name", "x", "--json"],
        cwd=elsewhere,
        env=_environ(**uv_env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert stopped.returncode == 4, stopped.stderr
    line = json.loads(stopped.stdout)["next"][0]["command"]
    assert f" run --script {tool} wipe --name x --yes --json" in line, line
    subprocess.run([UV, "cache", "clean"], env=_environ(**uv_env), capture_output=True, check=True)
    ran = _shell(line, tmp_path, **uv_env, UV_PYTHON=sys.executable)
    assert ran.returncode == 0, (line, ran.stderr)


@pytest.mark.parametrize(
    ("path", "cached"),
    [
        ("/home/a/.cache/uv/environments-v2/tool-1a2b/bin/python", True),
        ("/home/a/.cache/uv/archive-v0/Xy12/bin/python3", True),
        ("/home/a/project/.venv/bin/python", False),
        ("/usr/bin/python3", False),
        ("/home/a/environments-v2/bin/python", False),
    ],
)
def test_uv_cached_interpreters_are_told_apart(path: str, cached: bool) -> None:
    assert _uv_cached(path) is cached


MOVES = '''
import os

from burgee import Context, command, program

program(name="mover", version="1.0.0")


@command(effects="idempotent")
def go(to: str, yes: bool = False, ctx: Context = None) -> str:
    """Change folder, then ask."""
    os.chdir(to)
    if not yes:
        ctx.action_required(reason="confirm", message="sure?", next=[f"go --to {to} --yes"])
    return "went"
'''


def test_a_handler_that_changes_folder_still_gets_a_line_that_runs(tmp_path: Path) -> None:
    """The tool was started as `python tool.py` from its folder; its handler moved elsewhere
    before the line was made: the path is still the tool's."""
    home = tmp_path / "tool"
    home.mkdir()
    tool = generate(home, MOVES)
    stopped = _shell(f"{shlex.quote(sys.executable)} {tool.name} go --to {tmp_path} --json", home)
    assert stopped.returncode == 4, stopped
    line = json.loads(stopped.stdout)["next"][0]["command"]
    ran = _shell(line, tmp_path)
    assert ran.returncode == 0, (line, ran.stderr)
