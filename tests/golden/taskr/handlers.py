"""taskr: a to-do list, written as a Typer app (burgee reads it as it is: issue 47)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

HOME_VAR = "TASKR_HOME"

app = typer.Typer(name="taskr", help="Keep a to-do list.")
tags = typer.Typer()
app.add_typer(tags, name="tags", help="Work with the tags of tasks.")


class Priority(str, Enum):
    """How soon a task matters."""

    low = "low"
    high = "high"


@app.callback()
def main(
    verbose: Annotated[int, typer.Option("--verbose", "-v", count=True, help="Say more")] = 0,
) -> None:
    """Keep a to-do list."""


@app.command()
def add(
    title: Annotated[str, typer.Argument(help="What to do")],
    priority: Priority = Priority.low,
    due: Annotated[str | None, typer.Option("--due", "-d", help="When it is due")] = None,
    tag: Annotated[list[str] | None, typer.Option(help="A tag; give it again for more")] = None,
    home: Path = typer.Option(Path("."), envvar=HOME_VAR, help="Where the list is kept"),
    force: bool = False,
) -> dict[str, Any]:
    """Add a task."""
    return {
        "title": title,
        "priority": priority.value,
        "due": due,
        "tags": tag or [],
        "home": str(home),
        "force": force,
    }


@app.command("list")
def list_tasks(
    done: Annotated[bool, typer.Option("--done", help="Only finished tasks")] = False,
    limit: Annotated[int, typer.Option(min=1, max=100, help="At most this many")] = 10,
) -> list[str]:
    """List tasks."""
    return [f"task {n}" for n in range(limit)] if not done else []


@tags.command("rename")
def rename_tag(
    old: str,
    new: str,
    dry_run: Annotated[bool, typer.Option("--dry-run/--apply", help="Only say what")] = True,
) -> str:
    """Rename a tag."""
    return f"{old} -> {new}" + (" (dry run)" if dry_run else "")


if __name__ == "__main__":
    app()
