"""The burgee dialect written from a reading of a Click or Typer program: a parameter's
annotation and marker (`emit_param`), a function's new parameter list (`parameter_list`), its
decorator (`command_decorator`), and the statements at the file's head (`head`)."""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass, field

from burgee.model.reserved import SHADOWABLE_FLAGS
from burgee.read.dialects.common import (
    BURGEE,
    INCUMBENT_EFFECTS,
    TYPING_NAMES,
    Param,
    Reading,
    flag_word,
)


@dataclass
class GroupOut:
    """A group of the program as burgee declares it: its path and the variable it is bound to."""

    path: tuple[str, ...]
    help: str = ""
    shared: list[Param] = field(default_factory=list)

    @property
    def variable(self) -> str:
        return "_burgee_group_" + "__".join(p.replace("-", "_") for p in self.path)


def _marker_args(param: Param) -> list[str]:
    args: list[str] = []
    if not param.argument:
        longs = [f for f in param.flags if f.startswith("--")]
        # NOTE: the long flag burgee makes of the name itself is left unsaid, as burgee's
        # own dialect leaves it (the same IR)
        unsaid = longs[0] if longs == [flag_word(param.name)] else None
        args += [repr(flag) for flag in param.flags if flag != unsaid]
    if param.help:
        args.append(f"help={param.help!r}")
    if param.metavar and not param.argument:
        args.append(f"metavar={param.metavar!r}")
    elif param.metavar:
        args.append(f"metavar={param.metavar!r}")
    args += [f"{key}={value!r}" for key, value in param.path.items()]
    if not param.case_sensitive:
        args.append("case_sensitive=False")
    if param.mode not in (None, "r"):
        args.append(f"mode={param.mode!r}")
    if param.argument:
        return args
    if param.envvar:
        names = param.envvar[0] if len(param.envvar) == 1 else param.envvar
        args.append(f"env={names!r}")
    if any(flag in SHADOWABLE_FLAGS for flag in param.flags):
        args.append("shadows=True")  # NOTE: the app's own flag keeps its meaning (a warning)
    if param.hidden:
        args.append("hidden=True")
    if param.count:
        args.append("count=True")
    if param.is_flag:
        longs = [f for f in param.flags if f.startswith("--")]
        if not param.off:
            args.append("off=False")
        elif not longs or param.off[0] != "--no-" + longs[0][2:]:
            args.append(f"off={param.off[0]!r}")
    if param.minimum is not None:
        args.append(f"min={param.minimum}")
    if param.maximum is not None:
        args.append(f"max={param.maximum}")
    if param.prompt:
        args.append(f"prompt={param.prompt!r}")
    if param.default_factory:
        args.append(f"default_factory={param.default_factory}")
    return args


def annotation(param: Param) -> str:
    """The type a parameter's value has, as the handler receives it."""
    kind = param.type
    if param.count:
        return "int"
    if param.is_flag:
        return "bool | None" if param.default == "None" else "bool"
    if param.nargs > 1:
        kind = f"tuple[{', '.join([kind] * param.nargs)}]"  # NOTE: Click's nargs=N: a tuple
    if (param.argument and param.nargs == -1) or param.multiple:
        kind = f"list[{kind}]"
    if param.default in (None, "None") and not param.required and not param.default_factory:
        if not (param.multiple or (param.argument and param.nargs == -1)):
            kind = f"{kind} | None"
    return kind


def default(param: Param) -> str | None:
    """A parameter's default as burgee's dialect writes it (None: required)."""
    if param.count:
        return param.default if param.default not in (None, "None") else "0"
    if param.required or param.default_factory:
        return None
    if param.multiple or (param.argument and param.nargs == -1):
        if param.default in (None, "None", "()", "[]"):
            return "[]"
        return param.default
    if param.mode is not None and param.default in ("'-'", '"-"'):
        # NOTE: a file's `-`, the standard stream: the handler's default is that stream.
        return "_sys.stdin" if param.mode == "r" else "_sys.stdout"
    if param.is_flag:
        # NOTE: a flag whose default is None (`Optional[bool] = Option(None, "--x/--no-x")`,
        # `default=None, flag_value=True`) is None when left out, as Click gives
        return param.default if param.default is not None else "False"
    return param.default if param.default is not None else "None"


def emit_param(param: Param) -> str:
    """`name: Annotated[T, Option(...)] = default`."""
    marker = "Argument" if param.argument else "Option"
    kind = param.annotation or annotation(param)
    if param.annotation and default(param) == "None" and not _nullable(param.annotation):
        kind = f"{kind} | None"  # NOTE: Typer allows `x: Path = Option(None)`
    text = f"{param.name}: _Annotated[{kind}, {BURGEE}.{marker}({', '.join(_marker_args(param))})]"
    given = default(param)
    return text if given is None else f"{text} = {given}"


