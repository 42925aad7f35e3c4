from typing import Any, Union

from burgee import Argument, command


class Thing:
    pass


@command(effects="read_only")
def types(
    a: set[int],
    b: Union[int, str],
    c: Thing,
    d: dict[str, int],
    e: Any,
    f: list,
    g,
    h: Argument,
) -> set[int]:
    """Every kind of unsupported annotation."""
    return set()


@command(effects="read_only")
def empty_tuple(x: tuple[()] = ()) -> None:
    """A tuple of no values: nothing a command line could give."""


@command(effects="read_only")
def unimported(where: "Path" = ".") -> None:
    """A supported type's name that the file never imported."""


@command(effects="read_only")
def nul(x: "int\x00" = 1) -> None:
    """A string annotation that holds no valid Python (Python 3.10 raises ValueError)."""
