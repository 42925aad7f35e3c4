"""The generator's view of the runtime: each module as chunks of code and the names they bind.

Each runtime module's header (comment lines above its docstring, dropped when joined)
declares where it joins and which lazy section it, or a name of it, goes to (`Declared`);
the join order (`BOOT`, `HEAD`, `TAIL`), `SECTIONS`, `AFTER` and `ALWAYS` are derived from
those lines alone, and the stubs follow the join order (tests/test_runtime_order.py).

Never joined into a tool (nor is `program`'s stand-in `PROGRAM`): `burgee gen` reads it to
choose what a program needs (`burgee.render.join`) and which names a handlers file may not
redefine.

(never joined): the generator's view of the runtime: the join order (`BOOT`, `HEAD`, `TAIL`) and
the sections, derived from each module's header (`# burgee: joins tail 120`, `# burgee: section
agent`; `Declared`), each module's top-level statements as chunks (kept as JSON in burgee's
private cache, keyed by the module's text), and every name the runtime binds; `SECTIONS` (a
module, or one function as `module.name` -> the section it runs in: argparse (and all of
`cli_help`), agent, validate, timeout, async, confirm, batch, describe, invoke, mcp, http: the
HTTP endpoint, the stdlib server and the ASGI application, which a stdio session never loads),
`AFTER` (a section -> the one `_boot` runs before it: http, elicit and clients after mcp, whose
classes and names they use; a function's own entry in `SECTIONS` wins over its module's) and
`ALWAYS` (functions of those modules a plain run calls, and `asgi`).
`names_used()`/`code_names()`: the names a piece of code uses (the handlers' code is asked
twice, parsed once: `code_tree()`, which `read/strip.py` and `render/completions.arities` read
too); `generated_names()`: the same for the per-command code gen writes, read with one regular
expression (tested to agree with `ast` on every golden for the names `join` reads).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import io
import json
import keyword
import os
import re
import sys
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

_RUNTIME = "burgee.runtime"
#: The line of a runtime module's header that declares its place: the comment lines above
#: its docstring, which the joiner drops (nothing of them runs in a tool).
_DECLARATION = "# burgee: "


@dataclass(frozen=True)
class Declared:
    """What one runtime module's header declares: the one source of the join order, the
    sections and (through the order) the stubs.

    - `# burgee: joins boot`, `joins head N` or `joins tail N`: the start-up code, or joined
      before the handlers' code or after the per-program tables, by rank `N` (gaps leave room).
    - `# burgee: section NAME` (optionally `after OTHER`): all of the module goes to lazy
      section NAME, which `_boot` compiles and runs the first time one of its functions is
      called; `after OTHER`: its code needs OTHER's when it runs, and `_boot` runs OTHER first.
    - `# burgee: section NAME: a b`: those names of the module go to NAME (elsewhere than the
      rest of their module, if that has a section).
    - `# burgee: always: a b`: names of a sectioned module that a plain run calls: they stay
      in the code that always runs.
    - `# burgee: in the code: a b` (the start-up code's alone): names it needs only once the
      code that always runs has run: they are in that code (compiled once), not in the
      start-up code a script compiles on every run.
    """

    place: str
    rank: int
    section: str | None = None
    #: Each name with a section of its own -> that section.
    names: dict[str, str] = dataclasses.field(default_factory=dict)
    always: frozenset[str] = frozenset()
    in_the_code: frozenset[str] = frozenset()
    #: Each section whose `after` this module declares -> the section run first.
    after: dict[str, str] = dataclasses.field(default_factory=dict)


_PLACES = ("boot", "head", "tail")


def _declared(module: str, text: str) -> Declared:
    """The declaration in the header of one runtime module's source `text`."""
    joins: tuple[str, int] | None = None
    section = None
    names: dict[str, str] = {}
    always: set[str] = set()
    in_the_code: set[str] = set()
    after: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if not line.startswith(_DECLARATION):
            continue
        verb, _, rest = line[len(_DECLARATION) :].partition(" ")
        head, colon, listed = rest.partition(":")
        words = head.split()
        if verb == "joins" and words and words[0] in _PLACES and not colon:
            if joins is not None:
                raise ValueError(f"{module}: joins twice")
            rank = words[1:] or ["0"]
            joins = (words[0], int(rank[0]))
        elif verb == "section" and words and len(words) in (1, 3) and words[1:2] in ([], ["after"]):
            if len(words) == 3:
                after[words[0]] = words[2]
            if colon:
                names.update(dict.fromkeys(listed.split(), words[0]))
            else:
                section = words[0]
        elif verb == "always:":
            always.update(rest.split())
        elif verb == "in" and head == "the code" and colon:
            in_the_code.update(listed.split())
        else:
            raise ValueError(f"{module}: {line!r} not understood")
    if joins is None:
        raise ValueError(f"{module}: no `# burgee: joins` line in its header")
    if in_the_code and joins[0] != "boot":
        raise ValueError(f"{module}: `in the code` is for the start-up code alone")
    return Declared(
        joins[0], joins[1], section, names, frozenset(always), frozenset(in_the_code), after
    )


@cache
def declarations() -> dict[str, Declared]:
    """Each runtime module's declaration, by its name (all but this one, never joined)."""
    return {m: _declared(m, source(m)) for m in _folders() if m != __name__.rpartition(".")[2]}


def _joined(place: str) -> tuple[str, ...]:
    found = [(d.rank, m) for m, d in declarations().items() if d.place == place]
    return tuple(module for _, module in sorted(found))


def _sections() -> dict[str, str]:
    found: dict[str, str] = {}
    for module, declared in declarations().items():
        if declared.section:
            found[module] = declared.section
        found.update({f"{module}.{name}": s for name, s in declared.names.items()})
    return found


def _after() -> dict[str, str]:
    found: dict[str, str] = {}
    for module, declared in declarations().items():
        for section, first in declared.after.items():
            if found.setdefault(section, first) != first:
                raise ValueError(f"{module}: section {section} after {first}, not {found[section]}")
    return found


@cache
def _folders() -> dict[str, str]:
    """Each runtime module's folder, by its name (`"values"` -> `"execution."`; `"program"`,
    at the top, -> `""`)."""
    top = files(_RUNTIME)
    folders = [top, *(f for f in top.iterdir() if f.is_dir() and not f.name.startswith("_"))]
    return {
        entry.name.removesuffix(".py"): "" if folder is top else f"{folder.name}."
        for folder in folders
        for entry in folder.iterdir()
        if entry.name.endswith(".py") and entry.name != "__init__.py"
    }


def dotted(module: str) -> str:
    """The import name of one runtime module: `"values"` -> `"burgee.runtime.execution.values"`."""
    return f"{_RUNTIME}.{_folders()[module]}{module}"


def source(module: str) -> str:
    """The source text of one runtime module (`"values"`), as installed."""
    path = _folders()[module].replace(".", "/")
    return (files(_RUNTIME) / f"{path}{module}.py").read_text("utf-8")


@dataclass(frozen=True)
class Chunk:
    """One top-level statement of a runtime module."""

    module: str
    binds: frozenset[str]
    uses: frozenset[str]
    text: str
    #: Whether it is a `def`: then a stand-in that loads its section can take its place.
    function: bool = False
    #: `text` as a tool's string carries it (`bare()`); "" for a chunk that never goes there.
    bare: str = ""


@dataclass(frozen=True)
class Import:
    """One standard-library import a runtime module makes: the name it binds, its source."""

    binds: str
    text: str
    checking: bool


def names_used(tree: ast.AST) -> frozenset[str]:
    """Every name an AST loads or stores (annotations included: type checkers read them)."""
    # NOTE: the same nodes `ast.walk` visits, without its generator: twice as fast on the
    # code of a 1,000-command tool.
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is ast.Name:
            found.add(node.id)
            continue
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                stack.extend([item for item in value if isinstance(item, ast.AST)])
            elif isinstance(value, ast.AST):
                stack.append(value)
    return frozenset(found)


_KEYWORDS = frozenset(("", *keyword.kwlist))

#: What `generated_names` skips, or (group 1) a name it keeps.
_GENERATED_TOKENS = re.compile(
    r"""
    \"\"\"[\s\S]*?\"\"\" | '''[\s\S]*?'''     # a triple-quoted string
    | "(?:[^"\\\n]|\\.)*" | '(?:[^'\\\n]|\\.)*'  # a string, as `model.literals.py` writes one
    | \#[^\n]*                                  # a comment
    | \d[\w.]*                                  # a number (`0x1F` holds no name)
    | \.\.\.                                    # Ellipsis (not an attribute of the next line)
    | \.\s*[A-Za-z_]\w*                          # an attribute
    | \b(?:def|class)\s+[A-Za-z_]\w*               # the name a definition binds
    | [(,]\s*\**[A-Za-z_]\w*\s*=(?!=)            # a keyword argument or a parameter's default
    | ([A-Za-z_]\w*)
    """,
    re.VERBOSE,
)


def generated_names(code: str) -> frozenset[str]:
    """`names_used` of code burgee generates (the per-command functions and tables), read
    with one regular expression: parsing that code with `ast` was a sixth of a 1,000-command
    gen. It may find more (a parameter's name), never fewer: only names the runtime binds
    matter to `join`, and for those the two agree on every golden program
    (tests/test_runtime_join.py). Not for f-strings or handlers' code."""
    return frozenset(_GENERATED_TOKENS.findall(code)) - _KEYWORDS


@lru_cache(maxsize=4)
def code_names(code: str) -> frozenset[str]:
    """`names_used` of some source text, kept: the handlers' code is asked about twice (which
    typing imports it keeps, which runtime it reaches)."""
    return names_used(code_tree(code))


@lru_cache(maxsize=4)
def code_tree(code: str) -> ast.Module:
    """The `ast` tree of some source text, parsed once: the handlers' code, as the IR keeps it,
    is read by `read/strip.py` too. Callers must not change it."""
    return ast.parse(code)


def _binds(node: ast.stmt) -> frozenset[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return frozenset({node.name})
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    return frozenset(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))


def _import_texts(node: ast.Import | ast.ImportFrom, checking: bool) -> Iterable[Import]:
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if module.startswith(_RUNTIME) or module == "__future__":
            return
        for alias in node.names:
            if module == "typing" and alias.name == "TYPE_CHECKING":
                # NOTE: the generated module defines it itself, without importing typing.
                continue
            shown = f"{alias.name} as {alias.asname}" if alias.asname else alias.name
            # NOTE: `typing` costs milliseconds of start-up; only type checkers import it.
            text = f"from {module} import {shown}"
            yield Import(alias.asname or alias.name, text, checking or module == "typing")
        return
    for alias in node.names:
        shown = f"{alias.name} as {alias.asname}" if alias.asname else alias.name
        yield Import(alias.asname or alias.name.split(".")[0], f"import {shown}", checking)


def _is_type_checking(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and (node.test.id == "TYPE_CHECKING")
    )


@cache
def parse(module: str) -> tuple[tuple[Chunk, ...], tuple[Import, ...]]:
    """The chunks and the imports of one runtime module (kept in burgee's private cache,
    keyed by the module's text: parsing them all was a third of a small `burgee gen`)."""
    text = source(module)
    stored = _stored(module, text)
    if stored is not None:
        return stored
    found = _parse(module, text)
    _store(module, text, found)
    return found


#: What a stored entry holds: a new one whenever `_parse` writes its chunks otherwise.
_FORMAT = 3


def _entry(module: str, text: str) -> str | None:
    from burgee.runtime.start.boot import _cache_directory

    directory = _cache_directory()
    if directory is None:
        return None
    digest = hashlib.sha256(f"{sys.version}\0{_FORMAT}\0{text}".encode()).hexdigest()[:24]
    return os.path.join(directory, f"catalog-{module}-{digest}.json")


def _stored(module: str, text: str) -> tuple[tuple[Chunk, ...], tuple[Import, ...]] | None:
    entry = _entry(module, text)
    try:
        with open(entry or "", encoding="utf-8") as stream:
            data = json.load(stream)
        chunks = tuple(
            Chunk(
                module,
                frozenset(c["binds"]),
                frozenset(c["uses"]),
                c["text"],
                c["function"],
                c["bare"],
            )
            for c in data["chunks"]
        )
        imports = tuple(Import(i["binds"], i["text"], i["checking"]) for i in data["imports"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return chunks, imports


def _store(module: str, text: str, found: tuple[tuple[Chunk, ...], tuple[Import, ...]]) -> None:
    entry = _entry(module, text)
    if entry is None:
        return
    chunks, imports = found
    data = {
        "chunks": [
            {
                "binds": sorted(c.binds),
                "uses": sorted(c.uses),
                "text": c.text,
                "function": c.function,
                "bare": c.bare,
            }
            for c in chunks
        ],
        "imports": [{"binds": i.binds, "text": i.text, "checking": i.checking} for i in imports],
    }
    temporary = f"{entry}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as stream:
            json.dump(data, stream)
        os.replace(temporary, entry)
        # NOTE: the module's older entries (from before an edit) go.
        folder, name = os.path.split(entry)
        for old in os.listdir(folder):
            if old.startswith(f"catalog-{module}-") and old != name:
                os.unlink(os.path.join(folder, old))
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _parse(module: str, text: str) -> tuple[tuple[Chunk, ...], tuple[Import, ...]]:
    lines = text.splitlines()
    tree = ast.parse(text)
    chunks: list[Chunk] = []
    imports: list[Import] = []
    end = 0
    for index, node in enumerate(tree.body):
        start, end = end, node.end_lineno or node.lineno
        if index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.extend(_import_texts(node, checking=False))
            continue
        if _is_type_checking(node):
            assert isinstance(node, ast.If)
            for inner in node.body:
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    imports.extend(_import_texts(inner, checking=True))
                else:
                    # NOTE: TypeVars and the like: kept in the TYPE_CHECKING block.
                    segment = ast.get_source_segment(text, inner) or ""
                    checking = Chunk(module, _binds(inner), names_used(inner), "\t" + segment)
                    chunks.append(dataclasses.replace(checking, bare="\t" + bare(segment)))
            continue
        # NOTE: from the end of the previous statement, so the comments above come along.
        body = "\n".join(lines[start:end]).strip("\n")
        function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        chunks.append(Chunk(module, _binds(node), names_used(node), body, function, bare(body)))
    return tuple(chunks), tuple(imports)


def bare(text: str) -> str:
    """A chunk's code without its documentation: its docstrings (but a body's only statement:
    each line stays a line of the runtime's source, for a traceback's reader) and its `#:`
    comments, each line that held one gone. Nothing reads them at run time (`python -OO` drops
    docstrings too), and a script's whole text is read, tokenized and parsed on every run; a
    reader has burgee's source, which each module's first line in the tool names (`# --
    module: burgee.runtime.NAME`). The `# NOTE:` comments stay."""
    lines = text.split("\n")
    dropped: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        first = node.body[0]
        if len(node.body) == 1 or not (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            continue
        start, end = first.lineno - 1, (first.end_lineno or first.lineno) - 1
        after = lines[end].encode()[first.end_col_offset or 0 :].decode().strip()
        if lines[start][: first.col_offset].strip() or (after and not after.startswith("#")):
            continue  # NOTE: not on lines of its own (`def f(): "..."`): left as it is
        dropped.update(range(start, end + 1))
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and token.string.startswith("#:"):
            row = token.start[0] - 1
            if not token.line[: token.start[1]].strip():
                dropped.add(row)
    return "\n".join(line for number, line in enumerate(lines) if number not in dropped)


def stand_ins() -> frozenset[str]:
    """What `runtime/program.py` binds but the `Program` type: the stand-in `PROGRAM` (and its
    parts) for the one a generated file builds itself; never joined."""
    return frozenset(
        name for chunk in parse("program")[0] for name in chunk.binds if name != "Program"
    )


def runtime_names() -> frozenset[str]:
    """Every top-level name the runtime binds, in any module: a handler may not reuse one."""
    found: set[str] = set()
    for module in (BOOT, *HEAD, *TAIL):
        chunks, _ = parse(module)
        for chunk in chunks:
            found |= chunk.binds
    return frozenset(found)


#: The start-up code: always joined, ahead of the code it compiles once and caches.
(BOOT,) = _joined("boot")
#: Modules joined before the handlers' code, in this order.
HEAD = _joined("head")
#: Modules joined after the per-program tables, in this order.
TAIL = _joined("tail")
#: What a plain run of a command never needs: a module (all of it) or one name of one
#: (`module.name`), and the section of the code it goes to. What code outside a section uses
#: of it, other than by calling a function, stays in the code that always runs
#: (`burgee.render.join`).
SECTIONS = _sections()
#: A section whose code needs another's when it runs (a base class, a name its functions use)
#: -> that section, which `_boot` runs first; the section's uses of it need no stand-in and
#: keep nothing of it in the code that always runs (`burgee.render.join`).
AFTER = _after()
#: Names of sectioned modules that a plain run of a command calls, and `asgi` (an ASGI
#: server's import of the tool finds it, and tells an ASGI 3 application by its being a
#: coroutine function, which a section's stand-in is not): they always run.
ALWAYS = frozenset(name for d in declarations().values() for name in d.always)
#: The start-up code only a run the cache cannot answer needs: `boot.py`'s header puts it in
#: the section `start` of a tool's code, which `boot._missed` compiles on such a run.
ON_A_MISS = frozenset(name.partition(".")[2] for name in SECTIONS if name.startswith(f"{BOOT}."))
#: The start-up code needed only once the code that always runs has run (`in the code`): it
#: is in that code, compiled once, not in what a script compiles on every run.
IN_THE_CODE = declarations()[BOOT].in_the_code
