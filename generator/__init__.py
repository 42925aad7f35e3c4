"""burgee: generate standalone, agent-ready command-line tools from typed Python handlers."""

from burgee.markers import (
    Argument,
    CommandError,
    Context,
    Group,
    Option,
    Outcome,
    command,
    group,
    program,
    prompt,
    resource,
)

__version__ = "0.1.0"

__all__ = [
    "Argument",
    "CommandError",
    "Context",
    "Group",
    "Option",
    "Outcome",
    "__version__",
    "command",
    "group",
    "program",
    "prompt",
    "resource",
]
