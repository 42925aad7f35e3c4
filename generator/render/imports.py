"""The generated module's import block: the runtime's imports merged into the user's, sorted.

The result follows isort's conventions (sections, `import x` before `from x import y`,
names ordered CONSTANTS, Classes, functions), so `ruff check` finds nothing to reorder.
"""

from __future__ import annotations

import ast
import sys

#: The longest line of a module gen writes (pyproject's `line-length`, which ruff keeps).
LIMIT = 100


class ImportBlock:
    """Import statements, keyed so that the same import is never written twice."""

    def __init__(self) -> None:
        #: (module, alias) for `import module [as alias]`.
        self.plain: set[tuple[str, str | None]] = set()
        #: module -> {(name, alias)} for `from module import name [as alias]`.
        self.names: dict[str, set[tuple[str, str | None]]] = {}
        #: Statements kept as written (star imports, relative imports).
        self.verbatim: list[str] = []

    @classmethod
    def of(cls, code: str) -> ImportBlock:
        """The import statements in `code`."""
        block = cls()
        block.add_source(code)
        return block

    def add_source(self, code: str) -> None:
        """Add every import statement in `code`."""
        if not code.strip():
            return
        for node in ast.parse(code).body:
            self._add_node(node, code)

    def _add_node(self, node: ast.stmt, code: str) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.plain.add((alias.name, alias.asname))
        elif isinstance(node, ast.ImportFrom):
            if node.level or node.module is None or node.names[0].name == "*":
                self.verbatim.append(ast.get_source_segment(code, node) or ast.unparse(node))
                return
            names = self.names.setdefault(node.module, set())
            for alias in node.names:
                names.add((alias.name, alias.asname))

    def without(self, other: ImportBlock) -> ImportBlock:
        """These imports but those `other` has (the same name from the same module)."""
        left = ImportBlock()
        left.plain = self.plain - other.plain
        for module, names in self.names.items():
            kept = names - other.names.get(module, set())
            if kept:
                left.names[module] = kept
        left.verbatim = [line for line in self.verbatim if line not in other.verbatim]
        return left

    def bound(self) -> set[str]:
        """The names these imports bind in the module."""
        found = {alias or module.split(".")[0] for module, alias in self.plain}
        for names in self.names.values():
            found |= {alias or name for name, alias in names}
        return found

    def render(self, width: int = LIMIT, indent: str = "") -> str:
        """The sorted import block, each line after `indent` (a block under `def` or `if
        TYPE_CHECKING:`), one longer than `width` with its indent wrapped."""
        sections: dict[int, list[tuple[int, str, str]]] = {}
        for module, alias in self.plain:
            line = f"import {module}" + (f" as {alias}" if alias else "")
            sections.setdefault(_section(module), []).append((0, module.lower(), line))
        for module, names in self.names.items():
            items = sorted(names, key=lambda item: _name_key(item[0]))
            text = ", ".join(name + (f" as {alias}" if alias else "") for name, alias in items)
            line = f"from {module} import {text}"
            if len(indent) + len(line) > width:
                inner = "".join(f"{indent}    {part.strip()},\n" for part in text.split(","))
                line = f"from {module} import (\n{inner}{indent})"
            sections.setdefault(_section(module), []).append((1, module.lower(), line))
        blocks = [
            "\n".join(indent + line for *_, line in sorted(entries))
            for _, entries in sorted(sections.items())
        ]
        if self.verbatim:
            blocks.append("\n".join(indent + line for line in self.verbatim))
        return "\n\n".join(blocks) + "\n"


def _section(module: str) -> int:
    top = module.split(".", maxsplit=1)[0]
    if top == "__future__":
        return 0
    return 1 if top in sys.stdlib_module_names else 2


def _name_key(name: str) -> tuple[int, str, str]:
    # NOTE: isort's `order-by-type`: CONSTANTS, then Classes, then everything else, each
    # compared without regard to case.
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower(), name
