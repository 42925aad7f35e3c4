import burgee
from burgee import command, ask_user
from burgee import Option as Opt, resourcez


@command(effects="read_only")
def hello() -> str:
    """Say hello."""
    return "hi"


@burgee.commandz(effects="read_only")
def other() -> str:
    """Another."""
    return burgee.nothing_here
