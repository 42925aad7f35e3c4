from burgee import command


@command()
def one() -> None:
    """No effects at all."""


@command(effects="mutating")
def two() -> None:
    """An effects value that does not exist."""


@command
def three() -> None:
    """A bare decorator."""
