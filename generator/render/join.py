"""Join the runtime modules into one generated file, keeping only what a program uses.

Each runtime module (`burgee.runtime.*`) is ordinary Python. Here every top-level statement
becomes a `Chunk` (the names it binds, the names it uses, its text with the comments above
it); a program keeps the chunks its own code reaches, directly or through other chunks, so
a tool without dates carries no date converter and does not import `datetime`. Imports
between runtime modules disappear (everything lands in one namespace); the standard-library
imports a kept chunk needs go to the module's import block, the annotation-only ones to its
`if TYPE_CHECKING:` block.

The chunks of the modules in `catalog.SECTIONS` (but `catalog.ALWAYS`) are marked as
sections the tool compiles on first use (`runtime/start/boot.py`): a function of one that other
code uses gets a stand-in (`Joined.lazy`); anything else other code uses of it (a class, a
table) stays in the code that always runs, unless only a section run after it uses it
(`catalog.AFTER`: its opening line says `, after NAME`, and `_boot` runs NAME first).

The plain form (`burgee gen --plain`) has no sections and no compiled-once code: every kept
chunk is ordinary code defined at import, and only the start-up code its runtime uses (the
cache directories `spill` shares, the held Ctrl-C) is kept, its quoted annotations unquoted
(the plain module is under `from __future__ import annotations`).

`join()`: the runtime chunks those names reach (transitively; `render/module.py` adds `main`,
`invoke` and `asgi` to the program's own), and the imports they need; everything else is left
out (a tool with no date parameter has no date converter and does not import `datetime`). The
chunks of the modules in `catalog.SECTIONS` are marked as sections run on first use;
`Joined.lazy` names each section's functions that other code calls (stand-ins until then), and a
class or table other code uses stays in the code that always runs, unless only a section that
runs after its own uses it (`catalog.AFTER`: the HTTP section after the MCP one; its opening
line says `, after mcp`). With `plain` (the plain form, `gen --plain`), no sections and no
stand-ins, and only the start-up code (`runtime/start/boot.py`) the runtime uses
(`_INTERRUPTED`, the cache directories `spill` shares, `_hold_interrupts`), its quoted
annotations unquoted (`_unquoted`: the plain module is under `from __future__ import
annotations`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from burgee.runtime.catalog import (
    AFTER,
    ALWAYS,
    BOOT,
    HEAD,
    IN_THE_CODE,
    ON_A_MISS,
    SECTIONS,
    TAIL,
    Chunk,
    dotted,
    names_used,
    parse,
    stand_ins,
)
from burgee.runtime.start.boot import _START, SECTION_BEGIN, SECTION_END


@dataclass(frozen=True)
class Joined:
    """The runtime a program needs: code before and after its own, and the imports."""

    head: str
    tail: str
    imports: tuple[str, ...]
    checking: tuple[str, ...]
    #: The start-up code (`runtime/start/boot.py`), always there, outside the compiled-once code.
    boot: str = ""
    #: Section -> the functions of it that code outside it uses (`_boot` makes stand-ins).
    lazy: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Every name the kept runtime binds.
    bound: frozenset[str] = frozenset()

    @property
    def lazy_table(self) -> str:
        """`lazy` as Python (the formatter lays it out)."""
        return repr(self.lazy)


def join(roots: Iterable[str], *, plain: bool = False) -> Joined:
    """The runtime that a program's own code (which uses the names `roots`) needs; `plain`:
    for the plain form, without sections, and only the start-up code that is used."""
    roots = set(roots)
    boot_chunks = [_unquoted(c) for c in parse(BOOT)[0]]
    # NOTE: the program's stand-ins never: the generated file builds its own `PROGRAM`.
    standing_in = stand_ins()
    every = [(m, c) for m in (*HEAD, *TAIL) for c in parse(m)[0] if not c.binds & standing_in]
    every += [(BOOT, c) for c in boot_chunks]
    binders: dict[str, list[Chunk]] = {}
    for _, chunk in every:
        for name in chunk.binds:
            binders.setdefault(name, []).append(chunk)
    kept: set[int] = set()
    wanted = [*roots, *(() if plain else (name for c in boot_chunks for name in c.binds))]
    seen: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.add(name)
        for chunk in binders.get(name, ()):
            if id(chunk) not in kept:
                kept.add(id(chunk))
                wanted.extend(chunk.uses)
    chosen = [(m, c) for m, c in every if id(c) in kept]
    # NOTE: the start-up code's own section (`boot._missed`) runs by no stand-in.
    section, lazy = ({}, {}) if plain else _sections([p for p in chosen if p[0] != BOOT], roots)
    head, tail, start = _Layout(), _Layout(), _Layout()
    boot: list[str] = []
    checking_code: list[str] = []
    for module, chunk in chosen:
        if chunk.text.startswith("\t"):
            text = chunk.text[1:] if plain else chunk.bare[1:]
            if text not in checking_code:
                checking_code.append(text)
        elif module == BOOT and not plain and chunk.binds & ON_A_MISS:
            # NOTE: as boot.py writes it (its lines lead to its source), without its docstrings.
            start.add(chunk.bare, _START, module)
        elif module == BOOT and not plain and chunk.binds & IN_THE_CODE:
            head.add(chunk.bare, "", module)
        elif module == BOOT:
            boot.append(chunk.text)
        else:
            # NOTE: the string carries the code without its documentation (`catalog.bare`).
            text = chunk.text if plain else chunk.bare
            (head if module in HEAD else tail).add(text, section.get(id(chunk), ""), module)
    imports: list[str] = []
    checking: list[str] = []
    for module in (BOOT, *HEAD, *TAIL):
        for found in parse(module)[1]:
            if found.binds not in seen:
                continue
            target = checking if found.checking else imports
            if found.text not in target:
                target.append(found.text)
    return Joined(
        head="\n\n\n".join(text for text in (start.text(), head.text()) if text),
        tail=tail.text(),
        imports=tuple(imports),
        checking=tuple(checking + checking_code),
        boot="\n\n\n".join(boot),
        lazy=lazy,
        bound=frozenset(name for _, chunk in chosen for name in chunk.binds),
    )


def _unquoted(chunk: Chunk) -> Chunk:
    """A start-up chunk with its quoted annotations unquoted: `runtime/start/boot.py` runs without
    `from __future__ import annotations` and quotes what Python 3.9 cannot evaluate, which
    the plain module, under it, needs no more (ruff's UP037)."""
    quoted = [
        annotation
        for node in ast.walk(ast.parse(chunk.text))
        for annotation in _annotations(node)
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str)
    ]
    if not quoted:
        return chunk
    data = chunk.text.encode()
    # NOTE: ast's columns count UTF-8 bytes: each line's start, as a byte offset.
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    # NOTE: from the last to the first, so the places ast gave stay right.
    for node in sorted(quoted, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        begin = starts[node.lineno - 1] + node.col_offset
        end = starts[(node.end_lineno or node.lineno) - 1] + (node.end_col_offset or 0)
        data = data[:begin] + str(node.value).encode() + data[end:]
    text = data.decode()
    return replace(chunk, text=text, uses=chunk.uses | names_used(ast.parse(text)))


def _annotations(node: ast.AST) -> list[ast.expr | None]:
    """The annotations a node holds itself (a function's returns, an argument's, a variable's)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return [node.returns]
    if isinstance(node, ast.arg | ast.AnnAssign):
        return [node.annotation]
    return []


#: The comment that opens each runtime module's code in a tool: a traceback's line leads back
#: to the source file it came from (`MODULE_MARK` + `burgee.runtime.execution.values`).
MODULE_MARK = "# -- module: "


class _Layout:
    """Chunk texts in order, with the lines that open and close a section around runs of
    chunks of the same section, and a line naming each runtime module where its code begins."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.open = ""
        self.module = ""

    def add(self, text: str, section: str, module: str) -> None:
        if module != self.module:
            text = f"{MODULE_MARK}{dotted(module)}\n{text}"
            self.module = module
        if section != self.open:
            self.close()
            if section:
                after = f", after {AFTER[section]}" if section in AFTER else ""
                text = f"{SECTION_BEGIN}{section}{after} ----\n{text}"
            self.open = section
        self.texts.append(text)

    def close(self) -> None:
        if self.open:
            self.texts[-1] += f"\n{SECTION_END}{self.open} ----"
            self.open = ""

    def text(self) -> str:
        self.close()
        return "\n\n\n".join(self.texts)


def _sections(
    chosen: list[tuple[str, Chunk]], roots: set[str]
) -> tuple[dict[int, str], dict[str, tuple[str, ...]]]:
    """Which kept chunks go to a section (chunk id -> section), and the functions of each
    section that code outside it calls (section -> names). A chunk outside code uses other
    than as a function, and what it needs at once, stays in the code that always runs."""
    section = {}
    for module, chunk in chosen:
        if chunk.text.startswith("\t") or not chunk.binds or chunk.binds & ALWAYS:
            continue
        # NOTE: a function's own entry first: it may go elsewhere than the rest of its module.
        found = next(
            (
                SECTIONS[f"{module}.{name}"]
                for name in chunk.binds
                if f"{module}.{name}" in SECTIONS
            ),
            SECTIONS.get(module),
        )
        if found is not None:
            section[id(chunk)] = found
    owner = {name: c for _, c in chosen if id(c) in section for name in c.binds}
    while True:
        # NOTE: uses from outside: the program's own code, code that always runs, and the
        # other sections.
        outside: dict[str, set[str]] = {name: {""} for name in roots if name in owner}
        for _, chunk in chosen:
            if chunk.text.startswith("\t"):
                continue  # NOTE: type checkers' code, never run
            here = section.get(id(chunk), "")
            for name in chunk.uses & owner.keys():
                outside.setdefault(name, set()).add(here)
        pulled = {
            id(owner[name])
            for name, where in outside.items()
            if not owner[name].function and _elsewhere(where, section[id(owner[name])])
        }
        if not pulled:
            break
        for chunk_id in pulled:
            del section[chunk_id]
        owner = {name: c for name, c in owner.items() if id(c) in section}
    lazy: dict[str, list[str]] = {}
    for name, where in sorted(outside.items()):
        home = section[id(owner[name])]
        if _elsewhere(where, home):
            lazy.setdefault(home, []).append(name)
    return section, {home: tuple(names) for home, names in sorted(lazy.items())}


def _elsewhere(where: set[str], home: str) -> set[str]:
    """The places of `where` (sections; "": the code that always runs) that may use a name of
    section `home` before `home` has run: all but `home` and the sections run after it."""
    return {here for here in where if here != home and AFTER.get(here) != home}
