from typing import Annotated
from burgee import Option, command, program
program(name="inf", version="1.0.0")


@command(effects="read_only")
def f(x: float = 1e400, y: Annotated[float, Option(max=1e999)] = 1.0) -> float:
    """F."""
    return x
