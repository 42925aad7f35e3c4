"""Read a command function's parameters into `Param`s.

A command function's parameters → `Param`s (`Annotated[..., Argument()/Option()]`: flag names
`Option("--from", "-f")`, defaults, `complete=`, `count=`, `prompt=`, `default_factory=`,
`shadows=`; the markers' keywords read by `read/markers.py`; `Argument(passthrough=True)` only
on the last argument, a `list[str]`; a variadic argument only last, and never a list of tuples).
Every word an option answers to is its own (`Param.spellings`: a short, a long flag, a bool's
off forms).
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.ir import Param, TypeRef, cli_word
from burgee.model.kinds import CONSTRUCTED, FILES, python_type, spelling
from burgee.model.literals import py
from burgee.read.annotations import (
    NotLiteral,
    UnsupportedType,
    quoted,
    subscript_elements,
    without_none,
)
from burgee.read.checks import check_context_uses
from burgee.read.classes import read_type
from burgee.read.docstrings import Docstring
from burgee.read.flags import deprecation, metavar_fits, names, off_default, off_forms
from burgee.read.markers import (
    default_within,
    marker_settings,
    not_text,
    read_bounds,
    read_path_checks,
    read_text_rules,
)
from burgee.read.models import with_leaves
from burgee.read.reader import Parameter, Reader

_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def read_params(
    reader: Reader, node: ast.FunctionDef | ast.AsyncFunctionDef, doc: Docstring
) -> tuple[Param, ...]:
    """Every parameter of a command that could be read; problems go to the reader."""
    params: list[Param] = []
    fn = node.name
    parameters = reader.parameters(node)
    for param in parameters:
        if param.kind in ("*", "**"):
            reader.error(param, f"{fn}: *args and **kwargs cannot be command parameters")
    # NOTE: only a function whose text says `yield` is walked for one.
    found = _yields(node) if "yield" in reader.code(node) else []
    if found:
        reader.error(
            found[0],
            f"{fn} yields: a handler returns its whole answer; collect the items in a list "
            "and return it",
        )
    for param in parameters:
        if param.kind in ("*", "**"):
            continue
        before = len(reader.diagnostics)
        result = _read_param(reader, param, doc, fn)
        alias = reader.alias_uses.get((fn, param.name))
        if result is None and alias is not None:
            # NOTE: a problem of an alias' `Option(...)` is the alias', once, not each command's.
            here, there = reader.span(param), reader.span(reader.aliases[alias])
            reader.diagnostics[before:] = [
                d.model_copy(update={"span": there}) if d.span == here else d
                for d in reader.diagnostics[before:]
            ]
        if result is not None:
            # NOTE: the generated call passes these by position, the only way Python takes them.
            if param.kind == "positional_only":
                result = result.model_copy(update={"positional_only": True})
            params.append(result)
    _check_params(reader, params, fn)
    params = with_leaves(reader, params)
    context = next((p.name for p in params if p.role == "context"), None)
    if context is not None:
        check_context_uses(reader, node, context)
    return tuple(params)


def _yields(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    """The `yield`s of the function itself (not of a function or class inside it), in order:
    a generator would be run as a result, and fail every time."""
    found: list[ast.expr] = []
    todo: list[ast.AST] = list(node.body)
    while todo:
        item = todo.pop()
        if isinstance(item, (ast.Yield, ast.YieldFrom)):
            found.append(item)
        elif not isinstance(
            item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
        ):
            todo.extend(ast.iter_child_nodes(item))
    return sorted(found, key=lambda item: (item.lineno, item.col_offset))


def _read_param(reader: Reader, param: Parameter, doc: Docstring, fn: str) -> Param | None:
    name = param.name
    if param.annotation is None:
        reader.error(param, f"parameter {name!r} of {fn} needs a type annotation")
        return None
    annotation, alias = _aliased(reader, param.annotation, fn, name)
    split = _split_marker(reader, annotation, alias is not None, name)
    if split is None:
        return None
    base, marker = split
    # NOTE: `Optional[Context]` is the spelling a type checker accepts with the default None;
    # a string annotation ("Context | None") names the same.
    shown = without_none(quoted(base) or base, reader.names)
    if reader.api_name(quoted(shown) or shown) == "Context":
        return _context_param(reader, param, name, reader.span(param))
    role = "option"
    settings: dict[str, object] = {}
    #: Where each setting is written, for a problem with it.
    written: dict[str, ast.expr] = {}
    if isinstance(marker, ast.Call):
        read = marker_settings(reader, marker, name)
        if read is None:
            return None
        role, settings, written = read
    type_ref = _param_type(reader, param, base, settings=settings, written=written, fn=fn)
    if type_ref is None:
        return None
    defaults = _param_default(reader, param, settings, type_ref)
    if defaults is None:
        return None
    return _param_from_settings(
        reader,
        param,
        doc,
        role=role,
        settings=settings,
        written=written,
        type_ref=type_ref,
        defaults=defaults,
    )


def _aliased(
    reader: Reader, annotation: ast.expr, fn: str, name: str
) -> tuple[ast.expr, ast.Subscript | None]:
    """An alias declared once (`verbose: Verbose`, `read/shared.py`): read as written there,
    where the tool's copy has already lost its marker. The annotation to read, and the alias'
    own when it is one."""
    bare = without_none(annotation, reader.names)
    named = bare.id if isinstance(bare, ast.Name) else ""
    alias = reader.aliases.get(named)
    if alias is None:
        return annotation, None
    reader.alias_uses[(fn, name)] = named
    if bare is not annotation:
        # NOTE: `Optional[Verbose]`: the alias' `Annotated[T | None, ...]`, in its place.
        elements = subscript_elements(alias)
        nullable = ast.BinOp(left=elements[0], op=ast.BitOr(), right=ast.Constant(None))
        wrapped = ast.Tuple(elts=[ast.copy_location(nullable, annotation), *elements[1:]])
        alias = ast.copy_location(ast.Subscript(value=alias.value, slice=wrapped), alias)
    return alias, alias


def _split_marker(
    reader: Reader, annotation: ast.expr, aliased: bool, name: str
) -> tuple[ast.expr, ast.expr | None] | None:
    """`Annotated[T, Option(...)]`: the type and its marker (None when it has none); the tool's
    copy keeps the type without the marker. None after an error."""
    if not (
        isinstance(annotation, ast.Subscript)
        and reader.names.is_typing(annotation.value, "Annotated")
    ):
        return annotation, None
    elements = subscript_elements(annotation)
    base = elements[0]
    others = [e for e in elements[1:] if not _is_marker(reader, e)]
    markers = [e for e in elements[1:] if _is_marker(reader, e)]
    if len(markers) > 1:
        reader.error(markers[1], f"parameter {name!r} has more than one Argument/Option")
        return None
    marker = markers[0] if markers else None
    if marker is not None and not aliased:
        plain = reader.code(base) if not others else _without(reader, annotation, marker)
        reader.removals.replace(reader.text, annotation, plain)
    return base, marker


def _param_type(
    reader: Reader,
    param: Parameter,
    base: ast.expr,
    *,
    settings: dict[str, object],
    written: dict[str, ast.expr],
    fn: str,
) -> TypeRef | None:
    """The parameter's type, as the settings that need a type of their own (count=,
    passthrough=, secret=) take it; None after an error."""
    name = param.name
    try:
        type_ref = read_type(reader, base, "param")
    except UnsupportedType as exc:
        reader.error(exc.node, f"parameter {name!r} of {fn}: {exc.message}")
        return None
    if settings.get("count"):
        if type_ref.kind != "int" or type_ref.nullable:
            reader.error(param, f"count=True of {name!r} needs the type int, not {type_ref.source}")
            return None
        type_ref = type_ref.model_copy(update={"kind": "count"})
    if settings.get("passthrough") and not (
        type_ref.kind == "list" and type_ref.item is not None and type_ref.item.kind == "str"
    ):
        reader.error(
            written["passthrough"],
            f"passthrough=True of {name!r} needs the type list[str], not {type_ref.source}: "
            "it takes the words as they are given",
        )
        return None
    if settings.get("case_sensitive") is False and not _has_choices(type_ref):
        reader.error(
            written["case_sensitive"],
            f"case_sensitive=False of {name!r} needs a Literal or an Enum (a list or a tuple "
            f"of one), not {type_ref.source}: it is about which choice a word names",
        )
        return None
    if settings.get("secret"):
        unfit = not_text(type_ref)
        if unfit is not None:
            reader.error(
                written["secret"],
                f"secret=True of {name!r} needs a type whose values are text, not "
                f"{unfit}: it is written as the text <secret:{name}> in its place, which "
                f"{unfit} cannot hold; take it as str (pattern= can keep it to digits)",
            )
            return None
    return type_ref


#: The modes a file parameter is opened in (`Option(mode=...)`; `b` follows from `BinaryIO`).
_MODES = ("r", "w", "a", "x")


def _file_mode(
    reader: Reader,
    param: Parameter,
    settings: dict[str, object],
    written: dict[str, ast.expr],
    type_ref: TypeRef,
) -> str | Literal[False] | None:
    """A file parameter's `open()` mode (`TextIO`, `BinaryIO`, or a list of one), None for
    any other; False after an error."""
    name, given = param.name, settings.get("mode")
    item = type_ref.item if type_ref.kind == "list" and type_ref.item else type_ref
    if item.kind not in FILES:
        inner = (*item.items, *([item.value] if item.value else []))
        if any(each.kind in FILES for each in inner):
            reader.error(param, f"{name!r}: a file (TextIO, BinaryIO) is a parameter of its own")
            return False
        if given is not None:
            reader.error(
                written["mode"],
                f"mode= of {name!r} needs the type TextIO or BinaryIO, not {type_ref.source}: "
                "it is how the tool opens the file for the handler",
            )
            return False
        return None
    if given is not None and given not in _MODES:
        reader.error(
            written["mode"],
            f"mode= of {name!r} is 'r', 'w', 'a' or 'x' (BinaryIO adds the 'b'), not {given!r}",
        )
        return False
    if param.kind == "positional_only":
        reader.error(param, f"{name!r}: a file parameter is taken by name: move it after the /")
        return False
    return f"{given or 'r'}{'b' if item.kind == 'binaryfile' else ''}"


def _has_choices(ref: TypeRef) -> bool:
    """Whether a value of `ref` is, or holds, a Literal's or an Enum's choice."""
    if ref.kind in ("choice", "enum"):
        return True
    return any(_has_choices(item) for item in (*ref.items, *([ref.item] if ref.item else [])))


def _param_default(
    reader: Reader, param: Parameter, settings: dict[str, object], type_ref: TypeRef
) -> tuple[str | None, object, bool] | None:
    """The default as code, its value and whether the parameter is required; None after an
    error."""
    name = param.name
    default_code, default, required = None, None, True
    factory = settings.get("default_factory")
    if factory is not None and _is_ellipsis(param.default):
        default_code, required = f"{factory}()", False  # NOTE: `= ...`: the factory decides
    elif param.default is not None:
        if factory is not None:
            reader.error(param.default, f"{name!r} has both a default and default_factory=")
            return None
        found = _default(reader, param.default, type_ref, name)
        if found is None:
            return None
        default_code, default = found
        required = False
    elif factory is not None:
        default_code, required = f"{factory}()", False
    elif type_ref.kind == "count":
        default_code, default, required = "0", 0, False
    return default_code, default, required


def _param_from_settings(
    reader: Reader,
    param: Parameter,
    doc: Docstring,
    *,
    role: str,
    settings: dict[str, object],
    written: dict[str, ast.expr],
    type_ref: TypeRef,
    defaults: tuple[str | None, object, bool],
) -> Param | None:
    """The settings checked against the type and default, one after another, then the `Param`;
    None after the first error."""
    name = param.name
    default_code, default, required = defaults
    text_rules = read_text_rules(reader, param, settings, type_ref, name)
    if text_rules is None:
        return None
    prompt = _prompt(settings, doc, name)
    help_text = doc.params.get(name, "") if settings.get("help") is None else settings["help"]
    env = _env(reader, param, settings)
    if env is False:
        return None
    short, long, aliases = names(reader, param, settings, name)
    off = off_forms(reader, param, settings, type_ref, (short, long))
    if off is False:
        return None
    if off is not None and not off_default(
        reader, param, (short, long), off, default=default, required=required
    ):
        return None
    nargs = _nargs(reader, param, settings, type_ref, name)
    if nargs is False:
        return None
    word = settings.get("metavar")
    takes = _values_taken(type_ref, nargs, role)
    if word is not None and not metavar_fits(
        reader, written["metavar"], word, type_ref, name, takes=takes
    ):
        return None
    bounds = read_bounds(reader, param, settings, type_ref, name)
    if bounds is None or not default_within(reader, param, bounds, default, name):
        return None
    path = read_path_checks(reader, param, settings, type_ref, name)
    mode = _file_mode(reader, param, settings, written, type_ref) if path is not False else False
    if path is False or mode is False:
        return None
    return Param(
        name=name,
        role=role,  # type: ignore[arg-type]
        type=type_ref,
        help=str(help_text),
        short=short,
        long=long,
        aliases=aliases,
        env=env,
        hidden=bool(settings.get("hidden", False)),
        secret=bool(settings.get("secret", False)),
        complete=settings.get("complete"),  # type: ignore[arg-type]
        minimum=bounds[0],
        maximum=bounds[1],
        pattern=text_rules[0],
        min_length=text_rules[1],
        max_length=text_rules[2],
        path=path,
        prompt=prompt or None,
        default_factory=settings.get("default_factory"),  # type: ignore[arg-type]
        shadows=settings.get("shadows") is True,
        passthrough=settings.get("passthrough") is True,
        case_sensitive=settings.get("case_sensitive") is not False,
        mode=mode,
        off=off,
        metavar=word,  # type: ignore[arg-type]
        nargs=nargs,
        deprecated=deprecation(settings.get("deprecated", False)),
        required=required,
        default_code=default_code,
        default=default,
        span=reader.span(param),
    )


def _prompt(settings: dict[str, object], doc: Docstring, name: str) -> str | None:
    """`Option(prompt=...)`: the question asked for a missing value; prompt=True asks with the
    parameter's help (or its name)."""
    prompt = settings.get("prompt", False)
    if prompt is True:
        prompt = str(settings.get("help") or doc.params.get(name) or name.replace("_", " "))
    return prompt if isinstance(prompt, str) else None


