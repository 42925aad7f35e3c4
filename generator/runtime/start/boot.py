# burgee: joins boot
# burgee: section start: _pieces _order _compiled _entry _sealed _store _compile
# burgee: in the code: _stand_ins _stored_section _read_owned
"""The start of a generated tool: burgee's runtime, compiled once and then read from a private
cache.

Python compiles a script's whole source on every run (scripts get no `.pyc`), and compiling
code costs far more than reading it: most of a tool's start-up when run as `python tool.py`.
So the generated module keeps burgee's runtime in one raw string, the file's last statement
(readable, patchable: edits take effect on the next run), and `_boot`, called before the
handlers' code (ordinary code, which needs the runtime's names), compiles it
into the module's namespace the way the interpreter would have — same
file name, same line numbers, so tracebacks and `inspect` point at the real lines of the
file — and keeps the compiled code in a private cache keyed by the Python version and the
file's path, size and modification time (as a `.pyc` is). The string is a statement of its
own, not assigned to a name: Python's compiler drops it, so an installed tool's `.pyc` does
not carry the code a second time (loading it cost a 500-command tool ~1 ms a run); `_boot`
reads the code from the file only when the cache does not have it.

The cache is a directory only this user may write (0700, checked before anything is read from
it: a cache is code that runs; never a symlink, which another user could plant in the
temporary directory to point at one of this user's own directories), written atomically (a
temporary file, then `os.replace`, so two processes racing both end up with a whole file),
pruned of the file's older entries, and never required: when it cannot be read or written the
code is compiled as it would have been without it. `python -B` stops writes (reads go on).
`PYTHONDONTWRITEBYTECODE` does not: it is about `.pyc` files beside sources, container images
set it routinely, and without the cache an installed tool would compile its code on every run.
`BURGEE_CACHE_DIR` names another directory, or `off` for none. The directory keeps the `_KEEP`
entries used most recently (a hit marks its entry used: one `futimens`, some microseconds).

An entry is read only when it is a regular file, not a symlink, of this user's that no one
else may write (`_open_owned`). A run reads its head alone (`_entry`: the code that always
runs, and where each section is), which carries a digest of its name and content (`_sealed`),
checked before anything in it is unmarshalled: a bit flipped on disk, a file cut short or
another file's entry under its name is a miss, compiled again and replaced, never run
(marshal trusts its input: a flipped bit could crash the interpreter). Each section is read
when it first runs, and checked against its own digest, kept in the head: one that is not
whole and right is compiled from the file, and the entry goes. Reading and checking the
sections a run never needs cost it as much as the code it runs (0.6 ms of CPU a start).
The digest is `_imp.source_hash` (SipHash, 64 bits, what hash-based `.pyc` files use): already
imported and as fast as `zlib.crc32` (0.15-0.4 ms for the 580 kB entry of a 500-command tool,
whose run takes some 22 ms of CPU), where zlib's import costs as much again and
`hashlib.blake2b` took five times as long after a 10 ms import. It guards against corruption,
not an attacker: no one else can write in the directory.

Most of the code is rarely needed by one run (the MCP server, argparse's help and errors,
describing the tool, truncation, batches), so it sits in sections, each between a
`# ---- burgee: loaded on first use: NAME ----` line and its `# ---- burgee: end of NAME ----`
line. A run compiles (or unmarshals) and runs only the code outside them; each function of a
section that other code uses gets a stand-in (the generated `_LAZY` table names them) that
runs the section the first time it is called and then calls the real function. A section
whose code needs another's (the HTTP server builds on the MCP server's classes) says so on its
opening line (`# ---- burgee: loaded on first use: NAME, after OTHER ----`), and OTHER runs
first. Every piece is compiled with the other pieces' lines left empty, so line numbers stay
the file's.

A tool's start-up code is ordinary code that Python compiles on every run of a script, so what
only a run the cache cannot answer needs (splitting the code into pieces, compiling and storing
them: the functions its header names) is in the string too, as its section `start`, which
`_missed` compiles on such a run (here, in burgee's own module, it is defined already); and
what only runs once the code that always runs has run (the stand-ins, a section read from the
cache) is in that code (`# burgee: in the code:`), which defines it before `_boot` calls it.

This module runs as it is written, without `from __future__ import annotations` (importing
`__future__` costs a run more than a twentieth of Python's own start-up): its annotations are
quoted where Python 3.9 could not evaluate them.
"""

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType
    from typing import Any, BinaryIO, NoReturn

