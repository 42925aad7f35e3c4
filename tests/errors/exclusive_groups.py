from pathlib import Path
from typing import Annotated

from burgee import Argument, Option, command

PAIRS = [("a", "b")]


@command(
    effects="read_only",
    exclusive=[("json_out", "csv_out"), ("jsn_out", "csv_out"), ("--json-out", "path")],
    one_of=[("name",), ("name", "ref", "name"), ("ask", 3)],
)
def export(
    path: Annotated[Path, Argument()],
    json_out: Path | None = None,
    csv_out: Path | None = None,
    name: str = "",
    ref: int | None = None,
    ask: Annotated[str, Option(prompt=True)] = "",
) -> None:
    """Groups that cannot work as written."""


@command(effects="read_only", exclusive=[("quiet", "verbose")], one_of=PAIRS)
def show(quiet: bool, verbose: bool = False) -> None:
    """A required option in a group, and groups that are no literal."""