def _env(
    reader: Reader, param: Parameter, settings: dict[str, object]
) -> str | tuple[str, ...] | Literal[False] | None:
    """`Option(env=...)`: the variable's name (or names, read in order: the first set wins),
    "" for env=False (none, not even the tool's prefix), None when unset; False after an
    error."""
    env = settings.get("env")
    if env is False:
        return ""
    if env is None:
        return None
    names = tuple(env) if isinstance(env, (tuple, list)) else (env,)
    if not names or not all(isinstance(n, str) and _ENV.match(n) for n in names):
        reader.error(
            param, f"env={env!r} of {param.name!r} must be a variable name (letters, digits, '_')"
        )
        return False
    strings = tuple(str(n) for n in names)
    return strings[0] if len(strings) == 1 else strings


def _values_taken(ref: TypeRef, nargs: int | str | None, role: str) -> int | None:
    """How many values an input takes after its flag (None: any number): a tuple's items
    (a list of tuples: each time), `nargs=N`; an argument's metavar names each of its words
    alike, so one."""
    item = ref.item if ref.kind == "list" and ref.item is not None else ref
    if role != "option":
        return 1
    if item.kind == "tuple":
        return len(item.items)
    if nargs is not None:
        return nargs if isinstance(nargs, int) else None
    return 1


