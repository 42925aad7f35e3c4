from typing import Annotated

from burgee import Argument, Context, Option, command, group


@command(effects="read_only")
def status() -> None:
    """One."""


@command(effects="read_only", name="status")
def status_again() -> None:
    """Two with the same name."""


@command(effects="read_only")
def schema() -> None:
    """Reserved by the tool itself."""


tasks = group("tasks")


@command(effects="read_only")
def tasks_cmd() -> None:
    """Fine: a different name."""


@command(effects="read_only", name="tasks")
def clash() -> None:
    """Same name as a group."""


@command(effects="read_only")
def flags(
    json: bool = False,
    out: Annotated[str, Option("-o")] = "x",
    a: Annotated[int, Option("-x")] = 1,
    b: Annotated[int, Option("-x")] = 2,
    c: Annotated[int, Option("x")] = 3,
    first: Context = None,
    second: Context = None,
) -> None:
    """Flags that clash with the tool's own, or with each other."""


@command(effects="read_only")
def positionals(
    many: Annotated[list[str], Argument()],
    after: Annotated[tuple[str, str], Argument()],
    switch: Annotated[bool, Argument()],
) -> None:
    """Positionals in an order argparse cannot parse."""


@command(effects="read_only")
def pair(at: Annotated[tuple[int, int], Argument()] = (0, 0)) -> None:
    """A positional tuple takes all its items or none: it cannot have a default."""


def main() -> None:
    """Clashes with the generated module's entry point."""


def _text(data: object) -> str:
    """Would replace the runtime's own text renderer."""
    return str(data)


_run_status = None


@command(effects="read_only")
def copy(
    sources: Annotated[list[str], Argument()],
    target: Annotated[str, Argument()] = ".",
) -> None:
    """`copy SRC... [DST]`: an optional argument after a list is a guess, refused with a way
    out (argparse's `copy SRC... DST` is taken)."""


@command(effects="read_only")
def pairs(settings: Annotated[list[tuple[str, str]], Argument()]) -> None:
    """A list of tuples as positionals: nothing tells where one ends."""


@command(effects="read_only")
def runner(
    args: Annotated[list[str], Argument(passthrough=True)],
    last: Annotated[str, Argument()],
) -> None:
    """A pass-through argument takes every word from its first one: it must be last."""


@command(effects="read_only")
def one_word(app: Annotated[str, Argument(passthrough=True)]) -> None:
    """A pass-through argument takes words as they are: a list[str]."""
