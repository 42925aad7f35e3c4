# burgee: joins tail 20
"""The tool-wide flags: one table, `FLAGS`.

The generator reads it for the clispec document (`global_args`), help,
completion scripts and the names a handler may not use; the runtime reads them to take the
flags out of argv. Adding a flag here is all it takes for every surface to know it.
The exit codes are in `errors.BUILTIN_ERRORS`.

The table (`FLAGS`, each in one of `FLAG_GROUPS` (`grouped()`), the
groups help lists them in; `shadowable_flags()`; `reserved_flags(config)` and `_flag(name,
config)`: `--config` only in a program that reads a config file; scope `confirm` is
`--yes`/`-y`, read only by the commands that ask first; each flag's value type `kind` and how
its value is read (`read()`: a switch, an integer within `bounds`, a positive number) into the
invocation's attribute `dest`, the flags (or the command) it `goes_with` and those it is
`not_with`; its `aliases`, what other tools call it, only ever suggested for it; `flags_at()`,
which flags a help or a completion shows at a place; `FORMATS`, `BATCH_JOBS`): read by the argv
parser and help at run time, and by clispec `global_args` and the reserved names at generation
time (the skill's and `--llms`'s prose name `--json`, `--max-output` and `--batch` as written).
(The built-in exit codes are `runtime/core/errors.py`'s.)
"""

from __future__ import annotations


