# burgee: joins head 28
"""Defaults made later: a handler's `Path(".")` costs no `pathlib` on every start.

Python makes a function's default values when the module defines it, so `def where(folder:
Path = Path("."))` would import `pathlib` (with `re`, `fnmatch` and `urllib.parse`, as much as
Python's own start-up) on every `--help`. The tool never uses those defaults: its tables give
the handler every value, and make a fresh one per call. So where a handlers file uses a name
while its module is defined only to make its functions' defaults (`read/runtime_use.py`,
`at_definition`: a constructed value of a standard type, docs/handlers.md "Defaults"), that
name's import waits for the first command with the others of the generated `_import_handlers`,
and meanwhile the name is a `_Later`, whose calls are noted (`_Pending`). `_made(globals())`,
the last line of `_import_handlers`, makes each noted default with the name it has just
imported, in its function's `__defaults__` and `__kwdefaults__` (a list's items in place).

Someone who imports the tool and calls such a function themselves (`tool.where()`, `from tool
import where`) gets it with its defaults made and its imports run: `_watch` gives the module a
class whose attribute lookup runs `_import_handlers` first when it hands out a function with a
noted default (`_Waiting`), then gives the module its own class back.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.execution.table import _import_once

if TYPE_CHECKING:
    from types import FunctionType


class _Later:
    """A name a function's default calls (`Path`, `dt.date`) until it is imported."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, name: str) -> _Later:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Later(f"{self._name}.{name}")

    def __call__(self, *args: object, **kwargs: object) -> _Pending:
        return _Pending(self._name, args, kwargs)


class _Pending:
    """A default a `_Later` noted: the name it calls, and with what."""

    __slots__ = ("args", "kwargs", "name")

    def __init__(self, name: str, args: tuple[object, ...], kwargs: dict[str, object]) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs

    def __repr__(self) -> str:
        return f"<{self.name}(...), made when the first command runs>"


def _fresh(value: object, namespace: dict[str, Any]) -> object:
    """`value` with what a `_Later` noted in it made (a list's items in place: it is the same
    list the function holds)."""
    if type(value) is _Pending:
        first, *rest = value.name.split(".")
        maker = namespace[first]
        for name in rest:
            maker = getattr(maker, name)
        return maker(*value.args, **value.kwargs)
    if type(value) is list:
        value[:] = [_fresh(item, namespace) for item in value]
    elif type(value) is tuple:
        return tuple(_fresh(item, namespace) for item in value)
    return value


def _noted(function: Any) -> bool:
    """Whether one of `function`'s defaults holds what a `_Later` noted."""
    values = [*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()]
    while values:
        value = values.pop()
        if type(value) is _Pending:
            return True
        if type(value) is list or type(value) is tuple:
            values.extend(value)
    return False


def _made(namespace: dict[str, Any]) -> None:
    """Make the defaults of the module's functions that a `_Later` noted, now that
    `_import_handlers` has imported what they call."""
    function = type(_made)
    made: FunctionType
    for made in list(namespace.values()):
        if type(made) is function and _noted(made):
            if made.__defaults__:
                made.__defaults__ = tuple(_fresh(v, namespace) for v in made.__defaults__)
            keywords = made.__kwdefaults__ or {}
            for key, default in keywords.items():
                keywords[key] = _fresh(default, namespace)
    module = sys.modules.get(namespace.get("__name__", ""))
    if type(module) is _Waiting:
        module.__class__ = type(sys)  # type: ignore[assignment]  # NOTE: nothing is noted now


class _Waiting(type(sys)):  # type: ignore[misc]
    """A tool's module until its handlers' imports run: handing out one of its functions with
    a noted default runs them first (`_watch`)."""

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if type(value) is type(_made) and _noted(value):
            namespace = super().__getattribute__("__dict__")
            if "PROGRAM" in namespace:  # NOTE: else the module is still being defined
                self.__class__ = type(sys)  # type: ignore[assignment]
                _import_once(namespace["PROGRAM"])
        return value


def _watch(namespace: dict[str, Any]) -> None:
    """Have the module of `namespace` run `_import_handlers` before it hands out a function
    with a noted default (`_Waiting`), if it is the module Python imported."""
    module = sys.modules.get(namespace.get("__name__", ""))
    if module is not None and module.__dict__ is namespace:
        module.__class__ = _Waiting