#: `compile()` flag of `from __future__ import annotations`: the code is compiled as the
#: module around it is, wherever `_boot` is called from.
_ANNOTATIONS = 0x1000000
#: How many entries the cache keeps (one per tool file and Python version).
_KEEP = 64
#: An entry begins with a digest of the rest (`_sealed`): its key and length.
_DIGEST_KEY = 2
_DIGEST_SIZE = 8
#: An entry begins with the length of its head (`_entry`), in this many bytes.
_HEAD_SIZE = 8
#: The lines that open the code in the file; the string begins with the newline after them.
_CODE_OPEN = (
    "# ---- The tool's code: compiled once, then read from a private cache (see _boot) ----\nr'''"
)
#: SIGINTs held while the code was being defined (`_hold_interrupts`; `main` answers the first
#: as `interrupted`).
_INTERRUPTED: "list[int]" = []
#: The exit code of `interrupted` (128 + SIGINT), here because `_boot` may need it before the
#: rest of the runtime exists; `errors.BUILTIN_ERRORS` reads it.
EXIT_INTERRUPTED = 130
#: The code's heading: a raw string (the rest of `_CODE_OPEN`) or the packed code follows it.
_HEADING = _CODE_OPEN.partition("\n")[0] + "\n"
#: The line under the code's heading when the code is packed: base64 of zlib, a fifth of the
#: text, as comment lines (`# ` and the data) up to `PACKED_END`; a script's run reads every
#: byte of its file, and the tokenizer reads a comment faster than a string.
PACKED = "# burgee: the code, packed (base64 of zlib); `burgee gen --plain` writes it as code\n"
#: The line after the packed code: what follows it (a footer, an editor's modeline) is the
#: module's, as after a string.
PACKED_END = "# burgee: end of the packed code\n"
#: The lines around a section of the code (the section's name and " ----" follow).
SECTION_BEGIN = "# ---- burgee: loaded on first use: "
SECTION_END = "# ---- burgee: end of "
#: After a section's name on its opening line: the section that must run before it (`_order`).
SECTION_AFTER = ", after "
#: The section of a tool's code that holds the start-up code only a run the cache cannot
#: answer needs (`_missed`).
_START = "start"


def _cache_directory() -> "str | None":
    """The private cache directory, made if need be; None when there is none to use. The
    user's cache directory first; when it cannot be used (a read-only home, as in many
    containers), a per-user one in the temporary directory."""
    chosen = os.environ.get("BURGEE_CACHE_DIR", "")
    if chosen == "off":
        return None
    if chosen:
        return _private(chosen, _may_write())
    base = _user_cache()
    found = _private(os.path.join(base, "burgee"), _may_write()) if base else None
    return found if found is not None else _private(_temporary_cache(), _may_write())


def _user_cache() -> "str | None":
    """The user's cache directory: $XDG_CACHE_HOME or ~/.cache, %LOCALAPPDATA% on Windows; the
    code cache and saved outputs (`spill`) go under it."""
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(
            os.path.expanduser("~"), "AppData", "Local"
        )
    else:
        base = os.environ.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base):  # NOTE: the XDG spec: a relative one is to be ignored
            base = os.path.join(os.path.expanduser("~"), ".cache")
    # NOTE: no home (`~` stays `~` without HOME or a passwd entry): never the working directory.
    return base if os.path.isabs(base) else None


def _temporary_cache() -> str:
    """This user's directory in the temporary directory: where the cache goes when the user's
    cache directory cannot be used (`_private` checks it is this user's alone)."""
    temporary = os.environ.get("TMPDIR") or os.environ.get("TEMP") or "/tmp"
    getuid = getattr(os, "getuid", None)
    return os.path.join(temporary, f"burgee-{getuid() if getuid else 'user'}")