def _either(names: tuple[str, ...]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    return " or ".join(filter(None, (", ".join(names[:-1]), names[-1])))


class Flag:
    """One flag the tool itself answers, wherever it appears before `--`."""

    __slots__ = (
        "aliases",
        "bounds",
        "choices",
        "config_only",
        "dest",
        "goes_with",
        "group",
        "help",
        "kind",
        "metavar",
        "name",
        "not_with",
        "optional",
        "scope",
        "short",
        "unit",
    )

    def __init__(
        self,
        name: str,
        metavar: str,
        help: str,
        *,
        group: str,
        scope: str = "any",
        short: str = "",
        choices: tuple[str, ...] = (),
        config_only: bool = False,
        goes_with: tuple[str, ...] = (),
        not_with: tuple[str, ...] = (),
        kind: str = "string",
        optional: str = "",
        dest: str = "",
        bounds: tuple[int, int] = (0, 0),
        unit: str = "",
        aliases: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        #: What other tools call it (`--format` for `--output`): never read as it, only
        #: suggested for it when typed (`argv_parser._closest_flag`).
        self.aliases = aliases
        #: The attribute of the invocation (`argv._Invocation`) its value sets; "" when the
        #: invocation keeps it as given, by name (`asked`).
        self.dest = dest
        #: An "integer" value's least and greatest; `unit` is what it counts (in messages).
        self.bounds = bounds
        self.unit = unit
        #: Which of `FLAG_GROUPS` help lists it in (compactly: `help flags` explains each).
        self.group = group
        #: What its value looks like, or "" for a switch.
        self.metavar = metavar
        #: Its value's clispec type ("boolean" for a switch); a "path" completes as a file.
        self.kind = kind if metavar else "boolean"
        self.help = f"with {_either(goes_with)}: {help}" if goes_with else help
        #: The flags (or a command: a word without `-`) it means something with only (`--jobs`
        #: with `--batch`, `--field` with `schema`, `--schema` or `--llms`): alone, a usage error.
        self.goes_with = goes_with
        #: The flags it cannot be given with (a usage error), where it would mean nothing.
        self.not_with = not_with
        #: "root": only for the tool itself (`tool --version`); "any": on every command too;
        #: "confirm": on the commands that ask before they run (destructive ones, and those
        #: given `confirm=`).
        self.scope = scope
        self.short = short
        #: The values it accepts, when they are a fixed set.
        self.choices = choices
        #: Only when the program reads a config file.
        self.config_only = config_only
        #: A value that may be left out: "object" (the next word is its value when it opens a
        #: JSON object or array, or is `-`), "word" (when it is `-` or no flag); "" when it
        #: always has one.
        self.optional = optional

    def takes(self, word: str) -> bool:
        """Whether `word`, right after this flag (without `=`), is its value."""
        if self.optional == "object":
            # NOTE: an array too, and after JSON's white space: it is meant as the input,
            # and refused as one (`_read_json_input`), never read as the command's next word.
            # A JSON scalar (`"Ada"`, `3`, `null`) is a plain word as well: the command's.
            return word.lstrip(" \t\n\r")[:1] in ("{", "[") or word == "-"
        if self.optional == "word":
            return word == "-" or not word.startswith("-")
        return self.metavar != ""

    def read(self, value: str) -> object:
        """The flag's value: True for a switch, a whole number within `bounds` for an
        "integer", a positive number for a "number", else the text (its `choices` are the
        caller's to check); ValueError says what was wanted."""
        if not self.metavar:
            return True
        if self.kind == "integer":
            low, high = self.bounds
            # NOTE: ASCII digits only, and few of them: int() also takes other scripts'
            # digits and "1_000".
            if not (value.isascii() and value.isdecimal() and len(value) <= len(str(high))):
                value = "-1"
            if not low <= int(value) <= high:
                raise ValueError(f"a whole number{self.unit} from {low} to {high}")
            return int(value)
        if self.kind == "number":
            try:
                number = float(value)
            except ValueError:
                number = 0.0
            # NOTE: NaN is not > 0, and infinity is no timeout.
            if not 0 < number < float("inf"):
                raise ValueError(f"a positive number{self.unit}")
            return number
        return value


#: How many read-only calls of a `--batch` run at once unless `--jobs` says.
BATCH_JOBS = 4

#: The groups help lists the tool-wide flags in, in this order (each flag names its own).
FLAG_GROUPS = ("output", "run", "describe", "agents", "MCP")

#: The values of `--output` (`-o`); text unless asked.
FORMATS = ("json", "text")

FLAGS: tuple[Flag, ...] = (
    Flag(
        "--json",
        "OBJECT",
        "answer with one JSON envelope on stdout; with a value (or - for stdin), the input"
        " as a JSON object keyed by parameter name",
        optional="object",
        group="output",
    ),
    Flag(
        "--output",
        "FORMAT",
        f"output format, {' or '.join(FORMATS)} (default: text)",
        short="-o",
        choices=FORMATS,
        dest="json",
        aliases=("--format",),
        group="output",
    ),
    Flag(
        "--output-file",
        "PATH",
        "write the answer here, not to stdout: the bytes of an image, audio or embedded"
        " resource (a list's next ones to PATH-2, ..., its text to stdout), else the text",
        kind="path",
        not_with=("--json", "--mcp", "--batch"),
        group="output",
    ),
    Flag("--debug", "", "show tracebacks of internal errors", dest="debug", group="run"),
    Flag(
        "--timeout",
        "SECONDS",
        "cancel the command after this many seconds (a `timeout` error)",
        kind="number",
        unit=" of seconds",
        dest="timeout",
        # NOTE: a handler that ignores the cancellation ends the process: the server's, or
        # the batch's, other calls with it.
        not_with=("--mcp", "--batch"),
        group="run",
    ),
    Flag(
        "--max-output",
        "CHARS",
        "cut the answer to this many characters, the full text saved for `output REF`"
        " (0: no limit; agents get the tool's default limit)",
        kind="integer",
        bounds=(0, 999_999_999),
        unit=" of characters",
        dest="max_output",
        group="output",
    ),
    Flag(
        "--spill-dir",
        "PATH",
        "where the full text of a cut answer is saved",
        kind="path",
        dest="spill_dir",
        group="output",
    ),
    Flag(
        "--schema",
        "",
        "print the clispec document (or one command's) instead of running",
        group="describe",
    ),
    Flag(
        "--field",
        "FIELD",
        "print only the part at this dotted path",
        goes_with=("schema", "--schema", "--llms"),
        group="describe",
    ),
    Flag(
        "--explain",
        "OPTION",
        "print where an option's value came from instead of running",
        group="describe",
    ),
    Flag(
        "--config",
        "PATH",
        "read option values from this TOML or JSON file",
        config_only=True,
        kind="path",
        group="run",
    ),
    Flag(
        "--batch",
        "FILE",
        "run many calls: JSON Lines {id, command, input} from FILE (or stdin), one envelope"
        " line each",
        scope="root",
        kind="path",
        optional="word",
        group="agents",
    ),
    Flag(
        "--jobs",
        "N",
        f"how many read-only calls run at once (default {BATCH_JOBS})",
        scope="root",
        kind="integer",
        bounds=(1, 999),
        dest="jobs",
        goes_with=("--batch",),
        group="agents",
    ),
    Flag(
        "--as-completed",
        "",
        "write each answer when it is ready",
        scope="root",
        dest="as_completed",
        goes_with=("--batch",),
        group="agents",
    ),
    Flag(
        "--allow-destructive",
        "",
        "run destructive commands too",
        scope="root",
        dest="allow_destructive",
        goes_with=("--batch",),
        group="agents",
    ),
    Flag(
        "--answer",
        "NAME=VALUE",
        "answer the question NAME the command asks (repeatable); where nobody can be asked,"
        " `action_required` names each one",
        group="run",
    ),
    Flag(
        "--yes",
        "",
        "answer yes to the command's every yes/no question: one that asks first runs without"
        " asking (needed where nobody can answer)",
        short="-y",
        scope="confirm",
        aliases=("--assume-yes", "--force"),
        group="run",
    ),
    Flag(
        "--llms", "", "print the commands as an MCP tools/list manifest", scope="root", group="MCP"
    ),
    Flag(
        "--mcp",
        "",
        "serve the commands as MCP tools over stdio",
        scope="root",
        dest="mcp",
        group="MCP",
    ),
    Flag(
        "--print-config",
        "",
        "print the client configuration",
        scope="root",
        goes_with=("--mcp",),
        dest="print_config",
        group="MCP",
    ),
    Flag(
        "--version",
        "",
        "print the version and exit",
        scope="root",
        dest="version",
        group="describe",
    ),
    Flag("--skill", "", "print an Agent Skill (SKILL.md) and exit", scope="root", group="agents"),
)

#: The help flags: argparse answers them, at every level.
HELP_FLAGS = ("-h", "--help")


def flags_at(root: bool, config: bool, confirm: bool) -> list[Flag]:
    """The tool-wide flags that apply at one place, for its help and its completion: the tool
    itself (`root`: its root-only flags too) or one of its commands and groups (`confirm`: a
    command that asks first, so `--yes`); `--config` only where the program reads a config."""
    return [
        flag
        for flag in FLAGS
        if (root or flag.scope != "root")
        and (config or not flag.config_only)
        and (confirm or flag.scope != "confirm")
    ]


def grouped(flags: list[Flag]) -> list[tuple[str, list[Flag]]]:
    """`flags` in their groups (`FLAG_GROUPS`), each group's in the order of `FLAGS`."""
    groups = [(group, [flag for flag in flags if flag.group == group]) for group in FLAG_GROUPS]
    return [(group, members) for group, members in groups if members]


def _flag(name: str, config: bool = True) -> Flag | None:
    """The tool-wide flag spelled `name` (long or short), if there is one; `--config` only
    where the program reads a config file (`config`): elsewhere the spelling is free."""
    for flag in FLAGS:
        if flag.scope == "confirm" or (flag.config_only and not config):
            continue  # NOTE: a command's own flag, read once its command is known
        if name == flag.name or (flag.short and name == flag.short):
            return flag
    return None


def confirm_flag() -> Flag:
    """The flag that answers the question of a command that asks first (`--yes`)."""
    return next(flag for flag in FLAGS if flag.scope == "confirm")


#: The hint for `--yes` given to a command that asks no yes/no question (`flags_at`: not its
#: flag).
NO_CONFIRM = "this command does not ask yes or no: --yes is only for the commands that do"


def confirm_flags() -> frozenset[str]:
    """The spellings of the confirmation flag: a command that asks first may not take them."""
    flag = confirm_flag()
    return frozenset((flag.name, flag.short))


def reserved_flags(config: bool = True) -> frozenset[str]:
    """Every spelling a handler's option may not take: the flags, shorts and `--no-` forms
    (`--config` only in a program that reads a config file, `config`); `--help`, but not `-h`,
    which a command's own option may take (`Option("-h", "--host")`, as Click allows)."""
    names = {"--help"}
    for flag in FLAGS:
        if flag.scope == "confirm" or (flag.config_only and not config):
            continue
        names.add(flag.name)
        names.add("--no-" + flag.name[2:])
        if flag.short:
            names.add(flag.short)
    return frozenset(names)


def shadowable_flags() -> frozenset[str]:
    """The spellings a command's own option may take over on its command when it says so
    (`Option(..., shadows=True)`): every tool-wide flag's, but `--help` and `--yes`."""
    names: set[str] = set()
    for flag in FLAGS:
        if flag.scope != "confirm":
            names.update(name for name in (flag.name, flag.short) if name)
    return frozenset(names)
