import enum
import uuid
from decimal import Decimal
from pathlib import Path
from dataclasses import dataclass
from typing import Annotated, Literal, Optional

from burgee import Option, command


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


class Color(enum.Enum):
    RED = "red"


@dataclass
class Login:
    user: str
    password: str


@command(effects="read_only")
def unlock(
    pin: Annotated[int, Option(secret=True)] = 0,
    ratio: Annotated[float, Option(secret=True)] = 0.0,
    flag: Annotated[bool, Option(secret=True)] = False,
    codes: Annotated[list[int], Option(secret=True)] = [],
    maybe: Annotated[Optional[float], Option(secret=True)] = None,
    pair: Annotated[tuple[str, int], Option(secret=True)] = ("a", 1),
    table: Annotated[dict[str, int], Option(secret=True)] = {},
    choice: Annotated[Literal[1, 2], Option(secret=True)] = 1,
    level: Annotated[Level, Option(secret=True)] = Level.LOW,
    login: Annotated[Optional[Login], Option(secret=True)] = None,
    # NOTE: text, each of them: accepted.
    token: Annotated[str, Option(secret=True)] = "",
    key: Annotated[Optional[uuid.UUID], Option(secret=True)] = None,
    amount: Annotated[Decimal, Option(secret=True)] = Decimal("0"),
    paths: Annotated[list[Path], Option(secret=True)] = [],
    headers: Annotated[dict[str, str], Option(secret=True)] = {},
    color: Annotated[Color, Option(secret=True)] = Color.RED,
    mode: Annotated[Literal["a", "b"], Option(secret=True)] = "a",
) -> str:
    """Secrets whose values are numbers, booleans or records: refused."""
    return "ok"
