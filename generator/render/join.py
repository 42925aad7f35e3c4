"""Join the runtime modules into one generated file, keeping only what a program uses.

Each runtime module (`burgee.runtime.*`) is ordinary Python. Here every top-level statement
becomes a `Chunk` (the names it binds, the names it uses, its text with the comments above
it); a program keeps the chunks its own code reaches, directly or through other chunks, so
a tool without dates carries no date converter and does not import `datetime`. Imports
between runtime modules disappear (everything lands in one namespace); the standard-library
imports a kept chunk needs go to the module's import block, the annotation-only ones to its
`if TYPE_CHECKING:` block.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from burgee.runtime.catalog import BOOT, HEAD, TAIL, Chunk, parse


@dataclass(frozen=True)
class Joined:
    """The runtime a program needs: code before and after its own, and the imports."""

    head: str
    tail: str
    imports: tuple[str, ...]
    checking: tuple[str, ...]
    #: The start-up code (`runtime/boot.py`), always there, outside the compiled-once code.
    boot: str = ""


def join(roots: Iterable[str]) -> Joined:
    """The runtime that a program's own code (which uses the names `roots`) needs."""
    every = [(m, c) for m in (*HEAD, *TAIL, BOOT) for c in parse(m)[0]]
    binders: dict[str, list[Chunk]] = {}
    for _, chunk in every:
        for name in chunk.binds:
            binders.setdefault(name, []).append(chunk)
    kept: set[int] = set()
    wanted = [*roots, *(name for chunk in parse(BOOT)[0] for name in chunk.binds)]
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
    head: list[str] = []
    tail: list[str] = []
    boot: list[str] = []
    checking_code: list[str] = []
    for module, chunk in every:
        if id(chunk) not in kept:
            continue
        if chunk.text.startswith("\t"):
            if chunk.text[1:] not in checking_code:
                checking_code.append(chunk.text[1:])
        elif module == BOOT:
            boot.append(chunk.text)
        elif module in HEAD:
            head.append(chunk.text)
        else:
            tail.append(chunk.text)
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
        head="\n\n\n".join(head),
        tail="\n\n\n".join(tail),
        imports=tuple(imports),
        checking=tuple(checking + checking_code),
        boot="\n\n\n".join(boot),
    )
