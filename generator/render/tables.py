"""The tables by which argv names a command, as data: written into the generated module by
`render/module.py`, and given to the runtime's own lookup as a `Program` by the examples check
(`write/examples.py`), so gen and the tool find an example's command alike.

The tables by which argv names a command, as data: `groups()` (`GROUPS`: each group's visible
children), `aliases()` (`ALIASES`), `shadows()` (`SHADOWS`: the tool-wide spellings each
command's options take over); `lookup()`: them, the commands' paths, the root command,
`Program.shared` and `config` as a runtime `Program` (`runtime/program.replaced` on the
stand-in), which the examples check gives the runtime's own lookup. Each chunk is parsed the
first time a name of it is asked for (`_Index`): a tool stubs a few dozen names.
"""

from __future__ import annotations

from burgee.model.ir import Program
from burgee.model.reserved import RESERVED_FLAGS
from burgee.runtime.program import PROGRAM, replaced
from burgee.runtime.program import Program as RuntimeProgram


def aliases(program: Program) -> dict[str, str]:
    """`ALIASES`: each alias's path -> its command's path."""
    return {
        " ".join((*c.path[:-1], alias)): c.name for c in program.commands for alias in c.aliases
    }


def groups(program: Program) -> dict[str, tuple[tuple[str, str], ...]]:
    """`GROUPS`: each group's path ("" the program's) -> its visible children (name, summary),
    in the order the handlers file defines them."""
    members = sorted(
        [(g.span.line, g.path, g.help.split("\n\n")[0]) for g in program.groups]
        + [(c.span.line, c.path, c.listed) for c in program.commands if not c.hidden]
    )
    return {
        " ".join(path): tuple((p[-1], text) for _, p, text in members if p[:-1] == path)
        for path in [(), *(g.path for g in program.groups)]
    }


def shadows(program: Program) -> dict[str, tuple[str, ...]]:
    """`SHADOWS`: each command (and alias) path -> the tool-wide spellings its own options take
    over (`Option(..., shadows=True)`); "" -> those of the root command of a program that has
    no other, which argv never names (they are taken over from its first word)."""
    table: dict[str, tuple[str, ...]] = {}
    root, mode = program.root()
    for command in program.commands:
        spellings = tuple(
            sorted(
                spelling
                for param in command.inputs
                if param.shadows
                for spelling in (*param.flags, *(param.off or ()))
                if spelling in RESERVED_FLAGS
            )
        )
        if spellings:
            for last in (command.path[-1], *command.aliases):
                table[" ".join((*command.path[:-1], last))] = spellings
            if mode == "alone" and command.name == root:
                table[""] = spellings
    return table


def lookup(program: Program) -> RuntimeProgram:
    """The runtime's `Program` of what reading a command line consults (`argv._Invocation`,
    `argv._find`, `sources._layered`): the commands' paths (their rows left empty: gen runs
    none), groups, aliases, root, the spellings commands take over and share, whether a config
    file is read; the rest as the runtime's stand-in has it."""
    root, mode = program.root()
    return replaced(
        PROGRAM,
        name=program.name,
        commands=dict.fromkeys((c.name for c in program.commands), ()),
        groups=groups(program),
        aliases=aliases(program),
        root=root,
        root_mode=mode,
        shadows=shadows(program),
        shared=program.shared,
        config=program.config,
    )
