"""Stubs of runtime names, for the generated module's `if TYPE_CHECKING:` block.

The runtime a tool carries is compiled from a string (`runtime/start/boot.py`), so linters and
type checkers do not see it; code outside the string that names it (the handlers, the
tables, a user's `tool.invoke(...)`) needs its names declared. `stubs()` writes each one
from the runtime module that binds it (`runtime/catalog.py`'s chunks): a function's
signature as written with `...` for a body, a class's bases, attributes and methods, a
variable's type (with its value when that is short, so ruff sees it bound), and, in turn,
every runtime name those mention and the standard-library imports they need.

`stubs()`: what type checkers and linters see of runtime names that live only in the compiled
string, for the generated module's `if TYPE_CHECKING:` block: each name as the runtime module
that binds it writes it (`catalog.parse`'s chunks, read with `ast`), a function's signature
(annotations, decorators, defaults as written when they are literals or names, else `...`) over
a body of `...`, a class's bases, attributes (the `self.x` its methods set, typed from their
annotation, the parameter they come from or their value) and methods, a variable's type
(declared, or read off its value; `Any` only where neither tells) with its value when that is
short and literal (ruff sees a name only declared as undefined where its value is used), a
`TYPE_CHECKING` alias or TypeVar as written; then every runtime name those mention,
transitively, and the runtime modules' standard-library imports they need (as the generated
module spells them: `import datetime as _datetime`). `defined=`: names the module binds itself
(its tables, `PROGRAM`), neither stubbed nor followed. A name the runtime does not bind is a
`LookupError`.
"""

from __future__ import annotations

import ast
import copy
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from burgee.render.format import formatted
from burgee.render.imports import ImportBlock
from burgee.runtime.catalog import BOOT, HEAD, TAIL, parse

_MODULES = (BOOT, *HEAD, *TAIL)
#: What a variable's value may be made of and be kept (never run: ruff sees the name bound),
#: besides operators.
_LITERAL = (ast.Constant, ast.Name, ast.Attribute, ast.Load, ast.UnaryOp, ast.BinOp)
_COLLECTIONS = (ast.Tuple, ast.List, ast.Set, ast.Dict)
#: The longest value kept as written.
_SHORT = 60
_ANY = "Any"
_ELLIPSIS = ast.Constant(value=...)


@dataclass(frozen=True)
class _Binding:
    """One top-level statement of the runtime that binds a name."""

    #: Its place in the runtime, in the order the modules join: its chunk's, then its own.
    position: tuple[int, int]
    module: str
    node: ast.stmt
    #: From a module's `if TYPE_CHECKING:` block (a TypeVar, an alias): kept as written.
    checking: bool
    #: Each `# type: ignore[...]` on a header of its (a class's, a def's): the header's
    #: first words (`class _Choices`) -> the comment, which the stub's header keeps.
    ignores: tuple[tuple[str, str], ...] = ()


class _Index:
    """Each name the runtime binds -> the statements of the first module that binds it (an
    overloaded function has several). A chunk is parsed when a name of it is first asked
    for: a tool stubs a few dozen names, and parsing every chunk of the runtime was a third
    of a large program's rendering."""

    def __init__(self) -> None:
        self.chunks = [(module, chunk) for module in _MODULES for chunk in parse(module)[0]]
        #: Each name -> the numbers of its chunks.
        self.where: dict[str, list[int]] = {}
        for number, (module, chunk) in enumerate(self.chunks):
            for name in chunk.binds:
                here = self.where.setdefault(name, [number])
                if self.chunks[here[0]][0] == module and number not in here:
                    here.append(number)
        self.parsed: dict[int, tuple[_Binding, ...]] = {}

    def __contains__(self, name: str) -> bool:
        return name in self.where

    def __getitem__(self, name: str) -> tuple[_Binding, ...]:
        return tuple(b for number in self.where[name] for b in self._bindings(number))

    def get(self, name: str) -> tuple[_Binding, ...] | None:
        return self[name] if name in self.where else None

    def _bindings(self, number: int) -> tuple[_Binding, ...]:
        found = self.parsed.get(number)
        if found is None:
            module, chunk = self.chunks[number]
            checking = chunk.text.startswith("\t")
            tree = ast.parse(chunk.text.removeprefix("\t"), type_comments=True)
            found = self.parsed[number] = tuple(
                _Binding(
                    (number, at),
                    module,
                    node,
                    checking,
                    tuple(_ignored_headers(node, tree.type_ignores)),
                )
                for at, node in enumerate(tree.body)
            )
        return found


