"""Diffy: compares texts line by line, the way diff does (exit 1 when they differ)."""

from typing import Annotated, Literal

from burgee import Argument, Option, Outcome, command, program

# NOTE: `internal` moves to 70 (EX_SOFTWARE), so 1 is free for the outcome `differ`.
program(name="diffy", version="1.0.0", exit_codes={"internal": 70})


class Differ(Outcome):
    """The texts differ; the answer lists the lines that differ."""

    name = "differ"
    exit_code = 1


@command(effects="read_only", cardinality="bounded", examples=["diffy compare 'a b' 'a b'"])
def compare(
    left: Annotated[str, Argument(help="The first text; words are lines")],
    right: Annotated[str, Argument(help="The second text; words are lines")],
) -> list[str]:
    """Compare two texts: the lines only one of them has, marked - and +."""
    old, new = left.split(), right.split()
    changed = [f"-{line}" for line in old if line not in new]
    changed += [f"+{line}" for line in new if line not in old]
    if changed:
        raise Differ(changed)
    return []


@command(effects="read_only", examples=["diffy label notes -o upper --version 2"])
def label(
    name: Annotated[str, Argument(help="What the label names")],
    output: Annotated[
        Literal["upper", "lower"],
        Option("-o", "--output", help="The label's case", shadows=True),
    ] = "lower",
    version: Annotated[int, Option(help="The label's version", min=1, shadows=True)] = 1,
) -> str:
    """Make a versioned label; its -o and --version are its own, not the tool's."""
    text = f"{name} v{version}"
    return text.upper() if output == "upper" else text.lower()
