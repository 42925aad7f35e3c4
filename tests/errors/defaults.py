import os

from typing import Optional

from burgee import Context, command

LIMIT = 10


@command(effects="read_only")
def defaults(
    a: int = LIMIT,
    b: str = os.getcwd(),
    c: int = None,
    d: list[int] = 3,
    e: Optional[int] = [1],
    ctx: Context = "nope",
) -> None:
    """Defaults that are not literals, or do not fit their type."""