@cache
def _index() -> _Index:
    return _Index()


def _ignored_headers(node: ast.stmt, ignores: list[ast.TypeIgnore]) -> Iterator[tuple[str, str]]:
    """The headers of `node` and its members that carry a `# type: ignore`, and the comment."""
    tags = {found.lineno: found.tag for found in ignores}
    for inner in ast.walk(node):
        if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            lines = range(inner.lineno, inner.body[0].lineno)
            tag = next((tags[line] for line in lines if line in tags), None)
            if tag is not None:
                word = "class" if isinstance(inner, ast.ClassDef) else "def"
                yield f"{word} {inner.name}", f"  # type: ignore{tag}"


@cache
def _imports(module: str) -> dict[str, str]:
    """The names a runtime module imports from the standard library -> the import's text."""
    return {found.binds: found.text for found in parse(module)[1]}


def stubs(names: Iterable[str], *, defined: Iterable[str] = ()) -> str:
    """The stubs of the runtime names `names` and of every runtime name they mention, after
    the imports they need: Python for an `if TYPE_CHECKING:` block (unindented). `defined`:
    names the module defines itself (its own tables), neither stubbed nor followed."""
    index = _index()
    wanted = sorted(set(names))
    unknown = [name for name in wanted if name not in index]
    if unknown:
        raise LookupError(f"the runtime binds no name {', '.join(map(repr, unknown))}")
    skipped = set(defined)
    done: set[str] = set()
    chosen: dict[tuple[int, int], list[ast.stmt]] = {}
    ignores: dict[str, str] = {}
    block = ImportBlock()
    # NOTE: a class only a stub's parameters name (`Context.__init__`'s `program: Program`):
    # its users get one from the runtime and pass it on, so its name is enough.
    named: dict[str, tuple[int, int]] = {}
    while wanted:
        name = wanted.pop()
        if name in done or name in skipped:
            continue
        done.add(name)
        for binding in index[name]:
            if binding.position in chosen:
                continue
            stub = chosen[binding.position] = _stub(binding)
            ignores.update(binding.ignores)
            passed = {n for statement in stub for n in _passed(statement)}
            for used in sorted({n for statement in stub for n in _loads(statement)}):
                text = _imports(binding.module).get(used)
                if text is not None:
                    block.add_source(text)
                elif used in passed and _is_class(used):
                    named.setdefault(used, index[used][0].position)
                elif used in index:
                    wanted.append(used)
                elif used == _ANY:
                    block.add_source("from typing import Any")
    for name, position in named.items():
        if name not in done and name not in skipped:
            chosen[position] = [ast.ClassDef(name, [], [], [ast.Expr(_ELLIPSIS)], [])]
    if not chosen:
        return ""
    code = "\n\n".join(_text(chosen[p], ignores) for p in sorted(chosen))
    text = f"{block.render()}\n{code}" if block.bound() else code
    # NOTE: laid out as the caller's block will be: indented, under an `if`.
    wrapped = formatted(f"if TYPE_CHECKING:\n{textwrap.indent(text, '    ')}\n", "stubs.py")
    return textwrap.dedent(wrapped.split("\n", 1)[1])


def _text(statements: list[ast.stmt], ignores: dict[str, str]) -> str:
    """The stubs' code, with the `# type: ignore` comments of the headers that had one."""
    module = ast.fix_missing_locations(ast.Module(body=statements, type_ignores=[]))
    lines = ast.unparse(module).splitlines()
    for number, line in enumerate(lines):
        words = line.lstrip().removeprefix("async ").replace("(", " ").replace(":", " ").split()
        comment = ignores.get(" ".join(words[:2]))
        if comment is not None and line.endswith(":"):
            lines[number] += comment
    return "\n".join(lines)


