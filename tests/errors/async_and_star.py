from burgee import command


@command(effects="read_only", examples="not a list", colour="red")
async def fetch(*urls: str, **options: str) -> None:
    """Star parameters are not supported (an async handler is fine)."""
