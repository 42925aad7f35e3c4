"""A handlers file whose syntax needs a Python newer than 3.9 generates, with a warning at the
first place that needs it, and the tool declares the Python it needs everywhere."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tests.helpers import burgee_in_process, run

MATCH = textwrap.dedent(
    '''\
    from burgee import command


    def kind(value: object) -> str:
        match value:
            case int():
                return "int"
            case _:
                return "other"


    @command(effects="read_only")
    def what(text: str) -> str:
        """Say what it is."""
        return kind(text)
    '''
)


def _gen(tmp_path: Path, source: str) -> tuple[Path, str]:
    (tmp_path / "handlers.py").write_text(source, encoding="utf-8")
    result = burgee_in_process(
        "gen", "handlers.py", "-o", "tool.py", "--skill-dir", "skill", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    return tmp_path / "tool.py", result.stderr


def test_newer_syntax_is_a_warning_and_declared(tmp_path: Path) -> None:
    tool, stderr = _gen(tmp_path, MATCH)
    warnings = [line for line in stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 1
    assert warnings[0].startswith("handlers.py:5:")
    assert "needs Python 3.10 or later" in warnings[0]
    assert run(tool, "--version", "--json").json()["data"]["requires_python"] == ">=3.10"
    assert json.loads(run(tool, "schema").out)["burgee_requires_python"] == ">=3.10"
    skill = next((tmp_path / "skill").rglob("SKILL.md")).read_text(encoding="utf-8")
    assert "Requires Python 3.10+" in skill
    assert run(tool, "what", "--text", "x").out == "other\n"


def test_plain_syntax_needs_3_9(tmp_path: Path) -> None:
    plain = MATCH.replace(
        '''    match value:
        case int():
            return "int"
        case _:
            return "other"''',
        '''    return "int" if isinstance(value, int) else "other"''',
    )
    tool, stderr = _gen(tmp_path, plain)
    assert "warning" not in stderr
    assert run(tool, "--version", "--json").json()["data"]["requires_python"] == ">=3.9"
