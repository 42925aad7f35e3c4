from dataclasses import dataclass
from typing import Optional, TypedDict

from burgee import command


@dataclass
class Tree:
    value: int
    children: list["Tree"]


class Left(TypedDict):
    right: Optional["Right"]


class Right(TypedDict):
    left: Left


@command(effects="read_only")
def tree() -> Tree:
    """A record that contains itself."""
    return Tree(1, [])


@command(effects="read_only")
def pair() -> Left:
    """Two records that contain each other."""
    return {"right": None}
