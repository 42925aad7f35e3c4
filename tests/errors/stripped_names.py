import burgee
from burgee import Option, command, group

ro = command(effects="read_only")
store = group("store", help="The store.")


@command(effects="read_only")
def show(store: str = "main") -> str:
    """A parameter named like a group is the function's own; burgee's names as values are not."""
    return store + str(Option) + str(burgee.Option)


@store.command(effects="read_only")
def count() -> int:
    """A group's command: the decorator is burgee's, and goes."""
    return len(str(store))
