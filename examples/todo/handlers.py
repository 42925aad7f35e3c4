"""Todo: a tiny task list kept in a JSON file.

Tasks live in ./tasks.json, or in the file named by --store (or TODO_STORE).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Annotated, Literal

from burgee import Argument, CommandError, Context, Option, command, group, program

program(name="todo", version="1.0.0", env_prefix="TODO", config=True)

class NotFound(CommandError):
    """The task does not exist."""

    kind = "not_found"
    exit_code = 3
    retryable = False


@dataclass
class Task:
    """One task."""

    id: int
    title: str
    priority: str = "low"
    done: bool = False
    due: str | None = None
    tags: list[str] = field(default_factory=list)


def _store_path(store: Path | None) -> Path:
    return store or Path("tasks.json")


def _load(store: Path | None) -> list[Task]:
    path = _store_path(store)
    if not path.exists():
        return []
    return [Task(**item) for item in json.loads(path.read_text(encoding="utf-8"))]


def _save(store: Path | None, tasks: list[Task]) -> None:
    path = _store_path(store)
    # A name of this process's own: two todo runs saving at once never write the same file.
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temp.write_text(json.dumps([asdict(t) for t in tasks], indent=2), encoding="utf-8")
    temp.replace(path)


@command(
    effects="non_idempotent",
    examples=["todo add 'buy milk' --priority high -t shop", "todo add 'file taxes' --due 2026-04-15"],
)
def add(
    title: Annotated[str, Argument(help="What to do")],
    priority: Literal["low", "high"] = "low",
    tag: Annotated[list[str], Option("-t", help="A tag; repeat for more")] = [],
    due: date | None = None,
    store: Path | None = None,
    ctx: Context = None,
) -> Task:
    """Add a task.

    Args:
        priority: How urgent it is.
        due: When it is due (YYYY-MM-DD).
        store: The JSON file that holds the tasks.
    """
    tasks = _load(store)
    task = Task(
        id=max((t.id for t in tasks), default=0) + 1,
        title=title,
        priority=priority,
        due=due.isoformat() if due else None,
        tags=list(tag),
    )
    tasks.append(task)
    _save(store, tasks)
    return task


@command(effects="read_only", name="list", cardinality="bounded", examples=["todo list --all"])
def list_tasks(
    all: Annotated[bool, Option("-a", help="Include finished tasks")] = False,
    tag: str | None = None,
    store: Path | None = None,
) -> list[Task]:
    """List tasks, unfinished ones unless --all.

    Args:
        tag: Only tasks with this tag.
        store: The JSON file that holds the tasks.
    """
    return [
        t
        for t in _load(store)
        if (all or not t.done) and (tag is None or tag in t.tags)
    ]


@command(effects="idempotent", examples=["todo done 1"])
def done(
    id: Annotated[int, Argument(help="The task's id")],
    store: Path | None = None,
) -> Task:
    """Mark a task as done.

    Args:
        store: The JSON file that holds the tasks.
    """
    tasks = _load(store)
    for task in tasks:
        if task.id == id:
            task.done = True
            _save(store, tasks)
            return task
    raise NotFound(f"no task with id {id}", hint="run 'todo list --all' to see every id")


tasks = group("tasks", help="Operations on the whole list.")


@tasks.command(effects="destructive", examples=["todo tasks purge --done-only"])
def purge(
    done_only: Annotated[bool, Option(help="Remove only finished tasks")] = True,
    store: Path | None = None,
) -> dict[str, int]:
    """Remove tasks from the list.

    Args:
        store: The JSON file that holds the tasks.
    """
    tasks = _load(store)
    kept = [t for t in tasks if done_only and not t.done]
    _save(store, kept)
    return {"removed": len(tasks) - len(kept), "kept": len(kept)}
