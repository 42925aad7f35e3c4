"""`@command(exclusive=[...], one_of=[...])`: a command's groups of options given apart (at
most one of each `exclusive` group, exactly one of each `one_of` group), as argparse's
`add_mutually_exclusive_group(required=...)` and Click's mutually exclusive options.

`read_exclusive()`: `@command(exclusive=[...], one_of=[...])`, groups of a command's options by
parameter name → `Exclusive`s, each problem at the name it is about (no such parameter, with a
"did you mean"; a positional argument; an option without a default or with `prompt=`; named
twice, or in two groups; a group of one).
"""

from __future__ import annotations

import ast
import difflib

from burgee.model.ir import Exclusive, Param
from burgee.read.reader import Reader

#: The `@command` arguments read here, and what their groups are in messages.
GROUP_KEYS = {"exclusive": False, "one_of": True}


def read_exclusive(
    reader: Reader,
    args: dict[str, ast.expr],
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    read: tuple[Param, ...],
    command: str,
) -> tuple[Exclusive, ...]:
    """The command's groups; each problem is reported at the name (or group) it is about."""
    found: list[Exclusive] = []
    if not args.keys() & GROUP_KEYS.keys():
        return ()
    #: The function's own parameters: one whose annotation could not be read is reported there.
    written = {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)}
    params = {param.name: param for param in read if param.role != "context"}
    #: Each option already in a group, and that group as written.
    taken: dict[str, str] = {}
    for key, required in GROUP_KEYS.items():
        value = args.get(key)
        if value is None:
            continue
        groups = value.elts if isinstance(value, ast.List | ast.Tuple) else None
        if groups is None or not all(isinstance(g, ast.List | ast.Tuple) for g in groups):
            reader.error(
                value, f'{key}= must be a list of groups of parameter names: [("a", "b"), ...]'
            )
            continue
        for group in groups:
            assert isinstance(group, ast.List | ast.Tuple)
            names = _names(
                reader, key, group, command=command, params=params, written=written, taken=taken
            )
            if len(group.elts) < 2:
                alone = "make it a required option" if required else "it excludes nothing"
                reader.error(group, f"{key}: a group needs two options or more ({alone})")
            elif names is not None:
                for name in names:
                    taken[name] = reader.code(group)
                found.append(Exclusive(names=names, required=required, span=reader.span(group)))
    return tuple(found)


def _names(
    reader: Reader,
    key: str,
    group: ast.List | ast.Tuple,
    *,
    command: str,
    params: dict[str, Param],
    written: set[str],
    taken: dict[str, str],
) -> tuple[str, ...] | None:
    """The parameter names of one group, or None when one of them is no fit (reported)."""
    inputs = params
    names: list[str] = []
    fits = True
    for element in group.elts:
        name = element.value if isinstance(element, ast.Constant) else None
        if not isinstance(name, str):
            reader.error(element, f"{key}: a group names parameters, as strings")
            fits = False
            continue
        param = inputs.get(name)
        problem = None
        if param is None:
            fits = False
            if name not in written:
                problem = f"{name!r} is not a parameter of {command}{_near(name, inputs)}"
        elif param.role == "argument":
            problem = (
                f"{name!r} of {command} is a positional argument: only options can be given "
                "apart (make it an option)"
            )
        elif name in names:
            problem = f"{name!r} is named twice in this group"
        elif name in taken:
            problem = f"{name!r} is already in the group {taken[name]}: an option is in one group"
        elif param.required:
            problem = f"{name!r} of {command} needs a default (None): " + (
                "the group requires one of its options, not each"
                if GROUP_KEYS[key]
                else "a required option leaves the others of its group never given"
            )
        elif param.prompt is not None:
            problem = (
                f"{name!r} of {command} asks at a terminal (prompt=), which an option of a "
                "group cannot: it is given or left for another"
            )
        if problem is not None:
            reader.error(element, f"{key}: {problem}")
            fits = False
        names.append(name)
    return tuple(names) if fits else None


def _near(name: str, inputs: dict[str, Param]) -> str:
    """`; did you mean 'json_out'?`: the parameter a flag spells, or the closest name."""
    spelled = [
        param.name
        for param in inputs.values()
        if param.role == "option" and name in param.spellings
    ]
    close = spelled or difflib.get_close_matches(name, list(inputs), n=1)
    return f"; did you mean {close[0]!r}?" if close else f" ({', '.join(inputs) or 'none'})"
