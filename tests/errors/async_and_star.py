from burgee import command


@command(effects="read_only", examples="not a list", colour="red")
async def fetch(*urls: str, **options: str) -> None:
    """Async handlers and star parameters are not supported."""
