"""Decorator and marker arguments of the wrong type, and a program called twice: each is a
located error, and one bad thing does not hide the others."""

from typing import Annotated

from burgee import Option, command, group, program

program(name="a", env_prefix="bad prefix!")
program(name="b")

tasks = group("tasks", help=3)


@command(effects="read_only", hidden="no", open_world="no", root=1)
def status(
    limit: Annotated[int, Option(help=5, hidden="yes", prompt=3)] = 1,
) -> None:
    """Wrong types everywhere."""


@command(effects="read_only", name="Bad Name", max_output=-1, examples="x")
def named(token: Annotated[str, Option(env="bad env")] = "") -> None:
    """A bad name does not hide the rest."""


bad = group("Bad Group")


@bad.command(effects="read_only")
def inside(size: Annotated[int, Option(min=5, max=1)] = 3) -> None:
    """A bad group name does not hide its commands' problems."""


@command(effects="read_only", name="")
def unnamed() -> None:
    """An empty name is no name (not the function's)."""


@command(effects="read_only", aliases=["ok", "ok"])
def lead() -> None:
    """The same alias twice."""
