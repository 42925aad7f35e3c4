"""A program() without arguments, then another: the second is reported, never merged."""

from typing import Annotated

from burgee import Option, command, group, program

program()
program(name="second")

tasks = group("tasks", help=None)


@tasks.command(effects="read_only")
def status(limit: Annotated[int, Option(help=None)] = 1) -> None:
    """help=None is allowed, as the markers' signatures say."""
