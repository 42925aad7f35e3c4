"""`invoke()`, the generated tool's in-process test helper: each call answers as its own process
would, captures all it writes, and leaves the calling process as it found it.

Unlike `helpers.in_process` (a fresh import for every call), these tests ask one imported
golden tool again and again, as a project's own tests do."""

from __future__ import annotations

import _thread
import io
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import GOLDEN, import_tool

#: A read-only call of the kitchen tool, as a `--batch` line.
COUNT = '{"id": %d, "command": "store shelf count", "input": {"names": ["ab", "cde"]}}\n'


def _tool(case: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """The golden tool `case`, imported once, run in an empty folder with no user config."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    name = f"invoked_{case}"
    try:
        return import_tool(GOLDEN / case / f"{case}.py", name)
    finally:
        del sys.modules[name]


@pytest.fixture
def kitchen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    return _tool("kitchen", monkeypatch, tmp_path)


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    return _tool("settings", monkeypatch, tmp_path)


def test_batch_answers_are_captured(kitchen: Any, capfd: pytest.CaptureFixture[str]) -> None:
    done = kitchen.invoke(["--batch"], input=COUNT % 1 + COUNT % 2)
    assert done.exit_code == 0, done
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(line["id"], line["data"]) for line in lines] == [
        (1, [{"name": "ab", "letters": 2}, {"name": "cde", "letters": 3}]),
        (2, [{"name": "ab", "letters": 2}, {"name": "cde", "letters": 3}]),
    ]
    # NOTE: nothing reached the test process's own file descriptor 1.
    assert capfd.readouterr().out == ""


def test_batch_answers_land_in_a_stdout_of_another_file(
    kitchen: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A caller that points sys.stdout at a file of its own (not descriptor 1) gets the lines
    there, as `main()` writes every other answer."""
    with open(tmp_path / "answers", "w+", encoding="utf-8") as file:
        monkeypatch.setattr(sys, "stdin", io.StringIO(COUNT % 7))
        monkeypatch.setattr(sys, "stdout", file)
        assert kitchen.main(["--batch"]) == 0
        file.seek(0)
        assert json.loads(file.read())["id"] == 7


def test_a_changed_config_file_is_read_again(settings: Any, tmp_path: Path) -> None:
    config = tmp_path / "settings.toml"
    answers = []
    for port in (1111, 2222):
        config.write_text(f"[connect]\nport = {port}\n", encoding="utf-8")
        done = settings.invoke(["connect", "--config", str(config), "--json"])
        assert done.exit_code == 0, done
        answers.append(done.envelope["data"]["port"])
    assert answers == [1111, 2222]


def test_a_secret_of_one_call_is_not_redacted_in_the_next(settings: Any) -> None:
    first = settings.invoke(["connect", "--token", "swordfish-42", "--json"])
    assert first.exit_code == 0, first
    assert first.envelope["data"]["authenticated"] is True
    # NOTE: the secret is still redacted in the call that gave it.
    echoed = settings.invoke(
        ["connect", "--token", "swordfish-42", "--host", "swordfish-42", "--json"]
    )
    assert echoed.envelope["data"]["host"] == "<secret:token>"
    later = settings.invoke(["connect", "--host", "swordfish-42", "--json"])
    assert later.envelope["data"]["host"] == "swordfish-42"


def test_the_callers_signal_handlers_are_put_back(settings: Any) -> None:
    def mine(number: int, frame: object) -> None:
        raise AssertionError("not called")

    kept = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGTERM, mine)
        assert settings.invoke(["connect", "--json"]).exit_code == 0
        assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGINT) is kept[signal.SIGINT]
        # NOTE: an MCP server sets its Ctrl-C handler too.
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
        served = settings.invoke(["--mcp"], input=json.dumps(initialize) + "\n")
        assert served.exit_code == 0, served
        assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGINT) is kept[signal.SIGINT]
    finally:
        for number, handler in kept.items():
            signal.signal(number, handler)


def test_mcp_cwd_does_not_move_the_caller(settings: Any, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    before = Path.cwd()
    settings.invoke(["--mcp", "--cwd", str(tmp_path / "elsewhere")], input="")
    assert Path.cwd() == before


def test_a_handler_that_ignores_its_timeout_returns_the_timeout_error(kitchen: Any) -> None:
    """The call ends as `timeout` (exit 124) after the grace, instead of ending the calling
    process; the handler's thread is left to finish on its own."""
    start = time.monotonic()
    done = kitchen.invoke(["store", "shelf", "nap", "--seconds", "4", "--timeout", "0.1", "--json"])
    assert done.exit_code == 124, done
    assert done.envelope["error"]["kind"] == "timeout"
    assert time.monotonic() - start < 3.5
    # NOTE: the tool answers its next call as usual.
    again = kitchen.invoke(["store", "shelf", "nap", "--timeout", "5", "--json"])
    assert again.exit_code == 0, again


def test_a_handler_within_its_timeout_answers(kitchen: Any) -> None:
    done = kitchen.invoke(["store", "shelf", "nap", "--seconds", "0.01", "--timeout", "5"])
    assert done.exit_code == 0, done


def test_an_mcp_session_answers_in_the_capture_and_leaves_no_thread_behind(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The answers land in `Invoked.stdout` (they went to the caller's file descriptor 1, which
    then pointed at stderr for good). A long call on the main thread starts the watchdog, and a
    call it reads meanwhile runs on a worker thread; both end with the session instead of
    staying parked in the caller."""

    def message(number: int, method: str, **params: Any) -> str:
        return json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params})

    before = _thread._count()  # type: ignore[attr-defined]
    stdout = os.fstat(1)
    lines = [
        message(1, "initialize", protocolVersion="2025-06-18", capabilities={}, clientInfo={}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        message(2, "tools/call", name="wait", arguments={"seconds": 0.3}),
        message(3, "tools/call", name="wait", arguments={"seconds": 0}),
    ]
    pantry = _tool("pantry", monkeypatch, tmp_path)
    served = pantry.invoke(["--mcp"], input="\n".join(lines) + "\n")
    assert served.exit_code == 0, served
    answers = {answer["id"]: answer for answer in map(json.loads, served.stdout.splitlines())}
    assert "result" in answers[2] and "result" in answers[3], answers
    # NOTE: the answers were captured, and the caller's own stdout is still where it was.
    assert (os.fstat(1).st_dev, os.fstat(1).st_ino) == (stdout.st_dev, stdout.st_ino)
    deadline = time.monotonic() + 5
    while _thread._count() > before and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.01)
    assert _thread._count() == before  # type: ignore[attr-defined]
