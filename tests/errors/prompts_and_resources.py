from burgee import command, prompt, resource


@command(effects="read_only", aliases=["resource"])
def items(x: int = 1) -> int:
    return x


@command(effects="read_only", name="prompt")
def taken() -> int:
    return 1


@prompt
def review(count: int) -> str:
    return "x"


@resource("mem://items/{name}")
def item(other: str) -> str:
    return other


@resource("not a uri")
def broken() -> str:
    return ""
