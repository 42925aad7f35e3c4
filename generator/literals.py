"""Python source for literal values, as a careful person would write them."""

from __future__ import annotations


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
