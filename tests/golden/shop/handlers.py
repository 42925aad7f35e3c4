"""Shop: places orders."""

from datetime import date
from typing import Annotated

from pydantic import BaseModel, Field

from burgee import command, program

program(name="shop", version="1.0.0", dependencies=["pydantic>=2"])


class Geo(BaseModel):
    """A place on the map."""

    lat: float = Field(ge=-90, le=90, description="Latitude")
    lon: float = Field(0.0, ge=-180, le=180)


class Address(BaseModel):
    """Where to ship."""

    city: str = Field(description="The city", min_length=1)
    zip_code: Annotated[str, Field(pattern=r"^[0-9]{5}$", alias="zip")] = "00000"
    geo: Geo | None = None


class Line(BaseModel):
    """One line of an order."""

    sku: str
    qty: int = Field(1, gt=0, lt=100)


class Order(BaseModel):
    """An order placed."""

    item: str
    ship_to: Address
    lines: list[Line] = Field(default_factory=list)
    when: date | None = None


@command(effects="non_idempotent")
def place(item: str, ship_to: Address, lines: list[Line] = [], rush: bool = False) -> Order:
    """Place an order.

    Args:
        item: What to order.
        ship_to: Where it goes.
        lines: The order's lines.
        rush: Ship it today.
    """
    return Order(item=item, ship_to=ship_to, lines=lines)


class Quote(BaseModel):
    """What a quote is asked for."""

    item: str = Field(description="What to price", max_length=20)
    qty: int = Field(1, ge=1, le=99)
    ship_to: Address | None = None


@command(effects="read_only")
def quote(request: Quote) -> Line:
    """Price an order before placing it: the command's only parameter is a model, so its
    fields are the command's own options and its JSON input is the model's object."""
    return Line(sku=request.item, qty=request.qty)


@command(effects="read_only")
def lines(count: int = 2) -> list[Line]:
    """The first lines of the catalogue: a list of models."""
    return [Line(sku=f"sku-{n}", qty=n + 1) for n in range(count)]


@command(effects="read_only")
def find(sku: str) -> Line | None:
    """One line, or none: an Optional model."""
    return Line(sku=sku, qty=1) if sku.startswith("sku-") else None
