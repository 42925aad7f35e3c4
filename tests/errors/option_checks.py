from typing import Annotated, Literal

from burgee import Option, command


@command(effects="read_only")
def options(
    verbose: bool = False,
    no_verbose: bool = False,
    mode: Literal["a\nb", "c"] = "c",
    tab: Literal["x\ty"] = "x\ty",
    token: Annotated[str, Option(env="A;B")] = "",
    count: Annotated[int, Option(min=1, max=5)] = 9,
    low: Annotated[float, Option(min=0.5)] = 0.25,
    sizes: Annotated[list[int], Option(max=10)] = [1, 20],
    blob: str = b"bytes",
) -> None:
    """Options that cannot work as written."""


@command(effects="read_only")
def caching(
    sure: Annotated[bool, Option(off=False)],
    no_cache: bool = False,
    colour: Annotated[bool, Option("--no-colour")] = False,
    shout: Annotated[bool, Option("--shout/--whisper")] = False,
    force: Annotated[bool, Option(off=False)] = True,
    level: Annotated[int, Option(off="--flat")] = 1,
    input: Annotated[bool, Option("--no-input", off="--input")] = True,
    deep: Annotated[bool, Option("--deep", off="--deep")] = False,
    shallow: Annotated[bool, Option(off="--no-cache")] = False,
    odd: Annotated[bool, Option(off="deep")] = False,
    named: Annotated[bool, Option(metavar="YES")] = False,
    spaced: Annotated[str, Option(metavar="TWO WORDS")] = "",
    loud: Annotated[int, Option("-l", count=True, max=3)] = 0,
    pair: Annotated[list[str], Option(nargs=2, metavar="A B C")] = [],
    many: Annotated[list[str], Option(nargs="+", metavar="A B")] = [],
) -> None:
    """Bool options whose flags cannot change their default, or are spelled wrong."""
