from burgee import CommandError, command


class Missing(CommandError):
    kind = "missing"
    exit_code = 10


class MissingUser(Missing):
    """Inherits its kind and code: the same error, which is fine."""


class AlsoMissing(CommandError):
    kind = "missing"
    exit_code = 11


class Gone(CommandError):
    kind = "gone"
    exit_code = 10


@command(effects="read_only")
def ok() -> None:
    """Fine."""
