"""What the Click and Typer readers share: the one reading of a parameter both land on
(`Param`: Typer's markers and Click's decorators alike, Typer being built on Click), the
problems found (`Reading`, whose `fold` is `constants.py`'s), a flag's spellings settled
(`settle_flags`), the eager `--version` callback (`is_version`), and the text edits with their
lines' origins (`Rewrite`), the file rewritten into burgee's own dialect line by line traced
back to where it was written.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from burgee.model.diagnostics import Diagnostic, SourceSpan
from burgee.model.reserved import SHADOWABLE_FLAGS
from burgee.read.dialects.constants import Constants, Unreadable
from burgee.read.source import Text

#: What a command of a program burgee did not write is taken to do to the world: the worst,
#: until its author says otherwise.
INCUMBENT_EFFECTS = "undeclared"
#: The names the rewrite adds to the file (`import burgee as _burgee`, `_Annotated`, ...),
#: chosen so no program has them already.
BURGEE = "_burgee"
TYPING_NAMES = "from typing import Annotated as _Annotated, Literal as _Literal\n"


#: `click.Path`'s checks (Typer's markers take them too), by the names burgee's markers take.
PATH_CHECKS = (
    "exists", "file_okay", "dir_okay", "readable", "writable", "executable", "resolve_path",
    "allow_dash",
)  # fmt: skip


@dataclass
class Param:
    """One parameter as Click would build it, read from Typer's markers or Click's decorators."""

    name: str
    node: ast.AST
    argument: bool = False
    #: The flags as written (`-f`, `--file`); the off form of a `--x/--no-x` pair.
    flags: list[str] = field(default_factory=list)
    off: list[str] = field(default_factory=list)
    #: The value's type as burgee's annotation text (`str`, `int`, `_Literal['a']`).
    type: str = "str"
    #: The default's source text; None: no default (required); `...` spelled as None too.
    default: str | None = None
    required: bool = False
    is_flag: bool = False
    count: bool = False
    multiple: bool = False
    nargs: int = 1
    help: str | None = None
    #: `envvar=`'s names (a list's, in its order), then the `auto_envvar_prefix` one.
    envvar: tuple[str, ...] = ()
    #: `allow_from_autoenv=`: False, no `auto_envvar_prefix` name.
    autoenv: bool = True
    hidden: bool = False
    metavar: str | None = None
    prompt: str | bool = False
    minimum: str | None = None
    maximum: str | None = None
    default_factory: str | None = None
    #: The Python parameter's own annotation as written (Typer), kept where it says more.
    annotation: str | None = None
    #: `click.Path`'s checks as given (`exists=True`), burgee's `Option(exists=True)` too.
    path: dict[str, object] = field(default_factory=dict)
    #: Click's `callback=` as written: run after parsing, first in the command's body.
    callback: str | None = None
    #: A bool that takes a value (`type=bool`, `click.BOOL`, `default=True` without
    #: `is_flag`): read as text, made a bool first in the command's body as Click's BOOL
    #: makes it (`program._prologue`).
    bool_value: bool = False
    #: `Choice(case_sensitive=False)` (Typer's `case_sensitive=False`): a choice in any case.
    case_sensitive: bool = True
    #: A file's mode (`click.File("w")`, Typer's `FileTextWrite`): `r`, `w`, `a` or `x` (the
    #: `b` is in its type, `BinaryIO`); None for any other type.
    mode: str | None = None

    def read_file_mode(self, reading: Reading, node: ast.expr, mode: object) -> None:
        """`click.File`'s (or Typer's) mode, given as `mode` (its text) at `node`: the type,
        `TextIO` or `BinaryIO`, and the mode the tool opens it in."""
        text = mode if isinstance(mode, str) else ""
        letters = text.replace("b", "").replace("t", "")
        if letters not in _MODES:
            reading.error(node, f"a file opened in mode {mode!r} is not supported: use "
                          "'r', 'w', 'a' or 'x' (with 'b' for bytes)")  # fmt: skip
            return
        self.type = "_typing.BinaryIO" if "b" in text else "_typing.TextIO"
        self.annotation = None
        self.mode = letters


#: The modes a file is opened in (`click.File`'s, with `b` taken out).
_MODES = ("r", "w", "a", "x")


class Reading:
    """The problems found while reading one file, and the module-level constants it folds."""

    def __init__(self, source: str, tree: ast.Module, place: Placer) -> None:
        self.text = Text(source)
        self.tree = tree
        self.place = place
        self.diagnostics: list[Diagnostic] = []
        #: The module-level names whose values are known (`constants.py`).
        self.constants = Constants(tree, place.path)
        #: The short spelling of the version option (`-V` of `version_option("-V",
        #: "--version")` or an eager `-V/--version` callback): `program(version_short=)`.
        self.version_short = ""
        #: Whether a `--version` option's callback is read as the tool's `--version`: its
        #: version is then the installed distribution's, unless the program says one.
        self.version_callback = False

    def span(self, node: ast.AST) -> SourceSpan:
        line: int = node.lineno  # type: ignore[attr-defined]
        column = self.text.column(line, node.col_offset)  # type: ignore[attr-defined]
        return self.place(line, column)

    def error(self, node: ast.AST, message: str) -> None:
        self.diagnostics.append(Diagnostic(span=self.span(node), message=message))

    def warn(self, node: ast.AST, message: str) -> None:
        self.diagnostics.append(Diagnostic(span=self.span(node), message=message, level="warning"))

    def code(self, node: ast.AST) -> str:
        return self.text.code(node)

    def without_command(self, keyword: ast.keyword) -> None:
        """`invoke_without_command=True`: the group's body runs when no command is named, which
        a static reading cannot turn into a command; said, never silently dropped."""
        if self.truth(keyword.value, "invoke_without_command", False):
            self.warn(
                keyword,
                "invoke_without_command=True is not read: the group's body runs before a command "
                "only, and a line naming no command shows the usage (exit 2); for a default "
                "action, make it a command and the default one",
            )

    def truth(self, node: ast.expr, key: str, otherwise: bool) -> bool:
        """A setting's True or False (`case_sensitive=False`); one computed when the program
        runs is an error, and the setting keeps `otherwise`."""
        try:
            value = self.fold(node)
        except Unreadable:
            value = None
        if isinstance(value, bool):
            return value
        self.error(node, f"{key}= computed when the program runs: write True or False")
        return otherwise

    def fold(self, node: ast.expr) -> object:
        """A value known before the program runs (`Constants.fold`), or `Unreadable`."""
        return self.constants.fold(node)

    def settle_flags(self, param: Param) -> None:
        """One short flag and every long one, as burgee's options have (`--from-ref`,
        `--source`): a second short flag or off form is left out, with a warning (a line that
        spells one is then refused, never read otherwise)."""
        shorts = [f for f in param.flags if not f.startswith("--")]
        longs = [f for f in param.flags if f.startswith("--")]
        extra = shorts[1:] + param.off[1:]
        if extra:
            self.warn(
                param.node,
                f"{param.name}: {', '.join(extra)} left out: an option has one short flag "
                "(and one off form); the line that spells one is refused",
            )
        param.flags = shorts[:1] + longs
        param.off = param.off[:1]
        taken = [flag for flag in param.flags if flag in SHADOWABLE_FLAGS]
        if taken:
            self.warn(
                param.node,
                f"{param.name}: {taken[0]} is a flag of the tool's own; on this command it is "
                "the app's, as it was (the tool's is given before the command name)",
            )

    def shared(self, params: list[Param]) -> None:
        """A group's options are given before the command is named, where the tool's `-h` is
        help: one that takes `-h` is an error at its line (then left out of the reading)."""
        for param in params:
            if "-h" in param.flags:
                self.error(
                    param.node,
                    f"{param.name}: -h on a group's option; before a command is named the "
                    "tool's -h is help: give the option another short flag (a command's own "
                    "option may take -h)",
                )
                param.flags.remove("-h")

    def is_version(self, keywords: dict[str, ast.expr], flags: list[str], flag: bool) -> bool:
        """The `--version` option whose callback prints the version and stops: the tool's own
        `--version` does that. Click reads an eager one first; one not eager (fastapi-cli's)
        after the options given before it, so there a bad value given first is the answer
        (a warning says so); one not eager must be a flag (`flag`: an option of a value
        named `--version`, towncrier's `build --version 1.0`, is the command's own)."""
        try:
            eager = self.fold(keywords["is_eager"]) if "is_eager" in keywords else False
        except Unreadable:
            eager = False
        if not ("callback" in keywords and "--version" in flags and (eager or flag)):
            return False
        others = self.version_flags(flags)
        note = f" ({', '.join(others)} is not read: give --version)" if others else ""
        if not eager:
            note += (
                "; it is not eager, so Click reads the options given before it first (a bad "
                "value there is its answer), the tool answers --version"
            )
        self.warn(
            keywords["callback"],
            f"{'an eager' if eager else 'a'} --version callback: read as the tool's own "
            f"--version{note}",
        )
        self.version_callback = True
        return True

    def version_flags(self, flags: list[str]) -> list[str]:
        """The spellings of a version option but `--version`: its one short flag is the
        tool's short `--version` (`version_short`); the others are returned, unread."""
        others = [f for f in flags if f != "--version"]
        shorts = [f for f in others if len(f) == 2 and f[0] == "-" and f[1].isalnum()]
        if shorts and shorts[0] not in ("-h", "-o", "-y"):
            self.version_short = shorts[0]
            others.remove(shorts[0])
        return others

    def path_check(self, param: Param, key: str, node: ast.expr) -> bool:
        """A path check (`exists=True`): it must be a literal; False after a problem."""
        try:
            value = self.fold(node)
        except Unreadable:
            value = None
        if not isinstance(value, bool):
            self.error(node, f"{key}= must be True or False, written as such")
            return False
        param.path[key] = value
        return True

    def envvar_of(self, node: ast.expr, argument: bool = False) -> tuple[str, ...] | None:
        """`envvar=` folded: its name, or its names in order (Click reads the first one set);
        None, after an error at its place, when they are not known before the program runs.
        An argument's (uvicorn's `APP`) is left out with a warning: a tool's arguments come
        from the command line only, so a line that leaves it out is refused, never read
        otherwise."""
        if argument:
            self.warn(
                node,
                "envvar= of an argument is not read: the tool's arguments are given on the "
                "command line (a line without it is refused)",
            )
            return ()
        try:
            folded = self.fold(node)
        except Unreadable:
            folded = None
        names = (folded,) if isinstance(folded, str) else folded
        if not (isinstance(names, tuple) and names and all(isinstance(n, str) for n in names)):
            self.error(node, "envvar= must be a string known before the program runs")
            return None
        return names

    def text_of(self, node: ast.expr, what: str) -> str | None:
        """A string argument (`help=`), folded; a warning and None when it is computed."""
        try:
            value = self.fold(node)
        except Unreadable:
            value = None
        if isinstance(value, str):
            return value
        if value is None and not (isinstance(node, ast.Constant) and node.value is None):
            self.warn(
                node,
                f"{what} is computed when the program runs, which a static reading cannot know; "
                "it is left out (write it as a string literal or a module-level constant)",
            )
        return None


class Placer:
    """Where a line of the file read came from (sibling modules may be bundled in)."""

    def __init__(self, path: str, origins: list[tuple[str, int]] | None) -> None:
        self.path = path
        self.origins = origins

    def __call__(self, line: int, column: int) -> SourceSpan:
        if self.origins is not None and 1 <= line <= len(self.origins):
            path, line = self.origins[line - 1]
            return SourceSpan(path=path, line=line, column=column)
        return SourceSpan(path=self.path, line=line, column=column)

    def origin(self, line: int) -> tuple[str, int]:
        if self.origins is not None and 1 <= line <= len(self.origins):
            return self.origins[line - 1]
        return self.path, line


class Rewrite:
    """Text edits over the file, and the origin of every line of the result."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self.edits: list[tuple[int, int, str]] = []

    def replace(self, node: ast.AST, replacement: str) -> None:
        self.edits.append((self.text.start(node), self.text.end(node), replacement))

    def replace_span(self, start: int, end: int, replacement: str) -> None:
        self.edits.append((start, end, replacement))

    def covers(self, node: ast.AST) -> bool:
        start, end = self.text.start(node), self.text.end(node)
        return any(a <= start and end <= b for a, b, _ in self.edits)

    def apply(self, place: Placer) -> tuple[str, list[tuple[str, int]]]:
        """The rewritten source, and each of its lines' origin."""
        source = self.text.source
        pieces: list[str] = []
        origins = [place.origin(1)]
        line = 1
        at = 0
        for start, end, replacement in sorted(self.edits, key=lambda e: (e[0], e[1])):
            if start < at:
                continue  # NOTE: inside an edit already made (a removed decorator's options)
            kept = source[at:start]
            pieces.append(kept)
            for _ in range(kept.count("\n")):
                line += 1
                origins.append(place.origin(line))
            pieces.append(replacement)
            origins.extend(place.origin(line) for _ in range(replacement.count("\n")))
            line = self.text.line_of(end) if end < len(source) else line
            at = end
        rest = source[at:]
        pieces.append(rest)
        for _ in range(rest.count("\n")):
            line += 1
            origins.append(place.origin(line))
        return "".join(pieces), origins[: "".join(pieces).count("\n") + 1]


def auto_env_prefix(reading: Reading, function: str) -> str | None:
    """The `auto_envvar_prefix` the program's top function is called with (`cli(
    auto_envvar_prefix="SHIP")`, `cli.main(...)`, `app(...)`), wherever the file calls it."""
    for node in ast.walk(reading.tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "main":
            func = func.value
        if not (isinstance(func, ast.Name) and func.id == function):
            continue
        for keyword in node.keywords:
            if keyword.arg == "auto_envvar_prefix":
                return reading.text_of(keyword.value, "auto_envvar_prefix")
    return None


def auto_env(
    params: list[Param], where: tuple[str, ...], prefixes: dict[tuple[str, ...], str]
) -> None:
    """Click's `auto_envvar_prefix` naming, read after an option's own `envvar=` names, of the
    context at `where` (a command's path, a group's): the prefix of the nearest group that
    sets one, then each command name below it, then the option's name (`SHIP_CRATE_PACK_UP_
    SIZE`), upper case, dashes as underscores."""
    for depth in range(len(where), -1, -1):
        if where[:depth] in prefixes:
            words = [prefixes[where[:depth]], *where[depth:]]
            break
    else:
        return
    for param in params:
        # NOTE: Click reads it too when an `envvar=` names others (`Option.
        # resolve_envvar_value`): after them, when none is set.
        name = "_".join([*words, param.name]).upper().replace("-", "_")
        if not param.argument and param.autoenv and name not in param.envvar:
            param.envvar = (*param.envvar, name)


def flag_word(name: str) -> str:
    """The flag Click and Typer make of a parameter's name (`dry_run`: `--dry-run`)."""
    return "--" + name.replace("_", "-").lower()


def click_name(decls: list[str]) -> tuple[str | None, list[str], list[str]]:
    """Click's reading of an option's declarations: its name, its flags and its off flags
    (`--shout/--no-shout`)."""
    name = None
    flags: list[str] = []
    off: list[str] = []
    for decl in decls:
        if decl.isidentifier():
            name = decl
            continue
        first, slash, second = decl.partition("/")
        if slash and first and second:
            flags.append(first.strip())
            off.append(second.strip())
        elif slash and first:
            flags.append(first)  # NOTE: "/" alone ends a flag that has no off form
        else:
            flags.append(decl)
    if name is None and flags:
        # NOTE: Click's own rule (`Option._parse_decls`): the longest prefix wins, the first
        # of those; dashes become underscores.
        best = sorted(flags, key=lambda f: len(f) - len(f.lstrip("-")), reverse=True)[0]
        name = best.lstrip("-").replace("-", "_").lower()
    return name, flags, off
