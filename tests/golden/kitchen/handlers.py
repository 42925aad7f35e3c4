"""Kitchen: every type, a nested group, declared errors, and hostile text.

Help text must survive "double quotes", 'single quotes', \"\"\"triple quotes\"\"\",
back\\slashes, {{ jinja }}, {% blocks %}, 100% literal percents, and non-ASCII: café, 東京.
"""

from __future__ import annotations

import datetime as dt
import time as _time
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict
from uuid import UUID

import burgee
from burgee import Argument, Option, group
from burgee import Context as Ctx
from burgee import command as cmd

burgee.program(name="kitchen", version="2.1.0-rc.1")


class Color(Enum):
    """A primary color."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Level(Enum):
    LOW = 1
    HIGH = 2


class Point(TypedDict):
    """A point on the plane."""

    x: int
    y: int


@dataclass
class Anchor:
    """Where a shape is pinned.

    Args:
        at: The point it is pinned at.
        fixed: Whether it stays there.
    """

    at: Point
    fixed: bool = False


@dataclass
class Shape:
    """A shape with a name and corners: each leaf field is an option (`--shape.name`).

    Args:
        name: What it is called.
        anchor: Where it is pinned, if anywhere.
        corners: Its corners.
        color: Its color.
        origin: Where it starts.
        label: Printed beside it.
    """

    name: str
    anchor: Anchor | None = None
    corners: list[Point] = field(default_factory=list)
    color: Color | None = None
    origin: Point | None = None
    label: str = "shape"


@dataclass
class Report:
    """What `types` answers."""

    text: str
    number: int
    ratio: float
    flag: bool
    path: Path
    day: dt.date
    moment: dt.datetime
    at: dt.time
    ident: UUID
    amount: Decimal
    mode: str
    color: Color
    level: Level
    maybe: int | None
    items: list[int]


class Missing(burgee.CommandError):
    """The thing you asked for is not there."""

    kind = "missing"
    exit_code = 3


class Busy(Missing):
    """Try again in a moment."""

    kind = "busy"
    exit_code = 75
    retryable = True


@cmd(effects="read_only", examples=["kitchen types hello 3 --ratio 0.5"])
def types(
    text: Annotated[str, Argument(help='A "quoted" text with a \\ backslash')],
    number: Annotated[int, Argument(help="An integer")],
    ratio: float = 1.5,
    flag: bool = False,
    path: Path = Path("."),
    day: dt.date = dt.date(2026, 1, 1),
    moment: dt.datetime | None = None,
    at: dt.time | None = None,
    ident: UUID | None = None,
    amount: Decimal = Decimal("0.10"),
    mode: Literal["fast", "slow"] = "fast",
    color: Color = Color.RED,
    level: Level = Level.LOW,
    maybe: int | None = None,
    item: Annotated[list[int], Option("-i", help="Repeat me")] = [],
) -> Report:
    """Echo every supported type back, converted.

    Args:
        ratio: A float, 100% of it.
        flag: A boolean with --flag/--no-flag.
    """
    return Report(
        text=text,
        number=number,
        ratio=ratio,
        flag=flag,
        path=path,
        day=day,
        moment=moment or dt.datetime(2026, 1, 1, 12, 0),
        at=at or dt.time(9, 30),
        ident=ident or UUID(int=0),
        amount=amount,
        mode=mode,
        color=color,
        level=level,
        maybe=maybe,
        items=item,
    )


@cmd(effects="non_idempotent", name="draw")
def draw_shape(shape: Shape, scale: float = 1.0, ctx: Ctx = None) -> dict[str, Any]:
    """Draw a shape, given by its fields or as JSON.

    Args:
        shape: The shape.
        scale: How much to scale it.
    """
    return {
        "name": shape.name,
        "corners": [{"x": p["x"] * scale, "y": p["y"] * scale} for p in shape.corners],
        "color": shape.color,
        "anchor": shape.anchor,
        "origin": shape.origin,
        "label": shape.label,
        "command": ctx.command,
    }


@cmd(effects="read_only")
def fail(
    how: Annotated[Literal["missing", "busy", "crash", "print"], Argument(help="How to fail")],
) -> str:
    """Fail in the way you ask for."""
    if how == "missing":
        raise Missing("there is no such thing", hint="try another thing")
    if how == "busy":
        raise Busy("the kitchen is busy")
    if how == "print":
        print("a handler wrote this to stdout")
        return "printed"
    raise RuntimeError("the oven exploded")


@cmd(effects="idempotent", hidden=True)
def secret_sauce() -> list[str]:
    """A hidden command: runs, but is not listed."""
    return ["salt", "{{ not jinja }}", "{% raw %}"]


store = group("store", help="Stock operations.")
shelf = store.group("shelf", help="One shelf of the store.")


@store.command(effects="destructive", examples=["kitchen store wipe --yes"])
def wipe(force: bool = False) -> dict[str, bool]:
    """Wipe the store; asks first (--yes skips the question)."""
    return {"wiped": True, "force": force}


@shelf.command(effects="read_only", cardinality="bounded")
def count(
    names: Annotated[list[str], Argument(help="Names to count")],
    ctx: Ctx,
) -> list[dict[str, Any]]:
    """Count letters in each name."""
    return [{"name": n, "letters": len(n)} for n in names]


@shelf.command(effects="withheld")
def nap(seconds: float = 0.0) -> None:
    """Sleep, then answer nothing."""
    _time.sleep(seconds)


def shelf_names(partial: str, context: dict[str, Any]) -> list[tuple[str, str]]:
    """Complete a shelf name; the store (--store) chooses the shelves."""
    if partial == "boom":
        raise RuntimeError("a completer that fails offers nothing")
    store = context["options"].get("store", "main")
    shelves = {"main": ["apples", "apricots", "bread"], "back": ["boxes", "brooms"]}
    return [(name, f"a shelf of {store}") for name in shelves.get(store, [])]


def sizes(partial: str) -> list[str]:
    """Complete a size: called with the partial word alone."""
    print("completers may print; the shell never sees it")
    return ["small", "medium", "large"]


@store.command(effects="read_only", examples=["kitchen store pick apples --size small"])
def pick(
    shelf: Annotated[str, Argument(help="The shelf", complete=shelf_names)],
    store: Annotated[Literal["main", "back"], Option("-s", help="Which store")] = "main",
    size: Annotated[str, Option(help="How big", complete=sizes)] = "medium",
    count: int = 1,
    into: Path | None = None,
) -> dict[str, Any]:
    """Pick something from a shelf."""
    return {"shelf": shelf, "store": store, "size": size, "count": count, "into": into}


@store.command(effects="idempotent", examples=["kitchen store restock apples --deep --no-color"])
def restock(
    shelf: Annotated[str, Argument(help="The shelf", complete=shelf_names, metavar="SHELF_NAME")],
    into: Annotated[Path | None, Option(metavar="DIR", help="Where the stock comes from")] = None,
    shallow: Annotated[
        bool, Option("-S", "--shallow", off="--deep", help="Only the front row")
    ] = True,
    color: Annotated[bool, Option("--no-color", help="Plain labels")] = True,
    force: Annotated[bool, Option(off=False, help="Restock a full shelf")] = False,
    no_cache: bool = False,
) -> dict[str, Any]:
    """Restock a shelf: a flag pair, an off form alone, a flag with no off form."""
    return {"shelf": shelf, "shallow": shallow, "color": color, "force": force, "cache": not no_cache}
