"""The decorated functions of a handlers file: `@command` (a `Command`, its parameters read by
`read/params.py`), `@prompt` and `@resource` (`read/surfaces.py`), under the group their
decorator names.

`CommandReader` (under `ProgramReader`): the functions a decorator of burgee's makes a command
(`@command`, async ones too; `aliases=`, `root=`, `confirm=` and the parameters its question
shows; its parameters by `read/params.py`), a prompt or a resource (`read/surfaces.py`), placed
in the group their decorator names (`@tasks.command`).
"""

from __future__ import annotations

import ast
import re
import string
from typing import Any

from burgee.model.ir import COMMAND_NAME, EFFECTS, NAME_RULE, TRUSTS, Command, Param, cli_word
from burgee.model.reserved import CONFIRM_FLAGS
from burgee.read import docstrings
from burgee.read.annotations import NotLiteral, UnsupportedType
from burgee.read.classes import read_type
from burgee.read.declarations import decorator_target
from burgee.read.exclusive import GROUP_KEYS, read_exclusive
from burgee.read.params import read_params
from burgee.read.reader import Decorator, is_none
from burgee.read.shared import SharedOptions
from burgee.read.surfaces import read_prompt, read_resource

#: A command's or a group's name (and an alias).
_COMMAND_KEYS = {
    "effects",
    "name",
    "examples",
    "cardinality",
    "hidden",
    "open_world",
    "max_output",
    "sanitize",
    "trust",
    "aliases",
    "root",
    "confirm",
    "deprecated",
    "short_help",
    *GROUP_KEYS,
}
#: The arguments of `program()` and `@command` whose default is None: None says nothing.
NONE_IS_UNSAID = frozenset({
    "name", "version", "description", "env_prefix", "max_output", "exit_codes", "cardinality",
    "open_world", "default",
})  # fmt: skip


