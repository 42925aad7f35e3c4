from typing import Annotated

from burgee import CommandError, Option, Outcome, command, program

program(name="odd", exit_codes={"internal": 2, "missing": 9, "timeout": 200})


class Nameless(Outcome):
    exit_code = 5


class OnUsage(Outcome):
    name = "on_usage"
    exit_code = 4


class Clash(CommandError):
    kind = "clash"
    exit_code = 6


class OnError(Outcome):
    name = "on_error"
    exit_code = 6


class Twice(Outcome):
    name = "on_error"
    exit_code = 7


@command(effects="read_only")
def flags(
    output: Annotated[str, Option("-o", "--output")] = "x",
    helper: Annotated[bool, Option("-h", shadows=True)] = False,
    plain: Annotated[str, Option(shadows=True)] = "",
    debug: Annotated[bool, Option(shadows=True)] = False,
) -> str:
    """Options that take tool-wide flags, with and without saying so."""
    return output


@command(effects="read_only", root=True)
def start(output: Annotated[str, Option("-o", shadows=True)] = "x") -> str:
    """A root command beside others takes over a tool-wide flag where the line reaches it."""
    return output
