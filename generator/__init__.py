"""burgee: generate standalone, agent-ready command-line tools from typed Python handlers."""

from burgee.markers import (
    Argument,
    Audio,
    CommandError,
    Context,
    EmbeddedResource,
    Group,
    Image,
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
    "Audio",
    "CommandError",
    "Context",
    "EmbeddedResource",
    "Group",
    "Image",
    "Option",
    "Outcome",
    "__version__",
    "command",
    "group",
    "program",
    "prompt",
    "resource",
]
