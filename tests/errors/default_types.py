import datetime
from enum import Enum
from pathlib import Path
from typing import Literal, Optional

from burgee import command


class Color(Enum):
    RED = "red"


@command(effects="read_only")
def mistyped(
    a: int = "five",
    b: bool = 3,
    c: int = True,
    d: float = "1.5",
    e: str = 5,
    f: Literal["x", "y"] = "z",
    g: Color = "red",
    h: Path = ".",
    i: datetime.date = "2026-01-01",
    j: list[int] = [1, "2"],
    k: Optional[int] = None,
    m: float = 2,
    n: Literal[1, 2] = True,
    o: dict[str, int] = {"a": 1},
) -> None:
    """Literal defaults of the wrong type: the handler would get them as written."""