def _private(chosen: str, make: bool) -> "str | None":
    """`chosen` (made if need be and `make`) when it is a directory, not a symlink, that only
    this user may write in; else None."""
    import stat

    try:
        found = os.lstat(chosen)
    except FileNotFoundError:
        if not make:
            return None
        try:
            os.makedirs(chosen, mode=0o700, exist_ok=True)
            found = os.lstat(chosen)
        except (OSError, ValueError):
            return None
    except (OSError, ValueError):
        return None
    # NOTE: `lstat`: another user may plant a symlink in the temporary directory that points
    # at one of this user's own private directories (~/.ssh), which would pass the checks.
    if not stat.S_ISDIR(found.st_mode) or not _owned(found):
        return None  # NOTE: others could plant code in it
    return chosen


def _owned(found: "os.stat_result") -> bool:
    """Whether what `found` describes is this user's and no one else may write it."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or (found.st_uid == getuid() and not found.st_mode & 0o022)


def _read_owned(path: str) -> bytes:
    """The bytes of the file at `path`, when it is a regular file of this user's that no one
    else may write, opened without following a symlink; else OSError (FileNotFoundError when
    there is none)."""
    with _open_owned(path) as stream:
        return stream.read()


def _open_owned(path: str) -> "BinaryIO":
    """The file at `path` open for reading, as `_read_owned` reads it."""
    import stat

    # NOTE: O_NONBLOCK: a FIFO in a shared directory would block the open until a writer came.
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags | getattr(os, "O_BINARY", 0))
    except OSError as error:
        import errno

        if error.errno != errno.ELOOP:
            raise
        raise PermissionError(f"{path} is a symlink") from None
    stream = open(handle, "rb")  # noqa: SIM115 (the caller closes it)
    found = os.fstat(handle)
    if not stat.S_ISREG(found.st_mode) or not _owned(found):
        stream.close()
        raise PermissionError(
            f"{path} is not a file of this user's alone (another user's, or open to others' "
            "writes, or no regular file)"
        )
    return stream


def _key(path: str) -> "tuple[str, str] | None":
    """The cache entry's name: the file's part (shared by its entries) and the whole key;
    None when the file cannot be seen (then nothing is cached)."""
    import _imp

    try:
        found = os.stat(path)
    except OSError:
        return None
    # NOTE: like a .pyc, the file's size and modification time (in nanoseconds) stand for its
    # content (hashing the text itself costs milliseconds on a large tool); with the file's
    # identity and change time, so another file behind the same path (a symlink moved) or an
    # edit that kept size and mtime is another entry. `-O` compiles other code.
    python = f"{sys.version}\0{sys.implementation.cache_tag}\0{sys.flags.optimize}"
    stamp = f"{found.st_size}:{found.st_mtime_ns}:{found.st_ctime_ns}:{found.st_dev}:{found.st_ino}"
    # NOTE: one entry per file and Python: writing one drops only that Python's older ones.
    where = _imp.source_hash(0, os.fsencode(path) + b"\0" + python.encode())
    what = _imp.source_hash(1, stamp.encode())
    return where.hex(), where.hex() + "-" + what.hex()


def _pieces(code: str) -> dict[str, str]:
    """The code that always runs (under "") and each section's, every piece as many lines
    long as `code`, with the other pieces' lines left empty."""
    spans: list[tuple[str, int, int]] = []
    at = 0
    while True:
        begin = code.find("\n" + SECTION_BEGIN, at)
        if begin < 0:
            break
        start = begin + 1 + len(SECTION_BEGIN)
        close = code.find(" ----\n", start)
        name = code[start:close].partition(SECTION_AFTER)[0]
        end = code.find(f"\n{SECTION_END}{name} ----", close)
        if close < 0 or end < 0:
            break  # NOTE: a marker edited away: the rest runs at once, as plain code would
        end = code.find("\n", end + 1)
        end = len(code) if end < 0 else end
        spans.append((name, begin + 1, end))
        at = end
    if not spans:
        return {"": code}
    owners = {name for name, _, _ in spans}
    pieces: dict[str, list[str]] = {name: [] for name in ("", *owners)}
    at = 0
    for name, begin, end in [*spans, ("", len(code), len(code))]:
        for segment, owner in ((code[at:begin], ""), (code[begin:end], name)):
            blank = "\n" * segment.count("\n")
            for piece, parts in pieces.items():
                parts.append(segment if piece == owner else blank)
        at = end
    return {name: "".join(parts) for name, parts in pieces.items()}


