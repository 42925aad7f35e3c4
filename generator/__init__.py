"""burgee: generate standalone, agent-ready command-line tools from typed Python handlers.

The public API, re-exported from `markers.py` (`program`, `command`, `group`, `prompt`,
`resource`, `Argument`, `Option`, `Context`, `CommandError`, `UsageError`, `BadParameter`,
`Outcome`, `Image`, `Audio`, `EmbeddedResource`, `Group`), and `__version__`."""

from burgee.markers import (
    Argument,
    Audio,
    BadParameter,
    CommandError,
    Context,
    EmbeddedResource,
    Group,
    Image,
    Option,
    Outcome,
    UsageError,
    command,
    group,
    program,
    prompt,
    resource,
)

__version__ = "0.1.0"

__all__ = [
    "Argument",
    "Audio",
    "BadParameter",
    "CommandError",
    "Context",
    "EmbeddedResource",
    "Group",
    "Image",
    "Option",
    "Outcome",
    "UsageError",
    "__version__",
    "command",
    "group",
    "program",
    "prompt",
    "resource",
]
