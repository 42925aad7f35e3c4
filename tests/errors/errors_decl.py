from burgee import CommandError, command


class NoKind(CommandError):
    exit_code = 3


class BadKind(CommandError):
    kind = "Not Snake"
    exit_code = 3


class Usage(CommandError):
    kind = "usage"
    exit_code = 9


class TakenCode(CommandError):
    kind = "taken"
    exit_code = 2


@command(effects="read_only")
def ok() -> None:
    """Fine."""
