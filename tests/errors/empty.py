"""A handlers file with no commands in it."""


def helper() -> int:
    return 1
