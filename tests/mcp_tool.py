"""A handlers file for the MCP tests: every kind of result, progress, cancellation, prints."""

HANDLERS = '''
"""Tasks over MCP."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from burgee import Argument, CommandError, Context, command, group, program

program(name="mcptool", version="3.1.0")


class Missing(CommandError):
    """No such task."""

    kind = "missing"
    exit_code = 3


@dataclass
class Task:
    """One task."""

    id: int
    title: str
    done: bool = False


@command(effects="read_only")
def greet(name: str, times: int = 1) -> dict[str, str]:
    """Say hello.

    Args:
        name: Who to greet.
        times: How many times.
    """
    print("greeting", name)
    print("to stderr", file=sys.stderr)
    return {"greeting": " ".join([f"Hello, {name}!"] * times)}


@command(effects="read_only")
def count(limit: int = 3, mode: Literal["up", "down"] = "up") -> list[int]:
    """Count to a limit."""
    if limit < 0:
        raise Missing("nothing to count", hint="use a positive limit")
    numbers = list(range(1, limit + 1))
    return numbers if mode == "up" else numbers[::-1]


tasks = group("tasks", help="Task operations.")


@tasks.command(effects="destructive", open_world=False)
def purge(ids: Annotated[list[int], Argument(help="Task ids")]) -> list[Task]:
    """Purge tasks."""
    return [Task(id=i, title=f"task {i}", done=True) for i in ids]


@command(effects="idempotent")
def slow(steps: int = 5, delay: float = 0.05, ctx: Context = None) -> int:
    """Take a while, reporting progress; stop early when cancelled."""
    ctx.on_exit(lambda: print("slow: on_exit ran", file=sys.stderr, flush=True))
    for step in range(steps):
        if ctx.cancelled.wait(delay):
            print("slow: cancelled", file=sys.stderr, flush=True)
            return -1
        ctx.progress(step + 1, steps, f"step {step + 1}")
        ctx.progress(step + 1, steps, "again")  # not rising: dropped
    return steps


@command(effects="read_only")
def liar() -> int:
    """Claims an int, answers a string."""
    return "not an int"  # type: ignore[return-value]


@command(effects="read_only")
def spin(seconds: float = 5.0, ctx: Context = None) -> int:
    """Busy-loop in pure Python (never blocking) until cancelled or the time is up."""
    deadline = time.monotonic() + seconds
    rounds = 0
    while time.monotonic() < deadline and not ctx.cancelled.is_set():
        rounds += 1
    print("spin: stopped", file=sys.stderr, flush=True)
    return rounds


@command(effects="withheld")
def secret() -> str:
    """Never offered to agents."""
    return "hidden"
'''