def _order(code: str) -> "dict[str, str]":
    """Each section that needs another to have run first (its opening line says
    `, after NAME`) -> that section."""
    order = {}
    for line in code.split("\n" + SECTION_BEGIN)[1:]:
        name, after, first = line.partition(" ----\n")[0].partition(SECTION_AFTER)
        if after:
            order[name] = first
    return order


def _file_text(path: str, namespace: "dict[str, Any]") -> "str | None":
    """The module's text: read from the file (or from its loader: a zip archive has no file
    to open); None when neither has it."""
    try:
        with open(path, encoding="utf-8") as source:
            return source.read()
    except (OSError, UnicodeDecodeError):
        get_source = getattr(namespace.get("__loader__"), "get_source", None)
        # NOTE: under `python -m tool` the module is `__main__`; its loader knows it by the
        # name its spec has.
        spec = namespace.get("__spec__")
        name = getattr(spec, "name", None) or namespace.get("__name__")
        try:
            return get_source(name) if get_source else None
        except (ImportError, OSError, UnicodeDecodeError):
            return None


def _code_span(text: "str | None") -> "tuple[int, int, bool] | None":
    """Where the code is in the module's `text`: its start (the newline that ends the line
    above it), its end, and whether it is packed (the comment lines under `PACKED`, up to
    `PACKED_END`) or text (a raw string); None when it is not there."""
    # NOTE: the last heading, at a line's start: the module's docstring, before the code, may
    # show the heading's text (a description of burgee's layout), and the code, a raw string
    # without ''' or lines of base64 after `#`, cannot hold it.
    at = -1 if text is None else text.rfind("\n" + _HEADING) + 1
    if text is None or not at:
        return None
    below = at + len(_HEADING)
    if text.startswith(PACKED, below):
        start = below + len(PACKED) - 1
        end = text.find("\n" + PACKED_END, start) + 1
        return None if not end else (start, end, True)
    end = text.find("'''", below + 4) if text.startswith("r'''", below) else -1
    return None if end < 0 else (below + 4, end, False)


def _unpacked(code: str, path: str = "") -> str:
    """The text of packed code (its comment lines, from the newline above them)."""
    import binascii
    import zlib

    try:
        data = binascii.a2b_base64(code.replace("#", "").replace(" ", "").replace("\n", ""))
        return "\n" + zlib.decompress(data).decode("utf-8")
    except (ValueError, zlib.error) as error:
        raise SystemExit(
            f"{path or 'the tool'}: cannot start: its packed code is damaged ({error}); "
            "regenerate the tool"
        ) from None


def _source(path: str, namespace: "dict[str, Any]") -> "tuple[str, str]":
    """The module's code, and the empty lines that put it at its place in the file: read as
    `_file_text` reads it."""
    text = _file_text(path, namespace)
    span = _code_span(text)
    if text is None or span is None:
        # NOTE: a frozen (PyInstaller) or sourceless install has only the .pyc, which has no
        # code: there is nothing to run, so say why instead of a traceback.
        raise SystemExit(
            f"{namespace.get('PROGRAM_NAME', path)}: cannot start: the code of {path} is not there "
            f"(its source file is missing, or its line {_CODE_OPEN.partition(chr(10))[0]!r} "
            "was edited away); install the tool with its .py file"
        )
    start, end, packed = span
    code = _unpacked(text[start:end], path) if packed else text[start:end]
    return code, "\n" * (text.count("\n", 0, start) + 1)


def _compile(text: str, path: str) -> "CodeType":
    compiled: CodeType = compile(text, path, "exec", _ANNOTATIONS, dont_inherit=True)
    return compiled


def _load_code(
    path: str, namespace: "dict[str, Any]"
) -> "tuple[CodeType, dict[str, Any], dict[str, str]]":
    """The compiled code that always runs, each section as marshalled code (or as text to
    compile when it is first needed), and which sections run after which (`_order`): from
    the cache when they are there."""
    import marshal

    directory = _cache_directory()
    key = None if directory is None else _key(path)
    entry = "" if directory is None or key is None else os.path.join(directory, key[1] + ".code")
    if entry and key is not None:
        try:
            # NOTE: the head alone: reading (and checking) the sections a run never needs
            # cost every run as much as unmarshalling the code it runs.
            with _open_owned(entry) as stream:
                body = _head(key[1], stream)
                start = stream.tell()  # NOTE: where the sections begin
                if body is not None:
                    _used(stream)
            if body is not None:
                hot, index, order = marshal.loads(body)
                sections = {
                    name: (entry, start + at, length, digest)
                    for name, (at, length, digest) in index.items()
                }
                return hot, sections, order
        except (OSError, EOFError, ValueError, TypeError):
            pass  # NOTE: a bad entry is a miss: compiled again, and replaced
    _missed(path, namespace)
    return _compiled(path, namespace, directory, key, entry)