def _passed(node: ast.AST) -> set[str]:
    """The names a stub reads only in its functions' parameters' annotations (what a caller
    passes in), nowhere else (what a function returns, an attribute's type, a base class)."""
    parameters = {
        id(n)
        for function in ast.walk(node)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for a in ast.walk(function.args)
        if isinstance(a, ast.arg) and a.annotation is not None
        for n in ast.walk(a.annotation)
    }
    passed: set[str] = set()
    elsewhere: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and type(n.ctx) is ast.Load:
            (passed if id(n) in parameters else elsewhere).add(n.id)
    return passed - elsewhere


def _is_class(name: str) -> bool:
    bindings = _index().get(name)
    return bindings is not None and isinstance(bindings[0].node, ast.ClassDef)


def _loads(node: ast.AST) -> set[str]:
    """The names a stub reads (its own names, which it binds, are not asked for)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and type(n.ctx) is ast.Load}


def _stub(binding: _Binding) -> list[ast.stmt]:
    node = binding.node
    if binding.checking:
        return [node]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return [_function(node)]
    if isinstance(node, ast.ClassDef):
        return [_class(node)]
    if isinstance(node, ast.AnnAssign):
        assert isinstance(node.target, ast.Name)
        return [_variable(node.target.id, _unquoted(node.annotation), node.value)]
    assert isinstance(node, ast.Assign), ast.dump(node)
    if isinstance(node.value, ast.Name) and _kept(node.value):
        return [node]  # NOTE: an alias stays an alias
    if not all(isinstance(t, ast.Name) for t in node.targets):
        names = sorted({n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)})
        return [_variable(name, _type(_ANY), None) for name in names]
    annotation = _type(_infer(node.value, {}) or _ANY)
    return [
        _variable(t.id, annotation, node.value) for t in node.targets if isinstance(t, ast.Name)
    ]


def _variable(name: str, annotation: ast.expr, value: ast.expr | None) -> ast.AnnAssign:
    kept = value if value is not None and _kept(value) else None
    return ast.AnnAssign(
        target=ast.Name(id=name, ctx=ast.Store()), annotation=annotation, value=kept, simple=1
    )


def _kept(value: ast.expr) -> bool:
    """Whether a value is short, literal, and names only what is bound (so written as is)."""
    if len(ast.unparse(value)) > _SHORT:
        return False
    kinds = (*_LITERAL, *_COLLECTIONS, ast.operator, ast.unaryop)
    if not all(isinstance(n, kinds) for n in ast.walk(value)):
        return False
    # NOTE: `ast.unparse` writes "\uff5c" as the character, which ruff's RUF001 rejects.
    if any(isinstance(n, ast.Constant) and not str(n.value).isascii() for n in ast.walk(value)):
        return False
    return all(_bound(n.id) for n in ast.walk(value) if isinstance(n, ast.Name))


@cache
def _bound(name: str) -> bool:
    """Whether a name's stub binds it (a def, a class, a variable whose value is kept): ruff
    sees a name that is only declared (`NAME: T`) as undefined where its value is used."""
    bindings = _index().get(name)
    node = bindings[0].node if bindings and not bindings[0].checking else None
    if not isinstance(node, ast.Assign | ast.AnnAssign):
        return True
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    simple = all(isinstance(t, ast.Name) for t in targets)
    return node.value is not None and simple and _kept(node.value)


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
    args = node.args
    arguments = ast.arguments(
        posonlyargs=[_argument(a) for a in args.posonlyargs],
        args=[_argument(a) for a in args.args],
        vararg=args.vararg and _argument(args.vararg),
        kwonlyargs=[_argument(a) for a in args.kwonlyargs],
        kw_defaults=[d and _default(d) for d in args.kw_defaults],
        kwarg=args.kwarg and _argument(args.kwarg),
        defaults=[_default(d) for d in args.defaults],
    )
    stub = copy.copy(node)
    stub.args, stub.body = arguments, [ast.Expr(value=_ELLIPSIS)]
    stub.returns = node.returns and _unquoted(node.returns)
    return stub


def _argument(arg: ast.arg) -> ast.arg:
    return ast.arg(arg=arg.arg, annotation=arg.annotation and _unquoted(arg.annotation))


def _default(value: ast.expr) -> ast.expr:
    """A default as written when it is a literal or a name; else `...` (mypy takes it in a
    function whose body is `...`)."""
    return value if _kept(value) else _ELLIPSIS


def _unquoted(annotation: ast.expr) -> ast.expr:
    """`"str | None"` as `str | None`: `runtime/start/boot.py` quotes what Python 3.9 cannot
    evaluate; the stubs are never evaluated (and ruff's UP037 wants them unquoted)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _type(annotation.value)
    return annotation


def _type(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def _class(node: ast.ClassDef) -> ast.ClassDef:
    record = _is_record(node)
    body: list[ast.stmt] = []
    for item in node.body:
        body.extend(m for m in _member(item, node, record) if record or _public(m))
    methods = {i.name for i in node.body if isinstance(i, ast.FunctionDef | ast.AsyncFunctionDef)}
    declared = _declared(node) | methods
    attributes = [
        _variable(name, annotation, None)
        for name, annotation in _instance_attributes(node)
        if name not in declared and name not in _inherited(node) and _public_name(name)
    ]
    stub = copy.copy(node)
    stub.body = [*attributes, *body] or [ast.Expr(value=_ELLIPSIS)]
    return stub


def _public(member: ast.stmt) -> bool:
    """Whether a class's member is for its users: the runtime's own (`_name`) are left out of
    its stub (Python parses a script's stubs on every run; a dunder stays)."""
    if isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name):
        return _public_name(member.target.id)
    if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return _public_name(member.name)
    return True


def _public_name(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _is_record(node: ast.ClassDef) -> bool:
    """A dataclass or a NamedTuple: its attributes' defaults make its constructor's."""
    names = {_last(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
    return "dataclass" in names or "NamedTuple" in {_last(b) for b in node.bases}


def _last(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else _name(node)


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else ""


def _member(item: ast.stmt, owner: ast.ClassDef, record: bool) -> Iterator[ast.stmt]:
    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
        yield _function(item)
    elif isinstance(item, ast.ClassDef):
        yield _class(item)
    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
        value = item.value if record else None
        yield ast.AnnAssign(item.target, _unquoted(item.annotation), value, simple=1)
    elif isinstance(item, ast.Assign):
        for target in item.targets:
            if not isinstance(target, ast.Name) or target.id == "__slots__":
                continue
            if target.id not in _inherited(owner):
                kind = _infer(item.value, {})
                yield _variable(target.id, _type(kind or _ANY), None)


def _declared(node: ast.ClassDef) -> set[str]:
    """The names a class body binds itself."""
    found: set[str] = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(item.name)
        elif isinstance(item, ast.AnnAssign | ast.Assign):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def _inherited(node: ast.ClassDef) -> set[str]:
    """The attributes a class's runtime bases declare (a subclass's value needs no type)."""
    found: set[str] = set()
    for base in node.bases:
        bindings = _index().get(base.id) if isinstance(base, ast.Name) else None
        parent = bindings[0].node if bindings else None
        if isinstance(parent, ast.ClassDef):
            found |= _declared(parent) | _inherited(parent)
            found |= {name for name, _ in _instance_attributes(parent)}
    return found


def _instance_attributes(node: ast.ClassDef) -> list[tuple[str, ast.expr]]:
    """Each `self.NAME = ...` of the class's methods, with its type: the annotation, else
    the parameter's it is set from, else what its value says, else Any."""
    found: dict[str, ast.expr] = {}
    for method in node.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or not method.args.args:
            continue
        this = method.args.args[0].arg
        arguments = method.args
        scope = {
            a.arg: ast.unparse(_unquoted(a.annotation))
            for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
            if a.annotation is not None
        }
        for statement in ast.walk(method):
            if not isinstance(statement, ast.Assign | ast.AnnAssign):
                continue
            annotation = getattr(statement, "annotation", None)
            targets = getattr(statement, "targets", [getattr(statement, "target", None)])
            for target in targets:
                if not (isinstance(target, ast.Attribute) and _name(target.value) == this):
                    continue
                if annotation is not None:
                    found[target.attr] = _unquoted(annotation)
                elif target.attr not in found:
                    found[target.attr] = _type(_infer(statement.value, scope) or _ANY)
    return sorted(found.items(), key=lambda item: item[0])


def _infer(value: ast.expr | None, scope: dict[str, str]) -> str | None:
    """The type of a value, as text, where a glance tells it; None where it does not."""
    if value is None:
        return None
    if isinstance(value, ast.Constant):
        return "None" if value.value is None else type(value.value).__name__
    if isinstance(value, ast.JoinedStr):
        return "str"
    if isinstance(value, ast.Name):
        return scope.get(value.id) or _variable_type(value.id)
    if isinstance(value, ast.UnaryOp):
        return _infer(value.operand, scope)
    if isinstance(value, ast.BinOp):
        sides = {_infer(value.left, scope), _infer(value.right, scope)}
        return "float" if sides == {"int", "float"} else sides.pop() if len(sides) == 1 else None
    if isinstance(value, ast.IfExp):
        return _infer(value.body, scope)
    if isinstance(value, ast.Subscript):
        return _item(_infer(value.value, scope), value.slice)
    if isinstance(value, ast.Tuple):
        items = [kind for kind in (_infer(e, scope) for e in value.elts) if kind is not None]
        if not items or len(items) < len(value.elts):
            return None
        return f"tuple[{items[0]}, ...]" if len(set(items)) == 1 else f"tuple[{', '.join(items)}]"
    if isinstance(value, ast.List | ast.Set):
        inner = _joined([_infer(e, scope) for e in value.elts])
        return inner and f"{type(value).__name__.lower()}[{inner}]"
    if isinstance(value, ast.Dict):
        keys = _joined([_infer(k, scope) if k is not None else None for k in value.keys])
        values = _joined([_infer(v, scope) for v in value.values])
        return keys and values and f"dict[{keys}, {values}]"
    if isinstance(value, ast.Call):
        return _called(value, scope)
    return None


def _called(value: ast.Call, scope: dict[str, str]) -> str | None:
    if not isinstance(value.func, ast.Name):
        return None
    name = value.func.id
    bindings = _index().get(name)
    if bindings and isinstance(bindings[0].node, ast.ClassDef):
        return name
    if name in ("str", "int", "float", "bool", "bytes", "object") and not bindings:
        return name
    collection = value.args[0] if len(value.args) == 1 else None
    if name in ("frozenset", "set", "list", "tuple") and isinstance(
        collection, ast.Tuple | ast.List | ast.Set
    ):
        inner = _joined([_infer(e, scope) for e in collection.elts])
        return inner and (f"tuple[{inner}, ...]" if name == "tuple" else f"{name}[{inner}]")
    return None


def _joined(types: list[str | None]) -> str | None:
    """One type for the items of a collection, as mypy joins them."""
    if not types or None in types:
        return None
    distinct = list(dict.fromkeys(t for t in types if t is not None))
    if len(distinct) == 1:
        return distinct[0]
    if len(distinct) == 2 and "None" in distinct:
        return f"{next(t for t in distinct if t != 'None')} | None"
    return "object"


def _item(kind: str | None, key: ast.expr | None) -> str | None:
    """The type of an item of a value of type `kind` (`key`: its index; None: any item, or
    a dict's key)."""
    if kind is None:
        return None
    tree = _type(kind)
    if not isinstance(tree, ast.Subscript) or not isinstance(tree.value, ast.Name):
        return None
    outer = tree.value.id
    inner = tree.slice.elts if isinstance(tree.slice, ast.Tuple) else [tree.slice]
    if outer == "dict" and len(inner) == 2:
        return ast.unparse(inner[1] if key is not None else inner[0])
    if outer in ("list", "set", "frozenset") and len(inner) == 1:
        return ast.unparse(inner[0])
    if outer != "tuple":
        return None
    if len(inner) == 2 and isinstance(inner[1], ast.Constant) and inner[1].value is ...:
        return ast.unparse(inner[0])
    if (
        isinstance(key, ast.Constant)
        and type(key.value) is int
        and -len(inner) <= key.value < len(inner)
    ):
        return ast.unparse(inner[key.value])
    return _joined([ast.unparse(i) for i in inner])


@cache
def _variable_type(name: str) -> str | None:
    """The declared or inferred type of a runtime variable (None for anything else)."""
    bindings = _index().get(name)
    if not bindings or bindings[0].checking:
        return None
    node = bindings[0].node
    if isinstance(node, ast.AnnAssign):
        return ast.unparse(_unquoted(node.annotation))
    if isinstance(node, ast.Assign):
        return _infer(node.value, {})
    return None
