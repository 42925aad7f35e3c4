from burgee import command


@command(effects="read_only")
def broken(name: str -> str:
    return name
