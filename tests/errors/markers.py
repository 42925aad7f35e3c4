from burgee import command

# ---- burgee: end of code ----


@command(effects="read_only")
def hello() -> str:
    """A comment above that reads as one of burgee's own marker lines."""
    return """
# ---- burgee: loaded on first use: helpers ----
"""