def _nargs(
    reader: Reader, param: Parameter, settings: dict[str, object], ref: TypeRef, name: str
) -> int | str | Literal[False] | None:
    """`Option(nargs=...)`: "+", "*" or a number of words, on a list option of single values;
    False after an error."""
    nargs = settings.get("nargs")
    if nargs is None:
        return None
    item = ref.item if ref.kind == "list" else None
    if item is None or item.kind in ("tuple", "record", "dict", "list"):
        reader.error(
            param, f"nargs= of {name!r} needs a list option (list[str], ...), not {ref.source}"
        )
        return False
    fits = nargs in ("+", "*") or (type(nargs) is int and nargs >= 1)
    if not fits:
        reader.error(param, f"nargs= of {name!r} must be '+', '*' or a number of words (1 or more)")
        return False
    return nargs  # type: ignore[return-value]


def _singles(params: list[Param]) -> bool:
    """Arguments that each take one word and are required: a list argument may come before
    them (`copy SRC... DST`), which take the last words."""
    return all(
        p.required and p.type is not None and p.type.kind not in ("list", "tuple") for p in params
    )


def _is_marker(reader: Reader, node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and reader.api_name(node.func) in ("Argument", "Option")


def _is_ellipsis(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def _without(reader: Reader, annotation: ast.Subscript, marker: ast.expr) -> str:
    """`Annotated[T, "meta", Option()]` without its marker, as libcst printed it: the marker
    goes with what follows it up to the next element (or the closing bracket)."""
    elements = subscript_elements(annotation)
    index = elements.index(marker)
    text = reader.text
    start = text.start(marker)
    end = text.start(elements[index + 1]) if index + 1 < len(elements) else text.end(annotation) - 1
    whole = text.start(annotation)
    code = reader.code(annotation)
    return code[: start - whole] + code[end - whole :]


def _context_param(reader: Reader, param: Parameter, name: str, span: SourceSpan) -> Param | None:
    if param.default is not None:
        if not (isinstance(param.default, ast.Constant) and param.default.value is None):
            reader.error(param.default, f"the Context parameter {name!r} can only default to None")
            return None
        reader.removals.replace(reader.text, param.default, "INJECTED")
        # NOTE: `= None` needs a type checker's ignore in the handlers file; `INJECTED` (Any)
        # does not, and strict checkers reject an ignore that is not needed.
        end = reader.text.end(param.default)
        source = reader.text.source
        rest = source[end:].split("\n", 1)[0]
        line = source[source.rfind("\n", 0, end) + 1 : end] + rest
        found = _CONTEXT_IGNORE.match(rest)
        # NOTE: kept where another `= None` on the line may need it.
        if found and line.count("None") == 1:
            reader.removals.edits.append((end + found.start(1), end + found.end(1), ""))
    return Param(name=name, role="context", span=span)


#: The rest of the line of a Context parameter's `= None`: a type checker's ignore at its end,
#: after nothing but code (the end of a one-line signature: `) -> str:`).
_CONTEXT_IGNORE = re.compile(r"[^#\n]*?(\s*#\s*type:\s*ignore(?:\[assignment\])?)[ \t]*\r?$")


def _default(
    reader: Reader, node: ast.expr, type_ref: TypeRef, name: str
) -> tuple[str, object] | None:
    """The default's Python source and JSON value, if it is a literal the type accepts."""
    if type_ref.kind in FILES and not (isinstance(node, ast.Constant) and node.value is None):
        # NOTE: the handler's own default is a real stream; the tool's is its word, `-`.
        if reader.names.qualify(node) in ("sys.stdin", "sys.stdout"):
            return '"-"', "-"
        reader.error(
            node,
            f"the default of {name!r} is sys.stdin or sys.stdout (the word '-'), or None "
            "(Optional[TextIO]): a file's path is given when the tool runs",
        )
        return None
    if type_ref.kind == "enum" and isinstance(node, ast.Attribute):
        enum = next(e for e in reader.enums.values() if e.name == type_ref.name)
        member = node.attr
        values = dict(enum.members)
        if reader.code(node.value) == enum.name and member in values:
            return f"{enum.name}.{member}", values[member]
    if isinstance(node, ast.Call) and type_ref.kind in _CONSTRUCTORS:
        return _constructed_default(reader, node, type_ref, name)
    if isinstance(node, ast.List | ast.Tuple) and any(isinstance(e, ast.Call) for e in node.elts):
        return _constructed_items(reader, node, type_ref, name)
    if type_ref.kind == "dict" and isinstance(node, ast.Dict):
        if not node.keys:
            return "{}", {}
        reader.error(
            node,
            f"the default of {name!r} must be {{}}: a dict default cannot hold entries "
            "(fill them in inside the handler)",
        )
        return None
    if type_ref.kind == "tuple" and isinstance(node, ast.Tuple | ast.List):
        try:
            value = reader.literal(node, f"the default of {name!r}")
        except NotLiteral:
            return None
        if not isinstance(value, tuple) or len(value) != len(type_ref.items):
            reader.error(node, f"the default of {name!r} must be {len(type_ref.items)} values")
            return None
        return py(value), value
    try:
        value = reader.literal(node, f"the default of {name!r}")
    except NotLiteral:
        return None
    if value is None:
        if not type_ref.nullable:
            reader.error(node, f"{name!r} defaults to None, so its type must be Optional[...]")
            return None
        return "None", None
    if type_ref.kind == "list":
        if not isinstance(value, tuple):
            reader.error(node, f"the default of list parameter {name!r} must be a list")
            return None
        item = type_ref.item
        wrong = next((v for v in value if item is not None and _unfit(v, item)), _FITS)
        if item is not None and wrong is not _FITS:
            reader.error(node, f"the default of {name!r} holds {wrong!r}, {_unfit(wrong, item)}")
            return None
        return py(list(value)), value
    if isinstance(value, tuple):
        reader.error(node, f"the default of {name!r} must be a single value")
        return None
    problem = _unfit(value, type_ref)
    if problem:
        reader.error(node, f"the default of {name!r} is {value!r}, {problem}")
        return None
    return py(value), value


#: `_unfit`'s answer for a value its type takes.
_FITS = object()

#: The Python types of a literal default, by kind, and what the message calls them.
_LITERAL_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "str": ((str,), "a string"),
    "int": ((int,), "an integer"),
    "count": ((int,), "a count (0 or more)"),
    "float": ((int, float), "a number"),
    "bool": ((bool,), "True or False"),
}


def _unfit(value: object, type_ref: TypeRef) -> str:
    """Why a literal default is not a value of its parameter's type ("" when it is): the
    handler gets the default as written, so `x: int = "five"` would hand it a str."""
    kind = type_ref.kind
    if value is None and type_ref.nullable:
        return ""
    if kind in ("choice", "enum"):
        if not any(type(c) is type(value) and c == value for c in type_ref.choices):
            return f"not one of {', '.join(map(repr, type_ref.choices))}"
        return "" if kind == "choice" else f"not a member: write {type_ref.name}.NAME"
    if kind in _CONSTRUCTORS:
        return f"not a {kind}: write {_CONSTRUCTORS[kind][0]}(...)"
    if kind not in _LITERAL_TYPES:
        return ""
    # NOTE: the exact type: a bool is an int to Python, never to a tool.
    types, expected = _LITERAL_TYPES[kind]
    if type(value) not in types or (kind == "count" and value < 0):  # type: ignore[operator]
        return f"not {expected}"
    return ""


#: The default of these kinds may be the type's own constructor with literal arguments.
_CONSTRUCTORS = {kind: (spelling(kind), python_type(kind)) for kind in CONSTRUCTED}


def _constructed_items(
    reader: Reader, node: ast.List | ast.Tuple, type_ref: TypeRef, name: str
) -> tuple[str, object] | None:
    """A list's or tuple's default whose items are constructed (`[Path(".")]`): each item read
    as the default of its own type, the whole written as the parameter's kind writes it."""
    if type_ref.kind == "list" and type_ref.item is not None:
        items = [type_ref.item] * len(node.elts)
    elif type_ref.kind == "tuple" and len(type_ref.items) == len(node.elts):
        items = list(type_ref.items)
    elif type_ref.kind == "tuple":
        reader.error(node, f"the default of {name!r} must be {len(type_ref.items)} values")
        return None
    else:
        reader.error(node, f"the default of {name!r} must be a single value")
        return None
    read = [
        _default(reader, item_node, item, name)
        for item_node, item in zip(node.elts, items, strict=True)
    ]
    found = [one for one in read if one is not None]
    if len(found) < len(read):
        return None
    code = ", ".join(code for code, _ in found)
    if type_ref.kind == "list":
        return f"[{code}]", tuple(value for _, value in found)
    return f"({code}{',' if len(found) == 1 else ''})", tuple(value for _, value in found)


def _constructed_default(
    reader: Reader, node: ast.Call, type_ref: TypeRef, name: str
) -> tuple[str, object] | None:
    """A default like `Path(".")` or `date(2026, 1, 1)`: the type's own constructor, literal
    arguments. It is evaluated here, with the real standard-library class, for its JSON value."""
    qualified, cls = _CONSTRUCTORS[type_ref.kind]
    if reader.names.qualify(node.func) != qualified:
        reader.error(node, f"the default of {name!r} must be a literal or {qualified}(...)")
        return None
    args: list[object] = []
    given: list[ast.expr | ast.keyword] = [*node.args, *node.keywords]
    given.sort(key=lambda arg: (arg.lineno, arg.col_offset))
    for arg in given:
        if isinstance(arg, ast.keyword | ast.Starred):
            reader.error(arg, f"the default of {name!r}: use positional literal arguments")
            return None
        try:
            args.append(reader.literal(arg, f"an argument of the default of {name!r}"))
        except NotLiteral:
            return None
    try:
        value = cls(*args)
    except (TypeError, ValueError, ArithmeticError) as error:
        reader.error(node, f"the default of {name!r} is invalid: {error}")
        return None
    shown = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return reader.code(node), shown


def _check_params(reader: Reader, params: list[Param], fn: str) -> bool:
    ok = True
    contexts = [p for p in params if p.role == "context"]
    for extra in contexts[1:]:
        reader.diagnostics.append(
            _diag(extra, f"{fn} has more than one Context parameter ({extra.name!r})")
        )
        ok = False
    positionals = [p for p in params if p.role == "argument"]
    for index, param in enumerate(positionals):
        problems = _argument_problems(param, positionals[index + 1 :], fn)
        reader.diagnostics += [_diag(param, problem) for problem in problems]
        ok = ok and not problems
    # NOTE: every word an option answers to is its own: a short, a long flag, a bool's off form.
    spelled: dict[str, str] = {}
    for param in params:
        if param.role != "option":
            continue
        for word in param.spellings:
            if word in spelled:
                reader.diagnostics.append(
                    _diag(param, f"{word} is used by both {spelled[word]!r} and {param.name!r}")
                )
                ok = False
            spelled[word] = param.name
    return ok


def _argument_problems(param: Param, later: list[Param], fn: str) -> list[str]:
    """What keeps an argument from being read by position, given the arguments after it."""
    problems: list[str] = []
    assert param.type is not None
    kind = param.type.kind
    if kind in ("bool", "record"):
        problems.append(
            f"argument {param.name!r} of {fn}: a {kind} cannot be positional; make it an option"
        )
    if kind == "tuple" and not param.required:
        problems.append(
            f"argument {param.name!r} of {fn}: a tuple with a default cannot be "
            "positional (it takes all its items or none); make it an option"
        )
    item = param.type.item
    if kind == "list" and item is not None and item.kind == "tuple":
        problems.append(
            f"argument {param.name!r} of {fn}: a list of tuples cannot be positional "
            "(nothing would tell where one tuple ends); make it an option, repeated "
            f"as --{cli_word(param.name)} {' '.join(['VALUE'] * len(item.items))}"
        )
    if param.passthrough and later:
        problems.append(
            f"pass-through argument {param.name!r} of {fn} must be the last argument: "
            "every word from its first one is its"
        )
    elif kind == "list" and later and not _singles(later):
        # NOTE: argparse's `copy SRC... DST` (and Click's `nargs=-1` before another) leave
        # the last words for the single arguments after it; after a list, any other
        # argument (a list, a tuple, an optional one) would be a guess.
        after = ", ".join(f"{p.name!r} (--{cli_word(p.name)})" for p in later)
        problems.append(
            f"list argument {param.name!r} of {fn} must be the last argument: "
            f"make {after} an option, or move the list last"
        )
    if not param.required and any(p.required for p in later):
        problems.append(
            f"argument {param.name!r} of {fn} has a default, so every "
            "argument after it needs one too"
        )
    return problems


def _diag(param: Param, message: str) -> Diagnostic:
    return Diagnostic(span=param.span, message=message)
