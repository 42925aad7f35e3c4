"""Names, flags and error kinds that belong to the generated tool itself."""

from __future__ import annotations

from burgee.runtime.catalog import runtime_names
from burgee.runtime.flags import reserved_flags

#: Flags every command of the generated tool accepts, or that the tool reserves.
RESERVED_FLAGS = reserved_flags()

#: Top-level command names the generated tool uses for itself.
RESERVED_COMMANDS = frozenset({"schema", "completion", "__complete", "help"})

#: Module-level names the generated module itself defines (constants, tables, the runtime's
#: classes and functions): a handlers file that defined one would replace it.
RUNTIME_NAMES: frozenset[str] = runtime_names() | {"TYPE_CHECKING", "cast"}
