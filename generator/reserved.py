"""Names, flags and error kinds that belong to the generated tool itself."""

from __future__ import annotations

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

#: Top-level names the generated module defines; handler files must not redefine them.
RUNTIME_NAMES = frozenset(
    {
        "PROGRAM",
        "VERSION",
        "DESCRIPTION",
        "CommandError",
        "UsageError",
        "Context",
        "INJECTED",
        "main",
        "run",
        "COMMANDS",
        "GROUPS",
        # the self-description runtime (templates/cli/_describe.py.jinja)
        "_Sources",
        "_ActionRequired",
        "_Explained",
        "_describe",
        "_explain",
        "_agent",
        "_interactive",
        "_within",
        "_as_list",
        "_take_flag",
        "_loosen",
        "_part",
        "_print_json",
        "_SCHEMA_JSON",
        "_LLMS_JSON",
        "_CONFIG",
        "_AGENTS",
        "_FOR_AGENTS",
        "_DESCRIBE_FLAGS",
    }
)
