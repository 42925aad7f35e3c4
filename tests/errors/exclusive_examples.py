from pathlib import Path

from burgee import command, program

program(name="exporter")


@command(
    effects="read_only",
    exclusive=[("json_out", "csv_out")],
    one_of=[("name", "ref")],
    examples=[
        "exporter export --json-out a --csv-out b --name x",
        "exporter export",
        "exporter export --json '{\"name\": \"a\", \"ref\": 2}'",
        "exporter export --name x --json-out a",
    ],
)
def export(
    json_out: Path | None = None,
    csv_out: Path | None = None,
    name: str | None = None,
    ref: int | None = None,
) -> str:
    """Examples that the tool would refuse."""
    return ""