def _missed(path: str, namespace: "dict[str, Any]") -> None:
    """Define the start-up code only a run the cache cannot answer needs: in a tool, the
    section `start` of its code (see the module's docstring), compiled now."""
    if "_compiled" in globals():
        return  # NOTE: burgee's own module, or a tool that has run it already
    code, padding = _source(path, namespace)
    begin = code.find(f"\n{SECTION_BEGIN}{_START} ----\n")
    end = code.find(f"\n{SECTION_END}{_START} ----", begin)
    if begin < 0 or end < 0:
        raise SystemExit(
            f"{namespace.get('PROGRAM_NAME', path)}: cannot start: the section {_START!r} of the "
            f"code of {path} is not there (edited away); regenerate the tool"
        )
    piece = padding + "\n" * code.count("\n", 1, begin + 1) + code[begin + 1 : end]
    exec(compile(piece, path, "exec", _ANNOTATIONS, dont_inherit=True), globals())  # noqa: S102


def _compiled(
    path: str,
    namespace: "dict[str, Any]",
    directory: "str | None",
    key: "tuple[str, str] | None",
    entry: str,
) -> "tuple[CodeType, dict[str, Any], dict[str, str]]":
    """`_load_code`'s answer when the cache has none: the code compiled from the file, and
    written to the cache when it may be."""
    import marshal

    code, padding = _source(path, namespace)
    pieces = {name: padding + text[1:] for name, text in _pieces(code).items()}
    pieces.pop(_START, None)  # NOTE: defined already (`_missed`), and never by a stand-in
    order = _order(code)
    hot = _compile(pieces.pop(""), path)
    if directory is None or key is None or not _may_write():
        return hot, pieces, order
    compiled = {name: marshal.dumps(_compile(text, path)) for name, text in pieces.items()}
    _store(directory, key[0], entry, _entry(key[1], hot, compiled, order))
    return hot, compiled, order


def _entry(
    name: str, hot: "CodeType", sections: "dict[str, bytes]", order: "dict[str, str]"
) -> bytes:
    """A cache entry: the length of its head; the head, sealed (`_sealed`): the code that
    always runs, where each section is after the head (offset, length, digest) and `order`;
    then each section's marshalled code, read and checked only when it runs."""
    import marshal

    index = {}
    at = 0
    for section, data in sections.items():
        index[section] = (at, len(data), _digest(data))
        at += len(data)
    head = _sealed(name, marshal.dumps((hot, index, order)))
    return len(head).to_bytes(_HEAD_SIZE, "little") + head + b"".join(sections.values())


def _used(stream: "BinaryIO") -> None:
    """Mark an entry used now: the cache drops the entries used least recently (`_store`),
    so tools run in turn keep theirs however many others were written since."""
    try:
        os.utime(stream.fileno())
    except (OSError, TypeError, NotImplementedError):
        pass  # NOTE: a file system or platform that will not: the entry is merely older


def _head(name: str, stream: "BinaryIO") -> "memoryview | None":
    """The data of the head of the entry `stream` reads (`_entry`), read alone; None when it
    is not right (`_unsealed`), or longer than the entry (never a huge read)."""
    size = int.from_bytes(stream.read(_HEAD_SIZE), "little")
    if size > os.fstat(stream.fileno()).st_size:
        return None
    return _unsealed(name, stream.read(size))


def _stored_section(where: "tuple[str, int, int, bytes]") -> "CodeType | None":
    """A section's code read from its entry, when it is there whole and right (its digest);
    else None, and the entry goes (the next run writes it again)."""
    import marshal

    entry, start, length, digest = where
    try:
        with _open_owned(entry) as stream:
            stream.seek(start)
            data = stream.read(length)
        if len(data) == length and _digest(data) == digest:
            code: CodeType = marshal.loads(data)
            return code
    except (OSError, EOFError, ValueError, TypeError):
        pass
    try:
        os.unlink(entry)
    except OSError:
        pass
    return None


