"""Names, flags and error kinds that belong to the generated tool itself."""

from __future__ import annotations

import re
from importlib.resources import files

#: Built-in error kinds: kind -> (exit code, description).
BUILTIN_ERRORS: dict[str, tuple[int, str]] = {
    "internal": (1, "An unexpected failure inside a handler; report it as a bug."),
    "usage": (2, "A bad flag, a missing argument or a value the parser rejected; nothing ran."),
    "action_required": (4, "The command needs a decision or an action first; see next[]."),
    "timeout": (124, "The command ran past --timeout and was cancelled."),
    "interrupted": (130, "Interrupted (Ctrl-C / SIGINT)."),
}

#: Flags every command of the generated tool accepts, or that the tool reserves.
RESERVED_FLAGS = frozenset(
    {
        "-h",
        "--help",
        "--version",
        "--json",
        "-o",
        "--output",
        "--debug",
        "--schema",
        "--field",
        "--llms",
        "--mcp",
        "--skill",
        "--explain",
        "--config",
        "--timeout",
        "--print-config",
        "--no-json",
        "--no-output",
        "--no-debug",
    }
)

#: Top-level command names the generated tool uses for itself.
RESERVED_COMMANDS = frozenset({"schema", "completion", "__complete", "help"})

#: Module-level names the generated module itself defines (constants, tables, the runtime's
#: classes and functions): a handlers file that defined one would replace it.
RUNTIME_NAMES: frozenset[str] = frozenset(
    {
        "PROGRAM",
        "VERSION",
        "DESCRIPTION",
        "DEBUG_ENV",
        "GROUP_HELP",
        "COMMANDS",
        "GROUPS",
        "ERRORS",
        "TYPE_CHECKING",
        "cast",
    }
    | {
        match.group(1) or match.group(2)
        for template in (files("burgee.templates") / "cli").iterdir()
        if template.name.endswith(".jinja")
        for match in re.finditer(
            r"^(?:def|class) (\w+)|^(\w+)(?:: [^=\n]+)? =", template.read_text("utf-8"), re.M
        )
    }
)
