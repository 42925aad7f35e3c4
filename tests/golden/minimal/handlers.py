from burgee import command


@command(effects="read_only")
def hello(name: str = "world") -> str:
    """Say hello."""
    return f"Hello, {name}!"
