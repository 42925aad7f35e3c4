import burgee.runtime.core.kinds
from burgee import command
from burgee.write.generate import generate
from burgee.markers import Option as Opt


@command(effects="read_only")
def hello() -> str:
    """Say hello."""
    return str(generate) + str(Opt) + str(burgee.runtime.core.kinds)


@command(effects="read_only")
def run() -> str:
    """A command function named as a function of the generated module."""
    return "ran"


@command(effects="read_only", name="start")
def main() -> str:
    """Named otherwise, but its function still takes the generated module's `main`."""
    return "started"
