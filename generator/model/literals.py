"""Python source for literal values and calls, as a careful person would write them."""

from __future__ import annotations

from collections.abc import Iterable

#: The longest line `call` writes flat; the generated module is formatted to 100 columns.
LINE = 99


def py(value: object) -> str:
    """Python source for a literal value, with double quotes where that needs no escapes."""
    if isinstance(value, str):
        code = repr(value)
        return f'"{code[1:-1]}"' if code[0] == "'" and '"' not in value else code
    if isinstance(value, tuple):
        items = [py(item) for item in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, list):
        return f"[{', '.join(py(item) for item in value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py(k)}: {py(v)}" for k, v in value.items()) + "}"
    return repr(value)


def call(
    func: str, args: Iterable[str], indent: str = "", prefix: str = "", suffix: str = ""
) -> str:
    """`prefix func(a, b)suffix` on one line when it fits, else one argument per line."""
    items = list(args)
    # NOTE: with no function name this writes a tuple, and a 1-tuple needs its comma.
    joined = items[0] + "," if not func and len(items) == 1 else ", ".join(items)
    flat = f"{indent}{prefix}{func}({joined}){suffix}"
    if len(flat) <= LINE and "\n" not in flat:
        return flat
    inner = "".join(f"{indent}    {item},\n" for item in items)
    return f"{indent}{prefix}{func}(\n{inner}{indent}){suffix}"
