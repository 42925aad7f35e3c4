"""`mytool --batch`: many calls in one run, one envelope line per call, through the same
execution path as flags and MCP."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import generate, in_process, invoked, run

HANDLERS = '''
"""Batches."""

from __future__ import annotations

import threading
import time

from burgee import Context, command, program

program(name="batcher", version="1.0.0")
LOCK = threading.Lock()
RUNNING = [0, 0]  # running now, most at once


@command(effects="read_only")
def slow(n: int, seconds: float = 0.3) -> int:
    """Sleep, then answer n."""
    print(f"slow {n}")
    time.sleep(seconds)
    return n


@command(effects="read_only")
def overlap(seconds: float = 0.3) -> int:
    """Sleep; answer how many calls were running at once, at most, so far."""
    with LOCK:
        RUNNING[0] += 1
        RUNNING[1] = max(RUNNING)
    time.sleep(seconds)
    with LOCK:
        RUNNING[0] -= 1
        return RUNNING[1]


@command(effects="non_idempotent")
def append(item: str) -> str:
    """Record an item (order matters)."""
    with open("log.txt", "a", encoding="utf-8") as log:
        log.write(item + "\\n")
    return item


@command(effects="non_idempotent")
def asked(item: str, ctx: Context = None) -> str:
    """Record an item with how loud it is, asked."""
    how = ctx.ask("How loud?", choices=["quiet", "loud"], default="quiet", name="volume")
    return append(f"{item} {how}")


@command(effects="read_only")
def logged() -> int:
    """How many items are recorded so far."""
    try:
        with open("log.txt", encoding="utf-8") as log:
            return len(log.read().splitlines())
    except FileNotFoundError:
        return 0


@command(effects="idempotent")
def mark(item: str) -> int:
    """Mark an item (again: no change), read-modify-write; answer how many are marked."""
    try:
        with open("marks.txt", encoding="utf-8") as marks:
            found = set(marks.read().split())
    except FileNotFoundError:
        found = set()
    time.sleep(0.01)  # NOTE: room for another call to read the file meanwhile
    found.add(item)
    with open("marks.txt", "w", encoding="utf-8") as marks:
        marks.write(" ".join(sorted(found)))
    return len(found)


@command(effects="destructive")
def wipe() -> str:
    """Wipe everything."""
    return "wiped"


@command(effects="withheld")
def hidden() -> str:
    """Never for agents."""
    return "no"
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("batch"), HANDLERS)


def _lines(*calls: dict[str, Any] | str) -> str:
    return "".join((c if isinstance(c, str) else json.dumps(c)) + "\n" for c in calls)


def _answers(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_read_only_calls_run_in_parallel_and_answer_in_input_order(tool: Path) -> None:
    calls = [{"id": i, "command": "slow", "input": {"n": i, "seconds": 0}} for i in range(8)]
    result = run(tool, "--batch", "--jobs", "8", stdin=_lines(*calls))
    assert result.code == 0, result
    assert [(a["id"], a["data"]) for a in _answers(result.out)] == [(i, i) for i in range(8)]
    assert "slow 3" in result.err
    # NOTE: each call reports how many were running at once (no timing in the test): with 8
    # workers the 8 sleeping calls overlap; with 1 they never do.
    overlapping = [{"id": i, "command": "overlap"} for i in range(8)]
    parallel = run(tool, "--batch", "--jobs", "8", stdin=_lines(*overlapping))
    assert max(a["data"] for a in _answers(parallel.out)) > 1
    serial = run(tool, "--batch", "--jobs", "1", stdin=_lines(*overlapping[:3]))
    assert [a["data"] for a in _answers(serial.out)] == [1, 1, 1]


def test_as_completed_writes_the_quick_ones_first(tool: Path) -> None:
    calls = [
        {"id": "late", "command": "slow", "input": {"n": 1, "seconds": 1.5}},
        {"id": "early", "command": "slow", "input": {"n": 2, "seconds": 0.0}},
    ]
    ordered = run(tool, "--batch", stdin=_lines(*calls))
    assert [a["id"] for a in _answers(ordered.out)] == ["late", "early"]
    completed = run(tool, "--batch", "--as-completed", stdin=_lines(*calls))
    assert [a["id"] for a in _answers(completed.out)] == ["early", "late"]


def test_non_idempotent_calls_keep_input_order(tool: Path) -> None:
    log = tool.parent / "log.txt"
    log.unlink(missing_ok=True)
    calls = [{"id": i, "command": "append", "input": {"item": f"item {i}"}} for i in range(12)]
    result = run(tool, "--batch", "--jobs", "8", stdin=_lines(*calls))
    assert result.code == 0, result
    assert log.read_text(encoding="utf-8").splitlines() == [f"item {i}" for i in range(12)]


def test_a_call_that_changes_something_runs_alone_between_the_lines_around_it(tool: Path) -> None:
    """A batch answers as its lines run one by one would: a read-only call sees every change
    of the lines before it and none of the lines after it; idempotent calls that rewrite the
    same file never lose each other's change."""
    (tool.parent / "log.txt").unlink(missing_ok=True)
    (tool.parent / "marks.txt").unlink(missing_ok=True)
    calls: list[dict[str, Any]] = []
    for i in range(6):
        calls.append({"id": f"add {i}", "command": "append", "input": {"item": f"item {i}"}})
        calls += [{"id": f"count {i}.{j}", "command": "logged"} for j in range(3)]
    calls += [{"id": f"mark {i}", "command": "mark", "input": {"item": f"m{i}"}} for i in range(8)]
    result = run(tool, "--batch", "--jobs", "8", stdin=_lines(*calls))
    assert result.code == 0, result
    answers = {a["id"]: a["data"] for a in _answers(result.out)}
    assert [answers[f"count {i}.{j}"] for i in range(6) for j in range(3)] == [
        i + 1 for i in range(6) for _ in range(3)
    ]
    assert [answers[f"mark {i}"] for i in range(8)] == list(range(1, 9))


