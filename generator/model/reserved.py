"""Names, flags and error kinds that belong to the generated tool itself.

The flags (`RESERVED_WITHOUT_CONFIG` those of a program that reads no config file;
`SHADOWABLE_FLAGS`, those an `Option(shadows=True)` may take over), command names and
module-level names the generated tool keeps for itself, all read from the runtime
(`runtime/core/flags.py`, `runtime/commandline/shells.py` `_TOOL_WORDS`,
`runtime/catalog.py`); `RESERVED_WHEN`: `prompt`/`resource`, reserved only in a program that has
prompts/resources. `FREE_NAMES`: `Image`, `Audio` and `EmbeddedResource`, runtime classes the
runtime never names, which a handlers file may define for itself (they are joined only where the
file takes them from burgee, `Program.kept`).
"""

from __future__ import annotations

from burgee.runtime.catalog import BOOT, HEAD, TAIL, parse, runtime_names
from burgee.runtime.commandline.shells import _TOOL_WORDS
from burgee.runtime.core.flags import confirm_flags, reserved_flags, shadowable_flags
from burgee.runtime.program import TABLES

#: Flags every command of the generated tool accepts, or that the tool reserves.
RESERVED_FLAGS = reserved_flags()

#: Those of a program that reads no config file: `--config` is free there.
RESERVED_WITHOUT_CONFIG = reserved_flags(config=False)

#: The tool-wide flags a command's option may take over with `Option(..., shadows=True)`.
SHADOWABLE_FLAGS = shadowable_flags()

#: The flags a command that asks first gets (`--yes`, `-y`).
CONFIRM_FLAGS = confirm_flags()

#: Top-level command names the generated tool uses for itself.
RESERVED_COMMANDS = _TOOL_WORDS

#: Top-level command names the tool takes for its prompts and resources, when it has some
#: (`mytool prompt NAME`, `mytool resource URI`): word -> what it serves.
RESERVED_WHEN = {"prompt": "prompts", "resource": "resources"}

#: The runtime's classes a handlers file may define a class of its own by the name of (a
#: dataclass `Image` of its own, or PIL's `Image`): the runtime never refers to them by name
#: (`output._jsonable` asks a value for `_as_json`), so the file's own is all that changes.
FREE_NAMES = frozenset(("Audio", "EmbeddedResource", "Image"))

#: Module-level names the generated module itself defines (constants, tables, the runtime's
#: classes and functions): a handlers file that defined one would replace it.
RUNTIME_NAMES: frozenset[str] = (
    runtime_names()
    | set(TABLES.values())
    | {
        "TYPE_CHECKING",
        "cast",
        "_LAZY",
        "_release_interrupts",  # NOTE: the plain form's (`gen --plain`)
    }
) - FREE_NAMES


def _runtime_imports() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for module in (BOOT, *HEAD, *TAIL):
        for item in parse(module)[1]:
            if not item.checking:
                found.setdefault(item.binds, set()).add(item.text)
    return {name: frozenset(texts) for name, texts in found.items()}


#: Names the runtime's own imports bind at run time (`os`, `_datetime`), with the import
#: statements that bind them (`import datetime as _datetime`): a handlers file may repeat
#: one of those imports, and bind the name no other way.
RUNTIME_IMPORTS: dict[str, frozenset[str]] = _runtime_imports()
