"""A Click program's own decorators that only add click's options: read as the options they add.

Real apps share options through a function of their own rather than repeat them on every
command (sqlite-utils' `@load_extension_option`, `@output_options`, `@insert_upsert_options()`,
sqlfluff's `@common_options`). `Factories` finds such functions at the top level of the module
and, at a command, gives the `click.option`/`click.argument` calls one adds, in the order a
stack of decorators written in their place would list them. What it reads:

- `def f(fn)` whose body applies options to `fn` and returns it: `return click.option(...)(fn)`,
  `fn = click.option(...)(fn)` (one after another), or a loop over a literal tuple (or a
  module-level tuple of options, or such tuples joined with `+`; an item may be another such
  decorator), reversed or not: `for d in reversed((...)): fn = d(fn)`;
- `def f(*, require_pk=False)` whose body defines such a function and returns it, used as
  `@f(require_pk=True)`: its parameters are replaced in the options by the values the
  decorator gives (or their defaults), each a value known before the program runs.

Anything else in such a function is not read: the decorator stays one a static reading cannot
follow (the reader's error says so).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from dataclasses import dataclass, field

#: Is this call click's `option` or `argument` (`click.option(...)`, `option(...)`)?
IsOption = Callable[[ast.expr], bool]


@dataclass
class _Factory:
    """One decorator function: its options in stack order, and its own parameters (with their
    defaults) when it is called to make the decorator."""

    options: list[ast.Call]
    params: dict[str, ast.expr | None] = field(default_factory=dict)
    called: bool = False


class Factories:
    """The option-adding decorators of one module (see the module's docstring)."""

    def __init__(self, is_option: IsOption, named: dict[str, ast.Call]) -> None:
        self.is_option = is_option
        #: `verbose = click.option(...)` at the top level (the Click reader's own table).
        self.named = named
        #: `_import_options = (click.option(...), ...)`: name -> each item's options.
        self.tuples: dict[str, list[list[ast.Call]]] = {}
        self.found: dict[str, _Factory] = {}

    def read_assign(self, statement: ast.Assign) -> None:
        """A module-level tuple (or list) of options, a loop of a decorator may name."""
        target = statement.targets[0] if len(statement.targets) == 1 else None
        if isinstance(target, ast.Name) and isinstance(statement.value, ast.Tuple | ast.List):
            units = self._options(statement.value.elts)
            if units is not None:
                self.tuples[target.id] = units

    def read_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether `node` is a decorator that only adds options (then it is recorded)."""
        if node.decorator_list or isinstance(node, ast.AsyncFunctionDef):
            return False
        arguments = node.args
        if arguments.vararg or arguments.kwarg or arguments.posonlyargs:
            return False
        simple = len(arguments.args) == 1 and not arguments.kwonlyargs
        if simple:
            options = self._applied(node.body, arguments.args[0].arg)
            if options is None:
                return False
            self.found[node.name] = _Factory(options)
            return True
        inner = _returned_function(node.body)
        if inner is None or arguments.args:
            return False
        made = len(inner.args.args) == 1 and not inner.decorator_list
        options = self._applied(inner.body, inner.args.args[0].arg) if made else None
        if options is None:
            return False
        params = dict(
            zip(
                (a.arg for a in arguments.kwonlyargs),
                arguments.kw_defaults,
                strict=True,
            )
        )
        self.found[node.name] = _Factory(options, params, called=True)
        return True

    def expand(self, decorator: ast.expr) -> list[ast.Call] | None:
        """The options a decorator adds, in stack order; None if it is none of these."""
        call = decorator if isinstance(decorator, ast.Call) else None
        target = call.func if call is not None else decorator
        found = self.found.get(target.id) if isinstance(target, ast.Name) else None
        if found is None or found.called is (call is None):
            return None
        if call is None:
            return list(found.options)
        if call.args or any(k.arg not in found.params for k in call.keywords):
            return None
        given = {**found.params, **{k.arg: k.value for k in call.keywords if k.arg}}
        if any(value is None for value in given.values()):
            return None  # NOTE: a required keyword the call does not give
        return [_replaced(option, given) for option in found.options]  # type: ignore[arg-type]

    def _options(self, nodes: list[ast.expr]) -> list[list[ast.Call]] | None:
        """Each node's options in stack order: an option call, the name of one, or the name of
        a decorator function found earlier; None if a node is none of these."""
        found: list[list[ast.Call]] = []
        for node in nodes:
            factory = self.found.get(node.id) if isinstance(node, ast.Name) else None
            if isinstance(node, ast.Call) and self.is_option(node.func):
                found.append([node])
            elif isinstance(node, ast.Name) and node.id in self.named:
                found.append([self.named[node.id]])
            elif factory is not None and not factory.called:
                found.append(list(factory.options))
            else:
                return None
        return found

    def _applied(self, body: list[ast.stmt], fn: str) -> list[ast.Call] | None:
        """The options a body applies to `fn` before returning it, in stack order."""
        applied: list[ast.Call] = []  # NOTE: in the order they are applied: the innermost first
        for statement in body:
            if _is_docstring(statement):
                continue
            if isinstance(statement, ast.Return) and statement.value is not None:
                chain = self._chain(statement.value, fn)
                # NOTE: a stack of decorators lists the last one applied first
                return None if chain is None else list(reversed([*applied, *chain]))
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and statement.targets[0].id == fn
            ):
                chain = self._chain(statement.value, fn)
                if chain is None:
                    return None
                applied += chain
            elif isinstance(statement, ast.For):
                looped = self._loop(statement, fn)
                if looped is None:
                    return None
                applied += looped
            else:
                return None
        return None

    def _chain(self, node: ast.expr, fn: str) -> list[ast.Call] | None:
        """`opt1(opt2(fn))`: the options in the order they are applied (`opt2` first)."""
        if isinstance(node, ast.Name) and node.id == fn:
            return []
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
            return None
        units = self._options([node.func])
        inner = self._chain(node.args[0], fn)
        if units is None or inner is None:
            return None
        return [*inner, *reversed(units[0])]

    def _loop(self, loop: ast.For, fn: str) -> list[ast.Call] | None:
        """`for d in reversed((...)): fn = d(fn)` (or without `reversed`): the options in the
        order it applies them."""
        if loop.orelse or not isinstance(loop.target, ast.Name) or len(loop.body) != 1:
            return None
        step = loop.body[0]
        name = loop.target.id
        if not (
            isinstance(step, ast.Assign)
            and len(step.targets) == 1
            and isinstance(step.targets[0], ast.Name)
            and step.targets[0].id == fn
            and isinstance(step.value, ast.Call)
            and isinstance(step.value.func, ast.Name)
            and step.value.func.id == name
            and len(step.value.args) == 1
            and isinstance(step.value.args[0], ast.Name)
            and step.value.args[0].id == fn
        ):
            return None
        over, backwards = loop.iter, False
        if (
            isinstance(over, ast.Call)
            and isinstance(over.func, ast.Name)
            and over.func.id == "reversed"
            and len(over.args) == 1
        ):
            over, backwards = over.args[0], True
        units = self._sequence(over)
        if units is None:
            return None
        # NOTE: each item applies its own options last-listed first, as a stack of them would
        ordered = reversed(units) if backwards else units
        return [option for unit in ordered for option in reversed(unit)]

    def _sequence(self, node: ast.expr) -> list[list[ast.Call]] | None:
        """A literal tuple (or list) of options, a module-level one by name, or those joined
        with `+`."""
        if isinstance(node, ast.Tuple | ast.List):
            return self._options(node.elts)
        if isinstance(node, ast.Name):
            return self.tuples.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self._sequence(node.left), self._sequence(node.right)
            return None if left is None or right is None else [*left, *right]
        return None


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _returned_function(body: list[ast.stmt]) -> ast.FunctionDef | None:
    """`def inner(fn): ...` followed by `return inner` (a docstring allowed before)."""
    statements = [s for s in body if not _is_docstring(s)]
    if len(statements) != 2:
        return None
    inner, returned = statements
    if (
        isinstance(inner, ast.FunctionDef)
        and isinstance(returned, ast.Return)
        and isinstance(returned.value, ast.Name)
        and returned.value.id == inner.name
    ):
        return inner
    return None


class _Substitute(ast.NodeTransformer):
    """The factory's parameters replaced by the expressions the decorator gives for them."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.given and isinstance(node.ctx, ast.Load):
            return ast.copy_location(copy.deepcopy(self.given[node.id]), node)
        return node


def _replaced(option: ast.Call, given: dict[str, ast.expr]) -> ast.Call:
    if not given:
        return option
    made = _Substitute(given).visit(copy.deepcopy(option))
    assert isinstance(made, ast.Call)
    return made