def _digest(data: "bytes | memoryview") -> bytes:
    # NOTE: why this digest: the module's docstring.
    import _imp

    return _imp.source_hash(_DIGEST_KEY, data)


def _sealed(name: str, data: bytes) -> bytes:
    """An entry as written: the digest of the rest, the entry's name, then `data`."""
    body = name.encode() + b"\0" + data
    return _digest(body) + body


def _unsealed(name: str, entry: bytes) -> "memoryview | None":
    """The data of an entry read back; None when its digest or its name is not right (a bit
    flipped on disk, a file cut short, another file's entry under this name)."""
    head = name.encode() + b"\0"
    body = memoryview(entry)[_DIGEST_SIZE:]
    if body[: len(head)] != head or entry[:_DIGEST_SIZE] != _digest(body):
        return None
    return body[len(head) :]


def _may_write() -> bool:
    """False under `python -B` (see the module's docstring for PYTHONDONTWRITEBYTECODE)."""
    return not sys.dont_write_bytecode or bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))


def _store(directory: str, prefix: str, entry: str, data: bytes) -> None:
    """Write one entry atomically, drop the file's older ones and all but the `_KEEP` used most
    recently (`_used`); quietly, whatever happens."""
    temporary = f"{entry}.{os.getpid()}.tmp"
    try:
        if os.path.lexists(temporary):
            os.unlink(temporary)  # NOTE: left by a process that died with this one's id
        # NOTE: a new file of this user's alone (O_EXCL: never through what is there).
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        with open(os.open(temporary, flags, 0o600), "wb") as out:
            out.write(data)
        os.replace(temporary, entry)
        kept = []
        for name in os.listdir(directory):
            path = os.path.join(directory, name)
            if name.startswith(prefix + "-") and path != entry:
                os.unlink(path)
            elif name.endswith(".code") and path != entry:
                kept.append((os.lstat(path).st_mtime_ns, path))
        for _, path in sorted(kept)[: max(0, len(kept) - _KEEP + 1)]:
            os.unlink(path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _boot(
    namespace: "dict[str, Any]", lazy: "dict[str, tuple[str, ...]] | None" = None
) -> "Callable[..., int]":
    """Run the code that always runs of the module's code in its namespace, with stand-ins
    for the functions of its sections (`lazy`); return its `main`."""
    import gc

    path = namespace.get("__file__")
    path = os.path.abspath(path) if isinstance(path, str) else "<burgee>"
    # NOTE: the code defines thousands of functions, classes and tuples that live as long as
    # the process; the cyclic garbage collector would walk them again and again (for a big
    # tool, a fifth of its start-up). It runs as usual once they are defined (in a generated
    # module, once the handlers and tables are too: `_hold_interrupts`'s release).
    collecting = gc.isenabled()
    gc.disable()
    release = _hold_interrupts()
    try:
        hot, sections, order = _load_code(path, namespace)
        # NOTE: exec of the module's own code, as the interpreter would have run it; the code
        # that always runs calls no function of a section while it is defined, and defines
        # `_stand_ins` (`in the code`: a script compiles the start-up code on every run).
        exec(hot, namespace)  # noqa: S102
        lazy = namespace.get("_LAZY") if lazy is None else lazy
        if lazy:
            _stand_ins(namespace, lazy, sections, path, order)
    except KeyboardInterrupt:
        # NOTE: a second Ctrl-C while the code was being defined: stop now, as asked.
        _stop_starting(namespace, path)
    finally:
        release()
        if collecting:
            gc.enable()
    return namespace["main"]  # type: ignore[no-any-return]


def _stop_starting(namespace: "dict[str, Any]", path: str) -> "NoReturn":
    """Stop the start at once (a second Ctrl-C before the tool could answer): one line, the
    exit code of `interrupted`, no traceback."""
    sys.stderr.write(f"{namespace.get('PROGRAM_NAME', path)}: interrupted (Ctrl-C)\n")
    moved = namespace.get("EXIT_CODES", {})
    raise SystemExit(moved.get("interrupted", EXIT_INTERRUPTED)) from None


def _hold_interrupts(namespace: "dict[str, Any] | None" = None) -> "Callable[[], object]":
    """Hold the first Ctrl-C while the code is being defined (the tool cannot answer yet):
    `main` answers it as `interrupted` once it runs; a second one stops the start at once
    (with `namespace`, the module's, as `_stop_starting` says; else as Python's KeyboardInterrupt).
    Return what puts the usual handler back. Only where Python's own handler is in place:
    in the main thread, and not when SIGINT is ignored or handled by whoever imports us.
    With `namespace` (the module's own hold, from before `_boot` to after the tables), the
    garbage collector is paused as long (`_pause_collector`)."""
    # NOTE: `_signal`, not `signal`: that one imports `enum` (a twentieth of a start-up).
    import _signal  # type: ignore[import-not-found, unused-ignore]

    usual = _signal.default_int_handler
    resume = _pause_collector() if namespace is not None else _nothing

    def hold(number: int, frame: object) -> None:
        if _INTERRUPTED and namespace is not None:
            _stop_starting(namespace, str(namespace.get("__file__")))
        if _INTERRUPTED:
            usual(number, frame)
        _INTERRUPTED.append(number)

    try:
        if _signal.getsignal(_signal.SIGINT) is not usual:
            return resume
        _signal.signal(_signal.SIGINT, hold)
    except ValueError:  # NOTE: not the main thread: signals are not ours to handle there
        return resume

    def release() -> None:
        # NOTE: the handlers' code may have set its own handler meanwhile: that one stays.
        if _signal.getsignal(_signal.SIGINT) is hold:
            _signal.signal(_signal.SIGINT, usual)
        resume()

    return release


def _nothing() -> None:
    pass


def _pause_collector() -> "Callable[[], None]":
    """Pause the cyclic garbage collector while the module's code is defined (the runtime,
    the handlers, the tables: thousands of functions, classes and tuples that live as long as
    the process); return what resumes it, the objects made meanwhile moved to the oldest
    generation first, unwalked. A collector already off (or frozen objects, someone else's
    choice; or no `gc.freeze`: PyPy) is left as it is. Module code that raises before the end
    leaves it paused, as Ctrl-C held: an importer that goes on may `gc.enable()`."""
    import gc

    frozen = getattr(gc, "get_freeze_count", None)  # NOTE: CPython only
    if not gc.isenabled() or frozen is None or frozen():
        return _nothing
    gc.disable()

    def resume() -> None:
        # NOTE: a young collection would walk everything made meanwhile (and each one while
        # it was made walked it again: a fifth of a wide tool's import); `freeze` then
        # `unfreeze` moves it all to the oldest generation unwalked.
        gc.freeze()
        gc.unfreeze()
        gc.enable()

    return resume


def _stand_ins(
    namespace: "dict[str, Any]",
    lazy: "dict[str, tuple[str, ...]]",
    sections: "dict[str, Any]",
    path: str,
    order: "dict[str, str] | None" = None,
) -> None:
    """Put a stand-in under each name of `lazy` that runs its section on its first call
    (after the section `order` says must run before it)."""
    import _thread

    # NOTE: reentrant: a section's own start may call into another section.
    lock = _thread.RLock()
    done: set[str] = set()

    def run(section: str) -> None:
        with lock:
            if section in done:
                return
            first = (order or {}).get(section)
            if first in sections:
                run(first)
            import marshal

            piece = sections[section]
            if isinstance(piece, tuple):
                code = _stored_section(piece)
                if code is None:
                    # NOTE: the entry changed or broke since its head was read: from the file.
                    _missed(path, namespace)
                    text, padding = _source(path, namespace)
                    code = _compile(padding + _pieces(text)[section][1:], path)
            elif isinstance(piece, str):
                code = _compile(piece, path)
            else:
                code = marshal.loads(piece)
            done.add(section)
            try:
                exec(code, namespace)  # noqa: S102
            except BaseException:
                done.discard(section)
                raise

    def stand_in(name: str, section: str) -> "Callable[..., Any]":
        def call(*args: "Any", **kwargs: "Any") -> "Any":
            run(section)
            real = namespace[name]
            if real is call:
                raise ImportError(f"section {section!r} of {path} does not define {name}")
            return real(*args, **kwargs)

        call.__name__ = call.__qualname__ = name
        return call

    for section, names in lazy.items():
        if section in sections:
            for name in names:
                namespace[name] = stand_in(name, section)
