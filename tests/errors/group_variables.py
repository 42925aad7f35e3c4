"""Groups that are not: a misspelled group variable, a command used as a group, a reserved name."""

import typer  # NOTE: another library's `app.command` is left alone

from burgee import command, group

notes = group("notes")
sub = note.group("sub")
output = group("output")
app = typer.Typer()


@command(effects="read_only")
def show() -> str:
    """Show."""
    return "s"


@show.command(effects="read_only")
def add() -> str:
    """Add."""
    return "a"


@zzz.command
def other() -> str:
    """Other."""
    return "o"


@app.command()
def typed() -> str:
    """Typer's own."""
    return "t"


@later.command(effects="read_only")
def early() -> str:
    """Its group is made only below."""
    return "e"


later = group("later")


@list.command(effects="read_only")
def builtin() -> str:
    """A builtin is no group."""
    return "b"