def test_bad_lines_destructive_and_withheld_calls_get_error_lines(tool: Path) -> None:
    stdin = _lines(
        {"id": 1, "command": "slow", "input": {"n": 1, "seconds": 0}},
        "{not json",
        "[1, 2]",
        {"id": 4, "command": "wipe"},
        {"id": 5, "command": "hidden"},
        {"id": 6, "command": "nope"},
        {"id": 7, "command": "slow", "input": {"n": "x"}},
        {"id": 8, "command": "slow", "input": {"n": 8, "seconds": 0}, "extra": 1},
        {"id": 9, "command": "slow", "input": {"n": 9, "seconds": 0}},
    )
    result = run(tool, "--batch", stdin=stdin)
    assert result.code == 125
    answers = _answers(result.out)
    assert [a["id"] for a in answers] == [1, None, None, 4, 5, 6, 7, 8, 9]
    assert [a["ok"] for a in answers] == [True] + [False] * 7 + [True]
    kinds = [a["error"]["kind"] for a in answers if not a["ok"]]
    assert kinds == ["usage", "usage", "action_required", "usage", "usage", "usage", "usage"]
    alone = f"{invoked(tool, tool.parent)} wipe --json '{{}}' --yes"
    assert answers[3]["next"] == [{"command": alone, "when": "to run it"}]
    # NOTE: the line holds single quotes: set apart in backquotes, so it is copied whole.
    assert answers[3]["error"]["hint"] == f"run `{alone}` to run it"
    allowed = run(
        tool, "--batch", "--allow-destructive", stdin=_lines({"id": 1, "command": "wipe"})
    )
    assert allowed.code == 0
    assert _answers(allowed.out) == [{"id": 1, "ok": True, "data": "wiped"}]