class CommandReader(SharedOptions):
    """Reads the functions a decorator of burgee's makes a command, a prompt or a resource."""

    def parent_of(self, func: ast.expr, api: str) -> tuple[str, ...] | None:
        """The group path that `group(...)`/`command(...)` (or `grp.group`, `grp.command`)
        places its result in: `()` at the top level; None when `func` is not burgee's."""
        if self.api_name(func) == api:
            return ()
        if (
            isinstance(func, ast.Attribute)
            and func.attr == api
            and isinstance(func.value, ast.Name)
        ):
            if func.value.id in self.groups:
                return self.groups[func.value.id].path
            self.not_groups.append((func.value.id, func))
        return None

    def read_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Read a function decorated as a command, a prompt or a resource."""
        found = False
        for index, decorator in enumerate(self.decorators(node)):
            target = decorator_target(decorator.decorator)
            surface = self.api_name(target)
            if surface in ("prompt", "resource"):
                self.removals.remove_decorator(self.text, node, index)
                if found:
                    self.error(decorator, f"{node.name} is already a command or a {surface}")
                    continue
                found = True
                self.surfaces_seen.add(surface + "s")
                if surface == "prompt":
                    prompt = read_prompt(self, node, decorator)
                    if prompt is not None:
                        self.prompts.append(prompt)
                else:
                    resource = read_resource(self, node, decorator)
                    if resource is not None:
                        self.resources.append(resource)
                continue
            parent = self.parent_of(target, "command")
            if parent is None:
                continue
            self.removals.remove_decorator(self.text, node, index)
            if found:
                self.error(
                    decorator,
                    f"{node.name} has more than one @command; a function is one command",
                )
                continue
            found = True
            if not isinstance(decorator.decorator, ast.Call):
                self.error(decorator, "@command needs effects=..., as in @command(effects=...)")
                continue
            self.read_command(node, decorator, decorator.decorator, parent)

    def read_command(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        decorator: Decorator,
        call: ast.Call,
        parent: tuple[str, ...],
    ) -> None:
        """Build a Command from a decorated function."""
        args = self.call_args(call, (), _COMMAND_KEYS, "@command")
        options: dict[str, object] = {}
        for key, value in args.items():
            if (is_none(value) and key in NONE_IS_UNSAID) or key in GROUP_KEYS:
                continue  # NOTE: the signature's own default, spelled out; groups: below
            try:
                options[key] = self.literal(value, f"@command({key}=...)")
            except NotLiteral:
                continue
        effects = options.get("effects")
        if "effects" not in args:
            self.error(
                decorator,
                f"command {node.name} needs effects=: one of {', '.join(EFFECTS)}",
            )
        elif effects not in EFFECTS:
            self.error(args["effects"], f"effects must be one of {', '.join(EFFECTS)}")
        given = options["name"] if "name" in options else cli_word(node.name)
        named = isinstance(given, str) and bool(COMMAND_NAME.match(given))
        if not named:
            # NOTE: the command is not made, but the rest of it is still checked: every
            # problem is reported at once.
            self.error(decorator, f"command name {given!r}: {NAME_RULE}")
        name = given if isinstance(given, str) and named else node.name
        settings, confirm = self._command_settings(args, options, name)
        doc = docstrings.parse(ast.get_docstring(node))
        params = read_params(self, node, doc)
        exclusive = read_exclusive(self, args, node, params, name)
        # NOTE: a destructive command asks unless confirm=False; any other asks only when
        # confirm= is given (a question, or True).
        asks = confirm is not False and (effects == "destructive" or "confirm" in args)
        if isinstance(confirm, str) and asks:
            self._check_question(args["confirm"], confirm, name, params)
        returns = None
        if node.returns is not None:
            try:
                returns = read_type(self, node.returns, "return")
            except UnsupportedType as exc:
                self.error(exc.node, f"return type of {node.name}: {exc.message}")
        if effects not in EFFECTS or not named:
            return
        questions = self.questions.pop(node.name, ())
        own_yes = any(
            spelling in CONFIRM_FLAGS
            for param in params
            if param.role == "option"
            for spelling in param.spellings
        )
        self.commands.append(
            Command(
                path=(*parent, name),
                function=node.name,
                summary=doc.summary,
                description=doc.description,
                effects=effects,  # type: ignore[arg-type]
                confirm=(None if not asks else "Proceed?" if confirm is True else str(confirm)),
                questions=questions,
                # NOTE: a handler's own --yes/-y stays its own (a gen error when it asks first).
                yes=asks or (not own_yes and any(q.kind == "confirm" for q in questions)),
                is_async=isinstance(node, ast.AsyncFunctionDef),
                params=params,
                exclusive=exclusive,
                returns=returns,
                span=self.span(decorator),
                **settings,
            )
        )

    def _command_settings(
        self, args: dict[str, ast.expr], options: dict[str, object], name: str
    ) -> tuple[dict[str, Any], object]:
        """The settings of `@command(...)` that are the Command's as written, each checked
        (one that is wrong is reported and read as its default), and `confirm=` as written."""
        examples = options.get("examples", ())
        if not isinstance(examples, tuple) or not all(isinstance(e, str) for e in examples):
            self.error(args["examples"], "examples must be a list of strings")
            examples = ()
        listed = args.get("examples")
        example_spans = (
            tuple(self.span(element) for element in listed.elts)
            if isinstance(listed, ast.List | ast.Tuple) and len(listed.elts) == len(examples)
            else ()
        )
        cardinality = options.get("cardinality")
        if cardinality not in (None, "single", "bounded", "unbounded"):
            self.error(args["cardinality"], "cardinality must be single, bounded or unbounded")
            cardinality = None
        max_output = options.get("max_output")
        if "max_output" in options:
            self.check_max_output(args["max_output"], max_output, "@command")
        sanitize = options.get("sanitize", True)
        if not isinstance(sanitize, bool):
            self.error(args["sanitize"], "sanitize must be True or False")
        trust = options.get("trust", "workspace")
        if trust not in TRUSTS:
            self.error(args["trust"], f"trust must be one of {', '.join(TRUSTS)}")
            trust = "workspace"
        if "trust" not in args and options.get("open_world") is True:
            # NOTE: a command that reaches the open world brings back what it found there,
            # unless its author says where its data comes from (`trust=` wins).
            trust = "external"
        aliases = options.get("aliases", ())
        if not isinstance(aliases, tuple) or not all(
            isinstance(a, str) and COMMAND_NAME.match(a) and a != name for a in aliases
        ):
            self.error(
                args["aliases"],
                "aliases must be a list of command names (letters, digits, '-' and '_'), "
                "each other than the command's name",
            )
            aliases = ()
        flags: dict[str, bool | None] = {}
        for key, default in (("root", False), ("hidden", False), ("open_world", None)):
            flags[key] = found = options.get(key, default)  # type: ignore[assignment]
            if not (isinstance(found, bool) or (found is None and default is None)):
                either = "True, False or None" if default is None else "True or False"
                self.error(args[key], f"{key} must be {either}")
                flags[key] = default
        confirm = options.get("confirm", True)
        if not isinstance(confirm, (bool, str)) or confirm == "":
            self.error(args["confirm"], "confirm must be True, False or the question to ask")
            confirm = True
        deprecated = options.get("deprecated", False)
        if not isinstance(deprecated, (bool, str)):
            self.error(args["deprecated"], "deprecated must be True, False or the reason")
            deprecated = False
        short_help = options.get("short_help")
        if short_help is not None and (not isinstance(short_help, str) or "\n" in short_help):
            self.error(args["short_help"], "short_help must be one line of text")
            short_help = None
        settings = {
            "examples": examples,
            "example_spans": example_spans,
            "cardinality": cardinality,
            "hidden": bool(flags["hidden"]),
            "open_world": flags["open_world"],
            "max_output": max_output if isinstance(max_output, int) else None,
            "sanitize": sanitize is not False,
            "trust": trust,
            "aliases": aliases,
            "root": bool(flags["root"]),
            "deprecated": (
                None if deprecated is False else "" if deprecated is True else str(deprecated)
            ),
            "short_help": short_help,
        }
        return settings, confirm

    def _check_question(
        self, node: ast.AST, question: str, command: str, params: tuple[Param, ...]
    ) -> None:
        """`confirm="Delete {name}?"`: each `{...}` names a parameter the question shows."""

        names = [param.name for param in params if param.role != "context"]
        try:
            fields = [
                field for _, field, _, _ in string.Formatter().parse(question) if field is not None
            ]
        except ValueError as error:
            self.error(node, f"confirm: {error}; write {{{{ and }}}} for a brace")
            return
        for field in fields:
            if re.split(r"[.\[!:]", field, maxsplit=1)[0] not in names:
                known = ", ".join(names) or "none"
                self.error(
                    node,
                    f"confirm shows {{{field}}}, which is not a parameter of {command} "
                    f"(parameters: {known})",
                )

    def check_max_output(self, node: ast.AST, value: object, where: str) -> None:
        """`max_output=` is a number of characters: a whole number, 0 for no limit."""
        if type(value) is not int or value < 0:
            self.error(
                node, f"{where}(max_output=...) must be a whole number of characters (0: no limit)"
            )
