"""`@prompt` and `@resource` functions → `Prompt` and `Resource` (the MCP surfaces beside tools).

`@prompt` and `@resource(uri)` functions → `Prompt` and `Resource` (a prompt's arguments are
`str` or a `Literal` of strings; URI template placeholders = parameters; `complete=` on either).
"""

from __future__ import annotations

import ast
import re

from burgee.model.diagnostics import Diagnostic
from burgee.model.ir import COMMAND_NAME, NAME_RULE, Param, Prompt, Resource, cli_word
from burgee.read import docstrings
from burgee.read.annotations import NotLiteral
from burgee.read.params import read_params
from burgee.read.reader import Decorator, Reader

#: `scheme:rest`, the start every URI has.
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S*$")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: The types a URI template's placeholder may have: one value, spelled in the URI.
_URI_KINDS = ("str", "int", "float", "choice", "enum", "uuid", "date", "decimal")


def placeholders(uri: str) -> list[str]:
    """The `{names}` of a URI template, in order."""
    return _PLACEHOLDER.findall(uri)


def _options(
    reader: Reader, call: ast.Call | None, positional: tuple[str, ...], what: str
) -> dict[str, object] | None:
    """The literal arguments of the decorator call (None when one is not a literal)."""
    if call is None:
        return {}
    allowed = {"name", *positional} | ({"mime_type"} if positional else set())
    args = reader.call_args(call, positional, allowed, what)
    found: dict[str, object] = {}
    for key, value in args.items():
        try:
            found[key] = reader.literal(value, f"{what}({key}=...)")
        except NotLiteral:
            return None
        if not isinstance(found[key], str):
            reader.error(value, f"{what}({key}=...) must be a string")
            return None
    return found


def _inputs(
    reader: Reader, node: ast.FunctionDef | ast.AsyncFunctionDef, what: str
) -> tuple[Param, ...] | None:
    """The parameters, each read as a command's would be; `None` after a problem."""
    if isinstance(node, ast.AsyncFunctionDef):
        reader.error(node, f"{what} {node.name} is async; write a plain function")
        return None
    before = len(reader.diagnostics)
    params = read_params(reader, node, docstrings.parse(ast.get_docstring(node)))
    return params if len(reader.diagnostics) == before else None


def _textual(param: Param) -> bool:
    """Whether a prompt's argument is a string: a `str`, or a `Literal` of strings (which
    `completion/complete` offers)."""
    ref = param.type
    if ref is None:
        return False
    return ref.kind == "str" or (
        ref.kind == "choice" and all(isinstance(c, str) for c in ref.choices)
    )


def read_prompt(
    reader: Reader, node: ast.FunctionDef | ast.AsyncFunctionDef, decorator: Decorator
) -> Prompt | None:
    """`@prompt` / `@prompt(name=...)` on a function whose `str` parameters are its arguments."""
    call = decorator.decorator if isinstance(decorator.decorator, ast.Call) else None
    options = _options(reader, call, (), "@prompt")
    if options is None:
        return None
    name = str(options.get("name") or cli_word(node.name))
    if not COMMAND_NAME.match(name):
        reader.error(decorator, f"prompt name {name!r}: {NAME_RULE}")
        return None
    params = _inputs(reader, node, "prompt")
    if params is None:
        return None
    for param in params:
        if param.role != "context" and not _textual(param):
            message = (
                f"argument {param.name!r} of prompt {name!r} must be a str (or a Literal of "
                "strings): MCP prompt arguments are strings"
            )
            reader.diagnostics.append(Diagnostic(span=param.span, message=message))
            return None
    doc = docstrings.parse(ast.get_docstring(node))
    return Prompt(
        name=name,
        function=node.name,
        summary=doc.summary,
        description=doc.description,
        params=params,
        span=reader.span(decorator),
    )


def read_resource(
    reader: Reader, node: ast.FunctionDef | ast.AsyncFunctionDef, decorator: Decorator
) -> Resource | None:
    """`@resource("scheme://path/{name}", mime_type=...)`: placeholders name the parameters."""
    call = decorator.decorator if isinstance(decorator.decorator, ast.Call) else None
    if call is None:
        reader.error(decorator, '@resource needs a URI, as in @resource("mytool://status")')
        return None
    options = _options(reader, call, ("uri",), "@resource")
    if options is None:
        return None
    uri = options.get("uri")
    if not isinstance(uri, str) or not _URI.match(uri):
        reader.error(decorator, f"@resource needs a URI such as 'mytool://status', not {uri!r}")
        return None
    names = placeholders(uri)
    leftover = _PLACEHOLDER.sub("", uri)
    if "{" in leftover or "}" in leftover or "{}" in uri:
        reader.error(decorator, f"URI template {uri!r}: write each placeholder as {{name}}")
        return None
    bad = [n for n in names if not _IDENTIFIER.match(n)]
    if bad:
        reader.error(
            decorator,
            f"URI template {uri!r}: placeholder {{{bad[0]}}} must be a parameter name "
            "(only simple {name} placeholders are supported)",
        )
        return None
    if len(set(names)) != len(names) or "}{" in uri:
        reader.error(
            decorator,
            f"URI template {uri!r}: each placeholder appears once, with text between two",
        )
        return None
    name = str(options.get("name") or cli_word(node.name))
    if not COMMAND_NAME.match(name):
        reader.error(decorator, f"resource name {name!r}: {NAME_RULE}")
        return None
    params = _inputs(reader, node, "resource")
    if params is None:
        return None
    inputs = [p for p in params if p.role != "context"]
    given = {p.name for p in inputs}
    # NOTE: every mismatch at once (each placeholder, each parameter), then every bad type.
    wrong = False
    for missing in [n for n in names if n not in given]:
        reader.error(
            node, f"resource {uri!r}: placeholder {{{missing}}} is not a parameter of {node.name}"
        )
        wrong = True
    for extra in [p for p in inputs if p.name not in names]:
        message = (
            f"resource {uri!r}: parameter {extra.name!r} of {node.name} is not a placeholder"
            " of the URI"
        )
        reader.diagnostics.append(Diagnostic(span=extra.span, message=message))
        wrong = True
    for param in inputs:
        assert param.type is not None
        if param.type.kind not in _URI_KINDS or param.type.nullable:
            message = (
                f"parameter {param.name!r} of resource {uri!r} is a {param.type.source}; a "
                f"URI placeholder is one of: {', '.join(_URI_KINDS)}"
            )
            reader.diagnostics.append(Diagnostic(span=param.span, message=message))
            wrong = True
    if wrong:
        return None
    doc = docstrings.parse(ast.get_docstring(node))
    mime = options.get("mime_type")
    return Resource(
        uri=uri,
        name=name,
        function=node.name,
        summary=doc.summary,
        description=doc.description,
        mime_type=str(mime) if mime else None,
        params=params,
        span=reader.span(decorator),
    )
