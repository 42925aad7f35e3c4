from burgee import Context, command


@command(effects="destructive", confirm="Drop {table} from {database}?")
def drop(table: str, ctx: Context = None) -> None:
    """A question that names a parameter the command does not have."""


@command(effects="destructive", confirm="Wipe {ctx} and {}?")
def wipe(ctx: Context = None) -> None:
    """A question that shows the context and a nameless field."""


@command(effects="destructive", confirm="Unbalanced {name?")
def purge(name: str) -> None:
    """A question that is no format string."""


@command(effects="destructive", confirm="Delete {name!r} ({name.upper}) {{ok}}?")
def delete(name: str) -> None:
    """A good question: conversions, attributes and doubled braces are fine."""
