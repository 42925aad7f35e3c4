"""The values a static reading of a Typer or Click program can know before it runs
(`Constants.fold`): literals, the file's module-level constants, and those of the modules of
the app's own package it imports them from (`from uvicorn.config import LIFESPAN`, read with
`ast` as the file is, never imported), strings joined or formatted of them, a little
arithmetic, a dict's keys (`list(LOG_LEVELS.keys())`), `int(...)`/`str(...)` of such, a
constant of a standard library module `_CONSTANT_MODULES` names (`ssl.CERT_NONE`: its value on
the Python gen runs on), and `importlib.metadata.version("name")` (the version in the
`*.dist-info` beside the package, as `version_option()` reads it). Anything else is
`Unreadable`."""

from __future__ import annotations

import ast
import importlib
import operator
from collections.abc import Callable
from pathlib import Path
from typing import Any

from burgee.read.imports import installed_version

#: The arithmetic a constant may be written with (`10 * 1024 * 1024`); a power's exponent is
#: kept small, so folding never builds a huge number.
_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}
#: The calls of a value that a static reading folds (the builtin of that name, not shadowed).
_CONVERSIONS: dict[str, Callable[[Any], object]] = {
    "int": int, "str": str, "float": float, "list": tuple, "tuple": tuple, "sorted": sorted,
}  # fmt: skip
#: The standard library modules whose constants are read by importing them in gen (a module
#: of no side effects on import; `antigravity` opens a browser): `ssl.CERT_NONE`.
_CONSTANT_MODULES = frozenset((
    "csv", "errno", "logging", "os", "re", "signal", "socket", "ssl", "stat", "subprocess",
    "zlib",
))  # fmt: skip
#: How deep imports of the app's own modules are followed (a module importing another's
#: constant, which imports a third's).
_DEPTH = 3


class Unreadable(Exception):
    """A value that is not known before the program runs."""


class _Keys(tuple):  # type: ignore[type-arg]
    """A dict's keys, where its values are not all known: `list(D.keys())`, `list(D)`."""


