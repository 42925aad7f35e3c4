from burgee import command, group

tasks = group("tasks")


class Tools:
    @command(effects="read_only")
    def method(self, x: int) -> int:
        """A method cannot be a command: nothing would create the instance."""
        return x


def outer() -> object:
    @tasks.command(effects="read_only")
    def inner(x: int) -> int:
        """A nested function cannot be a command: the tool cannot reach it."""
        return x

    return inner


@command(effects="read_only")
@command(effects="read_only", name="hi")
def greet(name: str = "world") -> str:
    """Two @command decorators on one function."""
    return name


@command(effects="read_only")
def fine() -> None:
    """A command."""