def _nullable(annotation: str) -> bool:
    text = annotation.replace(" ", "")
    return (
        text.startswith(("Optional[", "typing.Optional[")) or "|None" in text or ("None|" in text)
    )


def parameter_span(
    reading: Reading, node: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[int, int]:
    """Where a function's parameter list lies between its parentheses."""
    text = reading.text
    start = text.offset(node.lineno, node.col_offset)
    paren = text.source.index("(", text.source.index(node.name, start) + len(node.name))
    depth = 0
    lines = io.StringIO(text.source[paren:]).readline
    line_of_paren = text.line_of(paren)
    for token in tokenize.generate_tokens(lines):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
            if depth == 0:
                row, column = token.start
                if row == 1:
                    return paren + 1, paren + column
                offset = text.starts[line_of_paren + row - 2] + column
                return paren + 1, offset
    raise ValueError("unbalanced parameter list")


def parameter_list(params: list[Param], context: str | None) -> str:
    """The parameter list of a command: keyword-only, in the order the original reads its
    positionals (Click calls a command with keywords, so the order is free)."""
    items = [emit_param(p) for p in params]
    if context:
        items.insert(0, f"{context}: {BURGEE}.Context = None")
    if not items:
        return ""
    return "\n    *,\n    " + ",\n    ".join(items) + ",\n"


def plain_list(params: list[Param], context: str | None) -> str:
    """A callback's parameter list without the framework's markers (the code that runs it
    after parsing calls it with keywords)."""
    items = [f"{p.name}: {p.annotation or annotation(p)} = {default(p) or 'None'}" for p in params]
    if context:
        items.insert(0, f"{context}: {BURGEE}.Context = None")
    return "*, " + ", ".join(items) if items else ""


def command_decorator(
    name: str, group: GroupOut | None, *, root: bool = False, extra: dict[str, object] | None = None
) -> str:
    maker = f"{group.variable}.command" if group else f"{BURGEE}.command"
    args = [f"effects={INCUMBENT_EFFECTS!r}", f"name={name!r}"]
    if root:
        args.append("root=True")
    args += [f"{key}={value!r}" for key, value in (extra or {}).items()]
    return f"@{maker}({', '.join(args)})\n"


def head(program: dict[str, object], groups: list[GroupOut]) -> str:
    """The statements the rewrite puts at the file's head: burgee's imports, `program(...)`,
    every group (parents first, so every command finds its group, wherever it is written)."""
    # NOTE: typing's names imported one by one: the reader leaves out those the stripped
    # code no longer uses (a module import would stay, unused)
    lines = [f"import burgee as {BURGEE}\n", TYPING_NAMES]
    shared_of: dict[tuple[str, ...], list[str]] = {}
    for group in [GroupOut(()), *groups]:
        for param in group.shared if group.path else program.get("shared", []):  # type: ignore[attr-defined]
            alias = f"_burgee_shared_{'__'.join(group.path) or 'program'}_{param.name}".replace(
                "-", "_"
            )
            kind = param.annotation or annotation(param)
            marker = f"{BURGEE}.Option({', '.join(_marker_args(param))})"
            lines.append(f"{alias} = _Annotated[{kind}, {marker}]\n")
            shared_of.setdefault(group.path, []).append(alias)
    args = [f"{key}={value!r}" for key, value in program.items() if key != "shared" and value]
    if () in shared_of:
        args.append(f"options=[{', '.join(shared_of[()])}]")
    lines.append(f"{BURGEE}.program({', '.join(args)})\n")
    for group in sorted(groups, key=lambda g: len(g.path)):
        parent = (
            f"{BURGEE}.group"
            if len(group.path) == 1
            else f"{GroupOut(group.path[:-1]).variable}.group"
        )
        args = [repr(group.path[-1])]
        if group.help:
            args.append(f"help={group.help!r}")
        if group.path in shared_of:
            args.append(f"options=[{', '.join(shared_of[group.path])}]")
        lines.append(f"{group.variable} = {parent}({', '.join(args)})\n")
    return "".join(lines)


def shared_alias(path: tuple[str, ...], param: Param) -> str:
    return f"_burgee_shared_{'__'.join(path) or 'program'}_{param.name}".replace("-", "_")


def head_offset(reading: Reading) -> int:
    """Where the head goes: after the module's docstring and its `from __future__` imports."""
    body = reading.tree.body
    index = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        index = 1
    while (
        index < len(body)
        and isinstance(body[index], ast.ImportFrom)
        and body[index].module == "__future__"  # type: ignore[attr-defined]
    ):
        index += 1
    if index >= len(body):
        return len(reading.text.source)
    return reading.text.starts[body[index].lineno - 1]