class Constants:
    """The module-level names of one file whose values are known, and the folding of
    expressions of them."""

    def __init__(self, tree: ast.Module, path: str, depth: int = 0) -> None:
        self.path = path
        self.values: dict[str, object] = {}
        #: Names bound to standard-library modules (`import ssl`), to `importlib.metadata`'s
        #: `version`, and to the builtins this file does not rebind.
        self.modules: dict[str, str] = {}
        self.version_calls: set[str] = set()
        bound = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        }
        self.builtins = {name: f for name, f in _CONVERSIONS.items() if name not in bound}
        for statement in tree.body:
            if isinstance(statement, ast.Import):
                for alias in statement.names:
                    root = alias.name.split(".")[0]
                    if root in _CONSTANT_MODULES:
                        local = alias.asname or root
                        self.modules[local] = alias.name if alias.asname else root
            elif isinstance(statement, ast.ImportFrom) and not statement.level:
                self.imported(statement, depth)
            elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value:
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    try:
                        self.values[targets[0].id] = self.value(statement.value)
                    except Unreadable:
                        self.values.pop(targets[0].id, None)

    def imported(self, statement: ast.ImportFrom, depth: int) -> None:
        """`from importlib.metadata import version`, and the constants a module of the app's
        own package gives (`from uvicorn.config import LIFESPAN`, `from cookiecutter import
        __version__`)."""
        module = statement.module or ""
        if module == "importlib.metadata":
            self.version_calls |= {
                a.asname or a.name for a in statement.names if a.name == "version"
            }
            return
        found = _own_module(self.path, module) if depth < _DEPTH else None
        if found is None:
            return
        try:
            tree = ast.parse(found.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            return
        theirs = Constants(tree, str(found), depth + 1)
        for alias in statement.names:
            if alias.name in theirs.values:
                self.values[alias.asname or alias.name] = theirs.values[alias.name]

    def fold(self, node: ast.expr) -> object:
        """The value of `node`, known before the program runs; raise `Unreadable` if not (a
        dict's keys alone are no value)."""
        value = self.value(node)
        if isinstance(value, _Keys):
            raise Unreadable
        return value

    def value(self, node: ast.expr) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name) and node.id in self.values:
            return self.values[node.id]
        if isinstance(node, (ast.List, ast.Tuple)):
            return tuple(self.fold(item) for item in node.elts)
        if isinstance(node, ast.Dict):
            return self.dict_keys(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = self.fold(node.operand)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return -value
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            return self.arithmetic(node)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append(str(value.value))
                elif isinstance(value, ast.FormattedValue) and value.format_spec is None:
                    parts.append(str(self.fold(value.value)))
                else:
                    raise Unreadable
            return "".join(parts)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return self.stdlib_constant(node.value.id, node.attr)
        if isinstance(node, ast.Call) and not node.keywords and len(node.args) <= 1:
            return self.call(node)
        raise Unreadable

    def dict_keys(self, node: ast.Dict) -> _Keys:
        if any(key is None for key in node.keys):
            raise Unreadable  # NOTE: `{**other}`
        return _Keys(self.fold(key) for key in node.keys if key is not None)

    def arithmetic(self, node: ast.BinOp) -> object:
        left, right = self.fold(node.left), self.fold(node.right)
        if isinstance(left, str) and isinstance(right, str) and isinstance(node.op, ast.Add):
            return left + right
        numbers = (int, float)
        if (
            isinstance(left, numbers)
            and isinstance(right, numbers)
            and not isinstance(left, bool)
            and not isinstance(right, bool)
            and abs(left) < 2**64
            and abs(right) < 256
        ):
            return _ARITHMETIC[type(node.op)](left, right)
        raise Unreadable

    def call(self, node: ast.Call) -> object:
        """`int(X)`, `list(D.keys())`, `sorted(D)`, `version("name")`."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "keys" and not node.args:
            value = self.value(func.value)
            if isinstance(value, _Keys):
                return value
            raise Unreadable
        if not (isinstance(func, ast.Name) and len(node.args) == 1):
            raise Unreadable
        if func.id in self.version_calls:
            name = self.fold(node.args[0])
            found = installed_version(self.path, name) if isinstance(name, str) else None
            if found is None:
                raise Unreadable
            return found
        convert = self.builtins.get(func.id)
        if convert is None:
            raise Unreadable
        value = self.value(node.args[0])
        if isinstance(value, _Keys) and func.id in ("list", "tuple", "sorted"):
            value = tuple(value)
        try:
            result = convert(value)
        except (TypeError, ValueError):
            raise Unreadable from None
        return tuple(result) if isinstance(result, list) else result

    def stdlib_constant(self, module: str, name: str) -> object:
        """`ssl.CERT_NONE`: a standard library module's constant (upper case: `sys.platform`
        is the machine's, not one value) that is a number or a string, as the Python gen runs
        on has it (an `IntEnum` member: its number)."""
        if module not in self.modules or not name.isupper():
            raise Unreadable
        try:
            value = getattr(importlib.import_module(self.modules[module]), name)
        except (ImportError, AttributeError):
            raise Unreadable from None
        for kind in (bool, int, float, str):
            if isinstance(value, kind):
                return kind(value)
        raise Unreadable


def _own_module(path: str, module: str) -> Path | None:
    """The file of `module` when it is a module of the package that holds `path` (an
    absolute import of the app's own package: `from uvicorn.config import ...` in
    uvicorn/main.py), else None."""
    package = Path(path).resolve().parent
    if not (package / "__init__.py").is_file():
        return None
    while (package.parent / "__init__.py").is_file():
        package = package.parent
    parts = module.split(".")
    if parts[0] != package.name:
        return None
    base = package.parent.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None
