"""What a person at a real terminal sees (a pty): errors without the JSON line meant for
programs, a progress line that never leaves text behind on its line, and a root help that
leads with the commands."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from tests.helpers import generate

HANDLERS = '''\
"""Counter: counts with a progress line."""
from burgee import CommandError, Context, command, program

program(name="counter", version="1.0.0")


class TooMany(CommandError):
    """More than the counter can count."""

    kind = "too_many"
    exit_code = 3


@command(effects="read_only")
def count(n: int = 3, fail: bool = False, chatty: bool = False, ctx: Context = None) -> str:
    """Count to N, showing progress."""
    for done in range(1, n + 1):
        ctx.progress(done, n, f"counted {done}")
        if chatty:
            print(f"at {done}")
    if fail:
        raise TooMany(f"cannot count to {n}", hint="count to fewer")
    return f"counted: {n}"
'''


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("counter"), HANDLERS)


def at_terminal(tool: Path, *args: str, columns: int = 0, **env: str) -> tuple[list[str], int]:
    """Run the tool with stdout and stderr on one pty (`columns` wide, when given); the
    screen's lines and the exit code."""
    leader, follower = pty.openpty()
    if columns:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "CLAUDECODE", "AI_AGENT")}
    proc = subprocess.Popen(
        [sys.executable, str(tool), *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env={**clean, **env},
    )
    os.close(follower)
    output = bytearray()
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # NOTE: EIO once the child has closed its end
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    return screen(output.decode("utf-8")), proc.wait(timeout=30)


def screen(text: str) -> list[str]:
    """The lines a terminal shows for `text`: `\\r` returns to the start of the line,
    `ESC [ K` erases the rest of it, `\\n` starts a new one."""
    lines: list[str] = []
    line, column = "", 0
    index = 0
    while index < len(text):
        char = text[index]
        if text.startswith("\x1b[K", index):
            line = line[:column]
            index += 3
            continue
        if char == "\r":
            column = 0
        elif char == "\n":
            lines.append(line)
            line, column = "", 0
        else:
            line = line[:column] + char + line[column + 1 :]
            column += 1
        index += 1
    if line:
        lines.append(line)
    return lines


def test_the_answer_is_alone_on_its_line_after_progress(tool: Path) -> None:
    assert at_terminal(tool, "count") == (["counted: 3"], 0)


def test_what_a_handler_prints_never_lands_on_the_progress_line(tool: Path) -> None:
    lines, code = at_terminal(tool, "count", "--n", "2", "--chatty")
    assert (lines, code) == (["at 1", "at 2", "counted: 2"], 0)


def test_a_person_reads_an_error_without_the_json_line(tool: Path) -> None:
    lines, code = at_terminal(tool, "count", "--fail")
    assert (lines, code) == (["counter: error: cannot count to 3", "hint: count to fewer"], 3)


def test_a_usage_error_at_a_terminal_reads_as_text(tool: Path) -> None:
    lines, code = at_terminal(tool, "count", "--n", "x")
    assert code == 2
    assert lines[0] == "counter: error: --n: expected an integer, got 'x'"
    assert not [line for line in lines if line.startswith("{")]


def test_json_and_agents_keep_the_json_line_at_a_terminal(tool: Path) -> None:
    lines, code = at_terminal(tool, "count", "--fail", "--json")
    assert code == 3
    assert lines[-1].startswith('{"ok": false, "error": {"kind": "too_many"')
    lines, code = at_terminal(tool, "count", "--fail", CLAUDECODE="1")
    assert code == 3
    assert lines[-1].startswith('{"ok": false, "error": {"kind": "too_many"')


def test_a_pipe_keeps_the_json_line(tool: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(tool), "count", "--fail"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 3
    assert proc.stderr.splitlines()[-1].startswith('{"ok": false, "error": {"kind": "too_many"')


def test_the_root_help_leads_with_the_commands_and_fits_a_screen(tool: Path) -> None:
    """Issue 36: the commands come right after the description, the tool-wide flags after them,
    compactly (a line or two a group); a small tool's help fits in 45 lines of 80 columns."""
    lines, code = at_terminal(tool, "--help", columns=80)
    assert code == 0
    assert len(lines) <= 45, "\n".join(lines)
    assert all(len(line) <= 80 for line in lines)
    assert lines[0] == "usage: counter [-h] [FLAGS] COMMAND ..."
    commands = lines.index("commands:")
    flags = lines.index("tool-wide flags ('counter help flags' explains each):")
    assert lines[commands + 1].split() == ["count", "Count", "to", "N,", "showing", "progress."]
    assert commands < flags
    groups = [line.split(":")[0].strip() for line in lines[flags + 1 :] if line[2:3] != " "]
    assert groups[:5] == ["output", "run", "describe", "agents", "MCP"]
    assert "--help" not in " ".join(lines[:commands])
    explained, code = at_terminal(tool, "help", "flags", columns=80)
    assert code == 0
    assert "  --mcp                 serve the commands as MCP tools over stdio" in explained
