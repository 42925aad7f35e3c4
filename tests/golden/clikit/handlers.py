"""Clikit: what Typer, Click and Cyclopts users expect of a command-line tool.

A root command, aliases, any flag name, confirmation of destructive commands and an async
handler.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated, Any, BinaryIO, TextIO

import burgee
from burgee import Argument, Context, Option, command

burgee.program(name="clikit")


@command(effects="read_only", root=True, aliases=["hi"], examples=["clikit greet Ada --shout"])
def greet(
    name: Annotated[str, Argument(help="Who to greet")] = "world",
    shout: bool = False,
) -> str:
    """Greet someone; runs when the command line names no command.

    Args:
        shout: Greet in capitals.
    """
    text = f"Hello, {name}!"
    return text.upper() if shout else text


@command(
    effects="read_only", aliases=["ls", "l"], cardinality="bounded", examples=["clikit ls --from 2"]
)
def list_items(
    from_: Annotated[int, Option("--from", "-f", help="The first item", min=0)] = 0,
    to: Annotated[int, Option(max=100)] = 3,
) -> list[int]:
    """List the items from --from up to --to.

    Args:
        to: One past the last item.
    """
    return list(range(from_, to))


@command(
    effects="destructive",
    confirm="Delete {name} for good?",
    examples=["clikit delete report --yes"],
)
def delete(name: Annotated[str, Argument(help="What to delete")]) -> dict[str, str]:
    """Delete something; asks first, or needs --yes where nobody can answer."""
    return {"deleted": name}


@command(effects="destructive", confirm=False)
def reset(keep: int = 0) -> dict[str, int]:
    """Reset everything, without asking (confirm=False).

    Args:
        keep: How many to keep.
    """
    return {"kept": keep}


@command(effects="read_only", examples=["clikit fetch --delay 0.1"])
async def fetch(
    delay: Annotated[float, Option(min=0, max=5)] = 0.0,
    mark: Path | None = None,
    ctx: Context = None,
) -> dict[str, Any]:
    """Wait on an event loop, then answer; cancelled by --timeout and over MCP.

    Args:
        delay: How long to wait, in seconds.
        mark: A file that gets one line when the command ends, however it ends.
    """
    if mark is not None:
        ctx.on_exit(lambda: mark.open("a").write("on_exit\n"))
    try:
        await asyncio.sleep(delay)
    except asyncio.CancelledError:
        if mark is not None:
            mark.open("a").write("cancelled\n")
        raise
    return {"waited": delay}


def default_owner() -> str:
    """Who owns a new label unless --owner says: computed on every run."""
    return os.environ.get("CLIKIT_OWNER", "nobody")


@command(effects="read_only", examples=["clikit label -vv --size 2 3 -l team=core"])
def label(
    name: Annotated[
        str, Option(help="A lower-case name", pattern=r"^[a-z][a-z0-9-]*$", max_length=20)
    ] = "main",
    verbose: Annotated[int, Option("-v", count=True, help="Say more; repeat for more")] = 0,
    size: tuple[int, int] = (1, 1),
    tag: Annotated[dict[str, str], Option("-l", help="KEY=VALUE; repeat for more")] = {},
    *,
    owner: Annotated[str, Option(default_factory=default_owner, min_length=1)],
) -> dict[str, Any]:
    """Describe a label: a count flag, a tuple, a dict, a pattern and a computed default.

    Args:
        size: Width and height.
        owner: Who owns it.
    """
    return {"name": name, "verbose": verbose, "size": size, "tags": tag, "owner": owner}


@command(effects="non_idempotent", name="run", examples=["clikit run cowsay --json -p hi"])
def run_app(
    app: Annotated[str, Argument(help="The app to run")],
    args: Annotated[list[str], Argument(passthrough=True, help="The app's own arguments")] = [],
    python: Annotated[str, Option("-p", help="The Python to run it with")] = "3",
    isolated: bool = False,
    with_: Annotated[list[str], Option(nargs="+", help="More packages to install first")] = [],
) -> dict[str, Any]:
    """Run an app as `pipx run` does: every word after APP is the app's, --json and --help too."""
    return {"app": app, "args": args, "python": python, "isolated": isolated, "with": with_}


@command(effects="idempotent", examples=["clikit login --user ada --token s3cret"])
def login(
    user: Annotated[str, Option("-u", prompt="Your name")],
    token: Annotated[
        str, Option(help="Your API token", prompt=True, secret=True, env="CLIKIT_TOKEN")
    ],
) -> dict[str, Any]:
    """Log in; asks for what is missing at a terminal (the token hidden)."""
    return {"user": user, "token_length": len(token)}


@command(
    effects="read_only",
    exclusive=[("json_out", "csv_out")],
    one_of=[("name", "ref")],
    examples=["clikit export --name report -j out.json"],
)
def export(
    json_out: Annotated[
        Path | None, Option("-j", help="Write JSON here", dir_okay=False, writable=True)
    ] = None,
    csv_out: Annotated[Path | None, Option(help="Write CSV here")] = None,
    name: Annotated[str | None, Option(help="The item's name")] = None,
    ref: Annotated[int | None, Option(help="The item's number", min=1)] = None,
    compact: bool = False,
) -> dict[str, Any]:
    """Export one item, named or numbered, as JSON or CSV (as argparse's mutually exclusive
    groups: at most one output, exactly one item)."""
    return {"json_out": json_out, "csv_out": csv_out, "name": name, "ref": ref, "compact": compact}


@command(effects="read_only", examples=["clikit serve -h 0.0.0.0 --watch a.py b.py"])
def serve(
    host: Annotated[str, Option("-h", "--host", "--bind", help="The address to bind")] = "::1",
    watch: Annotated[list[str], Option("-w", nargs="+", help="The files to watch")] = [],
    size: Annotated[list[int], Option(nargs=2, help="The width and the height")] = [],
) -> dict[str, Any]:
    """Serve the items (Click's `-h` for the host, a second long flag, and argparse's nargs:
    several words after one flag)."""
    return {"host": host, "watch": watch, "size": size}


@command(effects="non_idempotent", examples=["clikit copy a.txt b.txt dest"])
def copy(
    sources: Annotated[list[str], Argument(metavar="SRC", help="What to copy")],
    target: Annotated[str, Argument(metavar="DST", help="Where to")],
    verbose: Annotated[bool, Option("-v", off=False, help="Say each file")] = False,
) -> dict[str, Any]:
    """Copy files (argparse's `SRC... DST`: the last word is the target)."""
    return {"sources": sources, "target": target, "verbose": verbose}


@command(effects="read_only", examples=["clikit tally notes.txt"])
def tally(
    sources: Annotated[list[TextIO], Argument(help="The files to count ('-': standard input)")],
    blob: Annotated[BinaryIO | None, Option(help="A file counted in bytes")] = None,
) -> dict[str, int]:
    """Count each file's lines (Click's `click.File`: the handler takes the files open)."""
    counts = {each.name: len(each.readlines()) for each in sources}
    if blob is not None:
        counts["bytes"] = len(blob.read())
    return counts
