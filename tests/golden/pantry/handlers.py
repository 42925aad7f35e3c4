"""A pantry served to agents: tools, prompts, resources, a command that logs and one that
asks."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from burgee import Argument, Context, Option, command, program, prompt, resource

program(name="pantry", version="1.0.0")

ITEMS = {"flour": 3, "sugar": 0, "salt": 1}


@dataclass
class Item:
    """One shelf of the pantry."""

    name: str
    count: int


@command(effects="read_only")
def stock(name: Annotated[str, Argument(help="What to look up")]) -> Item:
    """How much of one item there is."""
    return Item(name=name, count=ITEMS.get(name, 0))


@command(effects="idempotent")
def restock(steps: int = 3, ctx: Context = None) -> int:
    """Restock every shelf, logging as it goes.

    Args:
        steps: How many rounds.
    """
    ctx.log("debug", "starting", steps=steps)
    for step in range(steps):
        ctx.progress(step + 1, steps)
        time.sleep(0.02)
        ctx.log("info", f"round {step + 1} of {steps}")
    ctx.log("warning", "sugar is still low", item="sugar")
    return steps


@command(effects="read_only")
def wait(seconds: float = 10.0, ctx: Context = None) -> bool:
    """Wait until the time is up or the caller cancels; True when cancelled."""
    cancelled = ctx.cancelled.wait(seconds)
    ctx.log("notice", "wait: cancelled" if cancelled else "wait: done")
    return cancelled


@command(effects="non_idempotent", examples=["pantry use flour --answer use-last=yes"])
def use(name: Annotated[str, Argument(help="What to take")], ctx: Context = None) -> Item:
    """Take one of an item, asking first when it is the last one, and for what."""
    count = ITEMS.get(name, 0)
    if count == 1 and not ctx.confirm(f"Take the last {name}?", name="use-last"):
        return Item(name=name, count=count)
    meal = ctx.ask("For which meal?", choices=["breakfast", "lunch", "dinner"], default="dinner")
    ctx.log("info", f"{name} taken for {meal}")
    return Item(name=name, count=max(count - 1, 0))


def stores(partial: str, context: dict[str, Any]) -> list[str | tuple[str, str]]:
    """The stores a shopping list may be for (`completion/complete` offers them)."""
    return [("Lidl", "discount"), ("Leclerc", "hypermarket"), "Monoprix"]


def shelves(partial: str) -> list[str]:
    """The items there are, for `pantry://items/{name}`."""
    return list(ITEMS)


@prompt
def shopping_list(store: Annotated[str, Option(complete=stores)], budget: str = "20") -> str:
    """Write a shopping list for what is running out.

    Args:
        store: Where to shop.
        budget: How much to spend, in euros.
    """
    low = ", ".join(name for name, count in ITEMS.items() if count < 2)
    return f"Write a shopping list for {store} (at most {budget} euros): {low}."


@prompt(name="recipe")
def suggest(
    dish: str, course: Literal["starter", "main", "dessert"] = "main"
) -> list[dict[str, str]]:
    """Suggest a recipe from what is in stock.

    Args:
        dish: The dish to cook.
        course: Which course it is.
    """
    as_course = "" if course == "main" else f", as a {course}"
    return [
        {"role": "user", "content": f"What do I need for {dish}{as_course}?"},
        {"role": "assistant", "content": "Let me check the pantry first."},
    ]


@resource("pantry://inventory", mime_type="application/json")
def inventory() -> dict[str, int]:
    """Every item and how many there are."""
    return ITEMS


@resource("pantry://notes")
def notes() -> str:
    """The pantry's notes, as plain text."""
    return "Buy sugar before Friday.\n"


@resource("pantry://items/{name}", mime_type="application/json")
def item(name: Annotated[str, Argument(complete=shelves)]) -> Item:
    """One item, by name."""
    return Item(name=name, count=ITEMS.get(name, 0))


@resource("pantry://labels/{name}.bin")
def label(name: str) -> bytes:
    """A shelf label, as bytes."""
    return name.encode() + b"\x00"
