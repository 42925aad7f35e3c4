"""The start of a generated tool: its code, compiled once and then read from a private cache.

Python compiles a script's whole source on every run (scripts get no `.pyc`), and compiling
code costs far more than reading it: most of a tool's start-up when run as `python tool.py`.
So the generated module keeps its code in one string, `_CODE` (raw, readable, patchable:
edits take effect on the next run), and `_boot` compiles it the way the interpreter would
have — same file name, same line numbers, so tracebacks and `inspect` point at the real lines
of the file — and keeps the compiled code in a private cache keyed by the Python version and
the file's path, size and modification time (as a `.pyc` is).

The cache is a directory only this user may write (0700, checked before anything is read from
it: a cache is code that runs), written atomically (a temporary file, then `os.replace`, so
two processes racing both end up with a whole file), pruned of the file's older entries, and
never required: when it cannot be read or written the code is compiled as it would have been
without it. `python -B` stops writes (reads go on). `PYTHONDONTWRITEBYTECODE` does not: it is
about `.pyc` files beside sources, container images set it routinely, and without the cache an
installed tool would compile its code on every run. `BURGEE_CACHE_DIR` names another
directory, or `off` for none. The directory keeps the newest `_KEEP` entries.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType
    from typing import Any

#: `compile()` flag of `from __future__ import annotations`: the code is compiled as the
#: module around it is, wherever `_boot` is called from.
_ANNOTATIONS = 0x1000000
#: How many entries the cache keeps (one per tool file and Python version).
_KEEP = 64
#: Where the code starts in the file (the line after it, as the string opens with a newline).
_CODE_START = "\n_CODE = r'''\n"


def _cache_directory() -> str | None:
    """The private cache directory, made if need be; None when there is none to use. The
    user's cache directory first; when it cannot be used (a read-only home, as in many
    containers), a per-user one in the temporary directory."""
    chosen = os.environ.get("BURGEE_CACHE_DIR", "")
    if chosen == "off":
        return None
    if chosen:
        return _private(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA", base)
    found = _private(os.path.join(base, "burgee"))
    if found is None:
        temporary = os.environ.get("TMPDIR") or os.environ.get("TEMP") or "/tmp"
        getuid = getattr(os, "getuid", None)
        found = _private(os.path.join(temporary, f"burgee-{getuid() if getuid else 'user'}"))
    return found


def _private(chosen: str) -> str | None:
    """`chosen`, made if need be, when only this user may write in it; else None."""
    try:
        found = os.stat(chosen)
    except FileNotFoundError:
        if not _may_write():
            return None
        try:
            os.makedirs(chosen, mode=0o700, exist_ok=True)
            found = os.stat(chosen)
        except (OSError, ValueError):
            return None
    except (OSError, ValueError):
        return None
    getuid = getattr(os, "getuid", None)
    if getuid is not None and (found.st_uid != getuid() or found.st_mode & 0o022):
        return None  # NOTE: others could plant code in it
    return chosen


def _key(path: str) -> tuple[str, str] | None:
    """The cache entry's name: the file's part (shared by its entries) and the whole key;
    None when the file cannot be seen (then nothing is cached)."""
    import _imp

    try:
        found = os.stat(path)
    except OSError:
        return None
    # NOTE: like a .pyc, the file's size and modification time (in nanoseconds) stand for its
    # content: hashing the text itself costs milliseconds on a large tool.
    stamp = f"{sys.version}\0{sys.implementation.cache_tag}\0{found.st_size}:{found.st_mtime_ns}"
    where = _imp.source_hash(0, os.fsencode(path))
    what = _imp.source_hash(1, stamp.encode())
    return where.hex(), where.hex() + "-" + what.hex()


def _compiled(path: str, code: str) -> CodeType:
    """`code` compiled as the lines of `path` it is (padded, so line numbers match)."""
    padding = 0
    try:
        with open(path, encoding="utf-8") as source:
            text = source.read()
        at = text.find(_CODE_START)
        if at >= 0 and text[at + len(_CODE_START) :].startswith(code[1:]):
            padding = text.count("\n", 0, at) + 2
    except (OSError, UnicodeDecodeError):
        pass
    compiled: CodeType = compile(
        "\n" * padding + code[1:], path, "exec", _ANNOTATIONS, dont_inherit=True
    )
    return compiled


def _load_code(path: str, code: str) -> CodeType:
    """The compiled `code` of the file at `path`, from the cache when it is there."""
    import marshal

    directory = _cache_directory()
    key = None if directory is None else _key(path)
    if directory is None or key is None:
        return _compiled(path, code)
    prefix, name = key
    entry = os.path.join(directory, name + ".code")
    try:
        with open(entry, "rb") as cached:
            return marshal.loads(cached.read())  # type: ignore[no-any-return]
    except (OSError, EOFError, ValueError, TypeError):
        pass
    compiled = _compiled(path, code)
    if _may_write():
        _store(directory, prefix, entry, marshal.dumps(compiled))
    return compiled


def _may_write() -> bool:
    """False under `python -B` (see the module's docstring for PYTHONDONTWRITEBYTECODE)."""
    return not sys.dont_write_bytecode or bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))


def _store(directory: str, prefix: str, entry: str, data: bytes) -> None:
    """Write one entry atomically, drop the file's older ones and all but the newest `_KEEP`;
    quietly, whatever happens."""
    temporary = f"{entry}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as out:
            out.write(data)
        os.replace(temporary, entry)
        kept = []
        for name in os.listdir(directory):
            path = os.path.join(directory, name)
            if name.startswith(prefix + "-") and path != entry:
                os.unlink(path)
            elif name.endswith(".code") and path != entry:
                kept.append((os.stat(path).st_mtime_ns, path))
        for _, path in sorted(kept)[: max(0, len(kept) - _KEEP + 1)]:
            os.unlink(path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _boot(namespace: dict[str, Any], code: str) -> Callable[..., int]:
    """Run the module's code (`_CODE`) in its namespace, compiled or from the cache; return
    its `main`."""
    path = namespace.get("__file__")
    # NOTE: exec of the module's own code, as the interpreter would have run it.
    if isinstance(path, str):
        exec(_load_code(os.path.abspath(path), code), namespace)  # noqa: S102
    else:
        compiled = compile(code, "<burgee>", "exec", _ANNOTATIONS, dont_inherit=True)
        exec(compiled, namespace)  # noqa: S102
    return namespace["main"]  # type: ignore[no-any-return]
