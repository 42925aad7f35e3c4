"""The portable subset: what must hold on every system a generated tool runs on.

`pytest -m portable` runs it here; `.github/workflows/portable.yml` runs it on Windows and macOS
with the oldest and newest Pythons a tool supports. burgee itself needs Python 3.10+, so the
generated tools are run with `BURGEE_TOOL_PYTHON` when it is set (the workflow's Python 3.9),
else with this interpreter. Nothing here needs a POSIX shell, signals or a terminal.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from burgee.render.sections import expand
from tests.helpers import GOLDEN, burgee_in_process
from tests.regen import golden_gen_args, golden_output

pytestmark = pytest.mark.portable

#: The interpreter the generated tools run with.
TOOL_PYTHON = os.environ.get("BURGEE_TOOL_PYTHON") or sys.executable
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "handlers.py").exists())


def _tool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOL_PYTHON, *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONUTF8": "1", "BURGEE_CACHE_DIR": str(cwd / "cache")},
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each golden program generated afresh on this system, in a folder of its own (by the
    generator's `invoke()`, in this process: the tools it writes run as processes below)."""
    found: dict[str, Path] = {}
    for case in CASES:
        # NOTE: a program without program(name=) is named after its folder.
        folder = tmp_path_factory.mktemp("built") / case
        shutil.copytree(GOLDEN / case, folder, dirs_exist_ok=True)
        out = folder / golden_output(GOLDEN / case).name
        result = burgee_in_process(*golden_gen_args(out), cwd=folder)
        assert result.returncode == 0, result.stderr
        found[case] = out
    return found


@pytest.mark.parametrize("case", CASES)
def test_gen_writes_the_committed_golden(built: dict[str, Path], case: str) -> None:
    committed = golden_output(GOLDEN / case).read_text(encoding="utf-8")
    # NOTE: the goldens keep the code unpacked (`tests/regen.py`); the packed bytes are zlib's.
    assert expand(built[case].read_text(encoding="utf-8")) == committed


@pytest.mark.parametrize("case", CASES)
def test_every_command_describes_itself_and_answers_json(built: dict[str, Path], case: str) -> None:
    tool = built[case]
    schema = _tool(str(tool), "schema", cwd=tool.parent)
    assert schema.returncode == 0, schema.stderr
    document = json.loads(schema.stdout)
    # NOTE: the program's own commands: `schema` and `output` are the tool's.
    for command in [c for c in document["commands"] if "burgee_trust" in c]:
        words = command["name"].split()
        shown = _tool(str(tool), *words, "--help", cwd=tool.parent)
        assert shown.returncode == 0, shown.stderr
        # NOTE: an unknown key is refused by every command the same way, on every system.
        refused = _tool(str(tool), *words, "--json", '{"no_such_key": 1}', cwd=tool.parent)
        envelope = json.loads(refused.stdout)
        assert (refused.returncode, envelope["ok"]) == (2, False), refused.stderr
        assert envelope["error"]["kind"] == "usage"


def test_non_ascii_text_comes_back_as_written(built: dict[str, Path]) -> None:
    tool = built["minimal"]
    answer = _tool(str(tool), "hello", "--name", "Zoë 東京", "--json", cwd=tool.parent)
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout)["data"] == "Hello, Zoë 東京!"
    text = _tool(str(tool), "hello", "--name", "Zoë 東京", cwd=tool.parent)
    assert text.stdout.strip() == "Hello, Zoë 東京!"


def test_mcp_over_stdio_with_the_official_sdk(built: dict[str, Path]) -> None:
    tool = built["pantry"]
    params = StdioServerParameters(
        command=TOOL_PYTHON,
        args=[str(tool), "--mcp"],
        cwd=str(tool.parent),
        env={**os.environ, "BURGEE_CACHE_DIR": str(tool.parent / "cache")},
    )

    async def go() -> tuple[list[str], Any]:
        async with Client(params, mode="legacy") as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            prompts = await client.list_prompts()
            return listed, prompts

    tools, prompts = asyncio.run(go())
    assert "output" in tools and len(tools) > 1
    assert prompts.prompts


def test_the_powershell_completion_script_parses(built: dict[str, Path]) -> None:
    shell = shutil.which("pwsh") or shutil.which("powershell")
    if shell is None:
        pytest.skip("no PowerShell on this system (the workflow's Windows job has it)")
    tool = built["kitchen"]
    script = _tool(str(tool), "completion", "pwsh", cwd=tool.parent)
    assert script.returncode == 0, script.stderr
    path = tool.parent / "kitchen.ps1"
    path.write_text(script.stdout, encoding="utf-8")
    check = subprocess.run(
        [
            shell,
            "-NoProfile",
            "-Command",
            f"$null = [ScriptBlock]::Create((Get-Content -Raw '{path}')); 'parsed'",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (check.returncode, check.stdout.strip(), check.stderr) == (0, "parsed", "")
