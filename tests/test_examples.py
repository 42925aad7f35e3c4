"""The example tools work as their READMEs promise, run as subprocesses."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import REPO, run


@pytest.fixture()
def textkit(tmp_path: Path) -> Path:
    shutil.copy(REPO / "examples" / "textkit" / "textkit.py", tmp_path / "textkit.py")
    (tmp_path / "notes.txt").write_text("hello world\nTODO: fix\nhello again\n", encoding="utf-8")
    return tmp_path / "textkit.py"


def test_count_reads_files_or_stdin(textkit: Path) -> None:
    files = run(textkit, "count", "notes.txt", "--json")
    assert files.json()["data"] == [{"name": "notes.txt", "lines": 3, "words": 6, "chars": 34}]
    stdin = run(textkit, "count", "--json", stdin="a b\nc\n")
    assert stdin.json()["data"] == [{"name": "-", "lines": 2, "words": 3, "chars": 6}]


def test_help_says_which_switches_are_on(textkit: Path) -> None:
    shown = run(textkit, "tidy", "lines", "--help", env={"COLUMNS": "100"}).out
    assert "--strip, --no-strip   Strip blanks around each line (default: on)" in shown
    assert "Drop repeated lines, keeping the first (default: off)" in shown


def test_search_and_its_errors(textkit: Path) -> None:
    found = run(textkit, "search", "-i", "todo", "notes.txt")
    assert found.out.splitlines() == ["name       line  text", "notes.txt  2     TODO: fix"]
    bad = run(textkit, "search", "(", "notes.txt", "--json")
    assert bad.code == 5 and bad.json()["error"]["kind"] == "bad_pattern"
    missing = run(textkit, "count", "nope.txt")
    assert missing.code == 3 and missing.error_line()["error"]["kind"] == "io"


def test_tidy_group(textkit: Path) -> None:
    assert run(textkit, "tidy", "slug", "Héllo, Wörld!").out == "hello-world\n"
    upper = run(textkit, "tidy", "lines", "notes.txt", "-u", "--case", "upper", "--json")
    assert upper.json()["data"] == ["HELLO WORLD", "TODO: FIX", "HELLO AGAIN"]


def test_todo_round_trip(tmp_path: Path) -> None:
    shutil.copy(REPO / "examples" / "todo" / "todo.py", tmp_path / "todo.py")
    tool = tmp_path / "todo.py"
    run(tool, "add", "a")
    run(tool, "add", "b", "-t", "x")
    assert run(tool, "done", "1", "--json").json()["data"]["done"] is True
    assert [t["title"] for t in run(tool, "list", "--json").json()["data"]] == ["b"]
    assert len(run(tool, "list", "--all", "--json").json()["data"]) == 2
    assert run(tool, "tasks", "purge", "--yes", "--json").json()["data"] == {
        "removed": 1,
        "kept": 1,
    }
    missing = run(tool, "done", "9", "--json")
    assert missing.code == 3 and missing.json()["error"]["kind"] == "not_found"