@pytest.mark.parametrize("from_file", [True, False])
def test_the_next_line_of_a_batch_call_runs_that_call_alone(
    tool: Path, tmp_path: Path, from_file: bool
) -> None:
    """A call that needs an answer or a decision: its `next` runs it by itself, as the
    command line would, not the batch again (whose other calls would run twice), from a
    file or from stdin alike."""
    calls = _lines(
        {"id": 1, "command": "append", "input": {"item": "one"}},
        {"id": 2, "command": "asked", "input": {"item": "two"}},
        {"id": 3, "command": "wipe"},
    )
    (tmp_path / "calls.jsonl").write_text(calls, encoding="utf-8")
    batcher = in_process(tool, cwd=tmp_path)
    given = ["calls.jsonl"] if from_file else []
    result = batcher.run("--batch", *given, stdin=None if from_file else calls)
    assert result.code == 125
    answers = _answers(result.out)
    assert [a["ok"] for a in answers] == [True, False, False]
    asked = answers[1]["next"][1]
    assert asked["when"] == "to answer loud"
    words = shlex.split(asked["command"])
    assert words[:2] == ["batcher", "asked"] and "--batch" not in words
    ran = batcher.run(*words[1:])
    assert (ran.code, ran.json()["data"]) == (0, "two loud")
    assert (tmp_path / "log.txt").read_text(encoding="utf-8").split("\n") == [
        "one",
        "two loud",
        "",
    ]
    wiped = batcher.run(*shlex.split(answers[2]["next"][0]["command"])[1:])
    assert (wiped.code, wiped.json()["data"]) == (0, "wiped")


def test_batch_from_a_file_and_its_errors(tool: Path) -> None:
    calls = tool.parent / "calls.jsonl"
    calls.write_text(_lines({"id": "a", "command": "slow", "input": {"n": 5, "seconds": 0}}))
    result = run(tool, "--batch", str(calls))
    assert result.code == 0
    assert _answers(result.out)[0]["data"] == 5
    missing = run(tool, "--batch", str(tool.parent / "nope.jsonl"))
    assert missing.code == 2
    assert missing.error_line()["error"]["kind"] == "usage"
    bad_jobs = run(tool, "--batch", "--jobs", "0", stdin="")
    assert bad_jobs.code == 2
    with_command = run(tool, "--batch", "-", "slow", stdin="")
    assert with_command.code == 2


@pytest.mark.parametrize("from_file", [False, True])
def test_a_batch_whose_reader_goes_away_ends_quietly_with_141(
    tmp_path: Path, from_file: bool
) -> None:
    """`--batch FILE | head`: the broken pipe is no problem of the file (it was a usage
    error, exit 2), as with the calls on stdin."""
    tool = generate(
        tmp_path,
        'from burgee import command\n\n\n@command(effects="read_only")\n'
        'def echo(text: str) -> str:\n    """Echo."""\n    return text * 200\n',
    )
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        "".join(
            json.dumps({"id": i, "command": "echo", "input": {"text": "x"}}) + "\n"
            for i in range(2000)
        ),
        encoding="utf-8",
    )
    given = f"--batch {calls}" if from_file else f"--batch < {calls}"
    result = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {sys.executable} {tool} {given} | head -c 2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr, result.stdout) == (141, "", '{"')


def test_a_failed_batch_ends_with_its_json_error_on_stderr(tool: Path) -> None:
    """Exit 125, and as every failure, the JSON error last on stderr (it wrote none)."""
    stdin = _lines(
        {"id": 1, "command": "slow", "input": {"n": 1, "seconds": 0}},
        {"id": 2, "command": "nope"},
        {"id": 3, "command": "slow", "input": {"n": "x"}},
    )
    result = run(tool, "--batch", stdin=stdin)
    assert result.code == 125
    assert [a["id"] for a in _answers(result.out)] == [1, 2, 3]
    error = result.error_line()["error"]
    assert error["kind"] == "batch_failed"
    assert error["message"] == "2 of 3 calls failed; each one's line says why"
    assert error["details"] == {"failed": 2, "calls": 3}
    assert result.err.splitlines()[-2] == (
        "batcher: error: 2 of 3 calls failed; each one's line says why"
    )
    # NOTE: a batch whose calls all succeed writes no error.
    good = run(tool, "--batch", stdin=_lines({"id": 1, "command": "slow", "input": {"n": 1}}))
    assert good.code == 0
    assert "error" not in good.err
