"""The start-up code: the module's code compiled once, then read from a private cache
(runtime/start/boot.py).

In-process tests of the cache's rules, and black-box runs of a generated tool: edits take
effect, tracebacks point at the file's real lines, a cache others could write is never read,
and a cache that cannot be written costs nothing but the compile.
"""

from __future__ import annotations

import ast
import gc
import json
import os
import py_compile
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from burgee.render.sections import HEADING, expand, unwrap, wrap
from burgee.runtime.start import boot
from tests.helpers import GOLDEN, generate, sound_entry
from tests.mcp_wire import INIT
from tests.regen import golden_output

CODE = "\nVALUE = 41 + 1\n\n\ndef main(argv=None):\n    return VALUE\n"


def _module(tmp_path: Path, code: str = CODE) -> Path:
    path = tmp_path / "tool.py"
    path.write_text(f"import os\nimport sys\n\n{boot._CODE_OPEN}{code}'''\n", encoding="utf-8")
    return path


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BURGEE_CACHE_DIR", str(folder))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return folder


def _run(path: Path) -> dict[str, object]:
    namespace: dict[str, object] = {"__file__": str(path), "__name__": "tool"}
    main = boot._boot(namespace)
    namespace["result"] = main()
    return namespace


def test_the_code_runs_and_is_cached_privately(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path)
    assert _run(path)["result"] == 42
    entries = list(cache.iterdir())
    assert len(entries) == 1 and entries[0].suffix == ".code"
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    # NOTE: the next run reads the entry: different code planted in it proves it.
    planted = compile("def main(argv=None):\n    return 7\n", str(path), "exec")
    entries[0].write_bytes(boot._entry(entries[0].stem, planted, {}, {}))
    assert _run(path)["result"] == 7


SECTIONED = """
RUNS = 0


def main(argv=None):
    return helper(20) + 2


# ---- burgee: loaded on first use: extra ----
RUNS += 1


def helper(value):
    return value * 2


def broken():
    raise ValueError("in the section")
# ---- burgee: end of extra ----
"""
LAZY = {"extra": ("helper", "broken")}


def _sectioned(path: Path) -> dict[str, object]:
    namespace: dict[str, object] = {"__file__": str(path), "__name__": "tool"}
    namespace["main"] = boot._boot(namespace, LAZY)
    return namespace


def test_pieces_keep_every_line_where_it_was() -> None:
    pieces = boot._pieces(SECTIONED)
    assert set(pieces) == {"", "extra"}
    lines = SECTIONED.split("\n")
    for name, piece in pieces.items():
        assert piece.count("\n") == SECTIONED.count("\n")
        for number, line in enumerate(piece.split("\n")):
            assert line in ("", lines[number]), (name, number)
    assert "def helper" in pieces["extra"] and "def helper" not in pieces[""]
    assert "def main" in pieces[""] and "def main" not in pieces["extra"]
    assert boot._pieces(CODE) == {"": CODE}


@pytest.mark.parametrize("setting", ["cache", "off"])
def test_a_section_runs_on_the_first_call_of_one_of_its_functions(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    if setting == "off":
        monkeypatch.setenv("BURGEE_CACHE_DIR", "off")
    path = _module(tmp_path, SECTIONED)
    for _ in range(2):  # NOTE: the second time from the cache (with "cache")
        namespace = _sectioned(path)
        assert namespace["RUNS"] == 0
        stand_in = namespace["helper"]
        assert getattr(stand_in, "__name__", "") == "helper"
        assert namespace["main"]() == 42  # type: ignore[operator]
        assert namespace["RUNS"] == 1
        assert namespace["helper"] is not stand_in
        assert stand_in(1) == 2  # type: ignore[operator]
        assert namespace["RUNS"] == 1
    assert len(list(cache.iterdir())) == 1 if setting == "cache" else not cache.exists()


ORDERED = """
def main(argv=None):
    return more(20)


# ---- burgee: loaded on first use: base ----
class Base:
    def twice(self, value):
        return value * 2
# ---- burgee: end of base ----


# ---- burgee: loaded on first use: more, after base ----
class More(Base):
    pass


def more(value):
    return More().twice(value) + 2
# ---- burgee: end of more ----
"""


@pytest.mark.parametrize("setting", ["cache", "off"])
def test_a_section_after_another_runs_that_one_first(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    """`more` builds on `base`'s class when it runs, and no code outside calls `base`: its
    opening line says so, and `base` runs first (none of it stays in the code that always
    runs, as `render/join` lays out the HTTP server after the MCP server's section)."""
    if setting == "off":
        monkeypatch.setenv("BURGEE_CACHE_DIR", "off")
    assert boot._order(ORDERED) == {"more": "base"}
    assert set(boot._pieces(ORDERED)) == {"", "base", "more"}
    path = _module(tmp_path, ORDERED)
    for _ in range(2):  # NOTE: the second time from the cache (with "cache")
        namespace: dict[str, object] = {"__file__": str(path), "__name__": "tool"}
        main = boot._boot(namespace, {"more": ("more",)})
        assert "Base" not in namespace and "More" not in namespace
        assert main() == 42
        assert "Base" in namespace and "More" in namespace


@pytest.mark.parametrize("damage", ["flip", "cut"])
def test_a_run_reads_only_the_head_and_a_broken_section_runs_from_the_file(
    tmp_path: Path, cache: Path, damage: str
) -> None:
    """A run reads the head of its entry (the code that always runs); a section is read, and
    checked, when it runs: one not whole and right is compiled from the file, and the entry
    goes (the next run writes it again)."""
    path = _module(tmp_path, SECTIONED)
    _sectioned(path)
    (entry,) = cache.iterdir()
    good = entry.read_bytes()
    head = boot._HEAD_SIZE + int.from_bytes(good[: boot._HEAD_SIZE], "little")
    assert sound_entry(entry) and len(good) > head
    if damage == "flip":
        entry.write_bytes(good[:-10] + bytes([good[-10] ^ 1]) + good[-9:])
    else:
        entry.write_bytes(good[:head])
    broken = entry.read_bytes()
    namespace = _sectioned(path)
    assert namespace["RUNS"] == 0 and entry.read_bytes() == broken  # NOTE: no miss
    assert namespace["main"]() == 42  # type: ignore[operator]
    assert namespace["RUNS"] == 1 and not entry.exists()
    _sectioned(path)
    assert sound_entry(entry)


def test_a_sections_lines_are_the_files_own(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path, SECTIONED)
    namespace = _sectioned(path)
    with pytest.raises(ValueError, match="in the section") as caught:
        namespace["broken"]()  # type: ignore[operator]
    line = path.read_text().splitlines()[caught.traceback[-1].lineno]
    assert 'raise ValueError("in the section")' in line


def test_a_section_that_fails_is_run_again_next_time(tmp_path: Path, cache: Path) -> None:
    code = SECTIONED.replace("RUNS += 1", "RUNS += 1\nif RUNS == 1:\n    raise OSError('once')")
    path = _module(tmp_path, code)
    namespace = _sectioned(path)
    with pytest.raises(OSError, match="once"):
        namespace["helper"](1)  # type: ignore[operator]
    assert namespace["helper"](1) == 2  # type: ignore[operator]
    assert namespace["RUNS"] == 2


def test_threads_racing_for_a_section_run_it_once(tmp_path: Path, cache: Path) -> None:
    code = SECTIONED.replace("RUNS += 1", "import time\ntime.sleep(0.05)\nRUNS += 1")
    namespace = _sectioned(_module(tmp_path, code))
    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(namespace["helper"](3)))  # type: ignore[operator]
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [6, 6, 6, 6]
    assert namespace["RUNS"] == 1


#: A script's start: the tool at argv[1] loaded in `namespace`, and `ran()`, the sections whose
#: functions have run (a stand-in's code is named `call`; a section run replaces it).
_LOADED = textwrap.dedent(
    """
    import json, sys
    namespace = {"__file__": sys.argv[1], "__name__": "tool"}
    with open(sys.argv[1], encoding="utf-8") as source:
        exec(compile(source.read(), sys.argv[1], "exec"), namespace)

    def ran():
        return sorted(
            section
            for section, names in namespace["_LAZY"].items()
            if any(namespace[name].__code__.co_name != "call" for name in names)
        )
    """
)


def test_a_plain_run_of_a_generated_tool_runs_no_section(tmp_path: Path) -> None:
    """In a real tool: loading it and running a command runs none of its sections (the MCP
    server, argparse, describe, ...) but the tables'; asking for the schema runs the describe
    section only."""
    script = _LOADED + textwrap.dedent(
        """
        import io

        out = {"sections": sorted(namespace["_LAZY"]), "loaded": ran()}
        sys.stdout = io.StringIO()
        out["code"] = namespace["main"](["hello", "--name", "you", "--json"])
        out["after_run"] = ran()
        namespace["main"](["hello", "--json", '{"name": "you"}'])
        out["after_json_input"] = ran()
        namespace["main"](["schema"])
        out["after_schema"] = ran()
        out["mcp_class"] = "_McpServer" in namespace
        sys.stdout = sys.__stdout__
        print(json.dumps(out))
        """
    )
    tool = GOLDEN / "minimal" / "minimal.py"
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    found = subprocess.run(
        [sys.executable, "-c", script, str(tool)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    out = json.loads(found.stdout)
    assert out == {
        "sections": [
            "agent",
            "argparse",
            "batch",
            "clients",
            "confirm",
            "describe",
            "elicit",
            "http",
            "invoke",
            "mcp",
            "tables",
            "timeout",
            "validate",
        ],
        # NOTE: the tables are defined on every load, where they stand after the handlers.
        "loaded": ["tables"],
        "code": 0,
        "after_run": ["tables"],
        "after_json_input": ["tables", "validate"],
        "after_schema": ["describe", "tables", "validate"],
        "mcp_class": False,
    }


def test_a_stdio_mcp_session_never_runs_the_http_section(tmp_path: Path) -> None:
    """`--mcp` over stdio, initialize then tools/list: the MCP server's section runs, the HTTP
    server's (the endpoint, the stdlib server, the ASGI application) does not; `asgi` runs
    both, the MCP server's first."""
    script = _LOADED + textwrap.dedent(
        """
        import asyncio

        out = {"code": namespace["main"](["--mcp"]), "after_mcp": ran()}

        async def nothing():
            return {"type": "lifespan.shutdown"}

        async def ignore(message):
            pass

        asyncio.run(namespace["asgi"]({"type": "lifespan"}, nothing, ignore))
        out["after_asgi"] = ran()
        sys.stderr.write(json.dumps(out) + "\\n")
        """
    )
    tool = GOLDEN / "minimal" / "minimal.py"
    messages = [
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    ]
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    found = subprocess.run(
        [sys.executable, "-c", script, str(tool)],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    answers = [json.loads(text) for text in found.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [0, 1] and answers[1]["result"]["tools"]
    out = json.loads(found.stderr.splitlines()[-1])
    assert out == {
        "code": 0,
        "after_mcp": ["mcp", "tables"],
        "after_asgi": ["http", "mcp", "tables"],
    }


def test_a_stdio_mcp_call_runs_only_the_sections_it_needs(tmp_path: Path) -> None:
    """`--mcp` over stdio, on to a first `tools/call` whose answer has nothing to neutralise
    or cut: the MCP server's and the input check's sections run; neither argparse's (the
    tool-wide flags are read without it) nor the agent section's (a check that finds nothing
    to neutralise needs none of it: loading it was a twentieth of the first call)."""
    script = _LOADED + textwrap.dedent(
        """
        out = {"code": namespace["main"](["--mcp"]), "after_mcp": ran()}
        sys.stderr.write(json.dumps(out) + "\\n")
        """
    )
    tool = GOLDEN / "minimal" / "minimal.py"
    messages = [
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "hello", "arguments": {"name": "[you]"}},
        },
    ]
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    found = subprocess.run(
        [sys.executable, "-c", script, str(tool)],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    answers = [json.loads(text) for text in found.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [0, 1, 2]
    assert "Hello, [you]" in answers[2]["result"]["content"][0]["text"]
    out = json.loads(found.stderr.splitlines()[-1])
    assert out == {"code": 0, "after_mcp": ["mcp", "tables", "validate"]}


def test_an_edit_makes_a_new_entry_and_drops_the_old(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path)
    _run(path)
    first = {p.name for p in cache.iterdir()}
    path.write_text(path.read_text().replace("41 + 1", "41 + 2"), encoding="utf-8")
    assert _run(path)["result"] == 43
    second = {p.name for p in cache.iterdir()}
    assert len(second) == 1 and second != first


def test_line_numbers_are_the_files_own(tmp_path: Path, cache: Path) -> None:
    code = "\ndef main(argv=None):\n    raise ValueError('here')\n"
    path = _module(tmp_path, code)
    namespace: dict[str, object] = {"__file__": str(path), "__name__": "tool"}
    main = boot._boot(namespace)
    with pytest.raises(ValueError) as caught:
        main()
    frame = caught.traceback[-1]
    line = path.read_text().splitlines()[frame.lineno]
    assert "raise ValueError('here')" in line


def test_a_cache_others_may_write_is_never_read(tmp_path: Path, cache: Path) -> None:
    if not hasattr(os, "getuid"):
        pytest.skip("POSIX permissions")
    cache.mkdir(mode=0o700)
    cache.chmod(0o777)
    assert boot._cache_directory() is None
    path = _module(tmp_path)
    assert _run(path)["result"] == 42
    assert list(cache.iterdir()) == []


def test_a_corrupt_entry_is_recompiled(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path)
    _run(path)
    (entry,) = cache.iterdir()
    entry.write_bytes(b"\x00not marshal")
    assert _run(path)["result"] == 42
    assert entry.read_bytes() != b"\x00not marshal"


NAMED = '\nNAME = "forty-two"\n\n\ndef main(argv=None):\n    return NAME\n'


def test_a_flipped_bit_in_an_entry_is_recompiled_not_run(tmp_path: Path, cache: Path) -> None:
    """A bit flipped on disk that marshal would still read (here in a string constant) is
    caught by the entry's digest: the code is compiled again and the entry replaced."""
    path = _module(tmp_path, NAMED)
    assert _run(path)["result"] == "forty-two"
    (entry,) = cache.iterdir()
    good = entry.read_bytes()
    at = good.index(b"forty-two") + len("forty-tw")
    entry.write_bytes(good[:at] + bytes([good[at] ^ 0x01]) + good[at + 1 :])
    assert _run(path)["result"] == "forty-two"
    assert entry.read_bytes() == good


def test_an_entry_under_another_files_name_is_not_run(tmp_path: Path, cache: Path) -> None:
    """Entries swapped (copied, restored from a backup): each holds its own name, checked."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = _module(tmp_path / "one")
    two = _module(tmp_path / "two", NAMED)
    _run(one)
    (first,) = cache.iterdir()
    _run(two)
    (second,) = set(cache.iterdir()) - {first}
    second.write_bytes(first.read_bytes())
    assert _run(two)["result"] == "forty-two"


def test_an_entry_that_is_a_symlink_or_another_users_is_not_read(
    tmp_path: Path, cache: Path
) -> None:
    if not hasattr(os, "getuid") or os.getuid() != 0:
        pytest.skip("POSIX permissions, as root (to give a file away)")
    path = _module(tmp_path)
    _run(path)
    (entry,) = cache.iterdir()
    # NOTE: a whole, valid entry for this very file, whose code answers 7: only where it is
    # keeps it from running.
    planted = compile("def main(argv=None):\n    return 7\n", str(path), "exec")
    sealed = boot._entry(entry.stem, planted, {}, {})
    elsewhere = tmp_path / "planted.code"
    elsewhere.write_bytes(sealed)
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert _run(path)["result"] == 42
    assert not entry.is_symlink() and elsewhere.read_bytes() == sealed
    entry.write_bytes(sealed)
    os.chown(entry, 65534, 65534)
    assert _run(path)["result"] == 42
    entry.write_bytes(sealed)
    entry.chmod(0o666)
    assert _run(path)["result"] == 42
    entry.write_bytes(sealed)
    entry.chmod(0o600)
    assert _run(path)["result"] == 7  # NOTE: the same entry, this user's alone: it is read


def test_python_b_reads_but_never_writes(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    path = _module(tmp_path)
    assert _run(path)["result"] == 42
    assert not cache.exists()


def test_pythondontwritebytecode_is_about_pyc_files_not_this_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert _run(_module(tmp_path))["result"] == 42
    assert len(list(cache.iterdir())) == 1


def test_the_cache_keeps_only_the_newest_entries(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boot, "_KEEP", 3)
    for index in range(5):
        folder = tmp_path / str(index)
        folder.mkdir()
        assert _run(_module(folder))["result"] == 42
    assert len(list(cache.iterdir())) == 3


def test_the_cache_drops_the_entry_used_least_recently(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tools run in turn keep their entries: a hit marks its entry used, and a new entry
    pushes out the one used least recently, not the one written first."""
    monkeypatch.setattr(boot, "_KEEP", 3)
    entries = {}
    tools = []
    for index in range(4):
        folder = tmp_path / str(index)
        folder.mkdir()
        tools.append(_module(folder))
    for index in range(3):
        before = set(cache.iterdir()) if cache.exists() else set()
        assert _run(tools[index])["result"] == 42
        (entries[index],) = set(cache.iterdir()) - before
        # NOTE: file times may be coarse: each write is seen as later than the one before.
        os.utime(entries[index], ns=(index * 10**9, index * 10**9))
    assert _run(tools[0])["result"] == 42  # NOTE: a hit: the first entry is used now
    assert set(cache.iterdir()) == set(entries.values())
    assert _run(tools[3])["result"] == 42
    assert entries[0].exists() and not entries[1].exists() and entries[2].exists()


def test_off_means_no_cache(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BURGEE_CACHE_DIR", "off")
    assert _run(_module(tmp_path))["result"] == 42
    assert not cache.exists()


def test_wrap_and_unwrap_are_inverse() -> None:
    """The runtime's code, last in the module, goes into the string; `unwrap` puts it where
    the line that runs it is."""
    plain = (
        "a = 1\n_boot(globals())\nb = 2\n"
        "# ---- burgee: code ----\nx = 1\n# ---- burgee: end of code ----\n"
    )
    wrapped = wrap(plain, packed=False)
    assert wrapped.endswith(f"b = 2\n{boot._CODE_OPEN}\nx = 1\n'''\n")
    assert unwrap(wrapped) == "a = 1\nx = 1\nb = 2\n"
    # NOTE: packed (the default), the same module once expanded, and the same code unwrapped.
    assert wrap(plain) != wrapped and expand(wrap(plain)) == wrapped
    assert unwrap(wrap(plain)) == unwrap(wrapped)
    # NOTE: code a raw triple-quoted string cannot hold runs in place of that line, unpacked;
    # packed, it can sit in the string (base64 has no quote), and expands in place.
    odd = plain.replace("x = 1", "x = '''1'''")
    assert wrap(odd, packed=False) == "a = 1\nx = '''1'''\nb = 2\n"
    assert "'''1" not in wrap(odd) and expand(wrap(odd)) == wrap(odd, packed=False)


def test_the_tables_run_where_they_stand_in_either_form() -> None:
    """The tables are a section of the string, defined where `_tables()` stands (after the
    handlers they name); where the code cannot be a raw string they stand there as code."""
    plain = (
        "a = 1\n_boot(globals())\ndef h(): ...\n_tables()\nb = 2\n"
        "# ---- burgee: code ----\nx = 1\n"
        "# ---- burgee: loaded on first use: tables ----\nT = {'h': h}\n"
        "# ---- burgee: end of tables ----\n# ---- burgee: end of code ----\n"
    )
    wrapped = wrap(plain, packed=False)
    before, _, string = wrapped.partition(boot._CODE_OPEN)
    assert "def h(): ...\n_tables()\nb = 2\n" in before and "\nT = {'h': h}\n" in string
    assert unwrap(wrapped) == "a = 1\nx = 1\ndef h(): ...\nT = {'h': h}\nb = 2\n"
    assert unwrap(wrap(plain)) == unwrap(wrapped)
    odd = plain.replace("T = {'h': h}", "T = {'h': h, 'q': \"'''\"}")
    in_place = "a = 1\nx = 1\ndef h(): ...\nT = {'h': h, 'q': \"'''\"}\nb = 2\n"
    assert wrap(odd, packed=False) == in_place == unwrap(wrap(odd))


#: A module docstring that shows the code's opening lines, as a description of burgee's layout
#: could: the code is the tool's own, never the docstring's.
FORGED_DOC = (
    f'"""How it looks:\n\n{boot._CODE_OPEN}\ndef main(argv=None):\n    return 3\n\'\'\'\n"""\n'
)


def test_a_docstring_that_shows_the_code_opening_is_not_run(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path)
    path.write_text(FORGED_DOC + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert _run(path)["result"] == 42
    # NOTE: the line numbers are still the file's own.
    code, padding = boot._source(str(path), {})
    assert path.read_text(encoding="utf-8").splitlines()[len(padding)] == "VALUE = 41 + 1"
    assert code.startswith("\nVALUE = 41 + 1\n")


def test_a_docstring_that_shows_the_markers_stays_as_it_is() -> None:
    """`wrap` and `unwrap` find the markers the template writes, not their text in the
    module's docstring (a description may show any text: `program(description=...)`)."""
    marked = "# ---- burgee: code ----\nx = 1\n# ---- burgee: end of code ----\n"
    run = "_boot(globals())\n"
    doc = f'"""Layout:\n{marked}{run}{boot._CODE_OPEN}\nx\n\'\'\'\n"""\n'
    plain = f"{doc}a = 1\n{run}b = 2\n{marked}"
    wrapped = wrap(plain, packed=False)
    assert wrapped.startswith(doc) and wrap(plain).startswith(doc)
    assert wrapped.endswith(f"a = 1\n{run}b = 2\n{boot._CODE_OPEN}\nx = 1\n'''\n")
    assert unwrap(wrapped) == unwrap(wrap(plain)) == f"{doc}a = 1\nx = 1\nb = 2\n"
    assert expand(wrap(plain)) == wrapped
    # NOTE: a marker's text that is not a line of its own cuts nothing.
    inline = plain.replace("\nx = 1\n", "\nx = 1  # ---- burgee: end of code ----\n")
    assert "x = 1  # ---- burgee: end of code ----\n'''\n" in wrap(inline, packed=False)


FORGED_HANDLERS = f'''
"""A tool whose description shows burgee's layout.

{boot._CODE_OPEN}
def main(argv=None):
    print("FORGED")
    return 3
\'\'\'
"""

from burgee import command, program

program(name="forged", version="1.0.0")


@command(effects="read_only")
def hello() -> str:
    """Say hello."""
    return "hello"
'''


def test_a_generated_tool_whose_docstring_shows_the_code_opening_runs_its_own_code(
    tmp_path: Path,
) -> None:
    tool = generate(tmp_path, FORGED_HANDLERS, "forged.py")
    for _ in range(2):  # NOTE: compiled, then from the cache
        proc = subprocess.run(
            [sys.executable, str(tool), "hello"],
            env=_environment(tmp_path / "cache"),
            capture_output=True,
            text=True,
            check=False,
        )
        assert (proc.returncode, proc.stdout) == (0, "hello\n"), proc.stderr
    plain = unwrap(tool.read_text(encoding="utf-8"))
    assert 'def main(argv=None):\n    print("FORGED")' in plain
    compile(plain, str(tool), "exec")


def _tool(tmp_path: Path) -> Path:
    tool = tmp_path / "minimal.py"
    tool.write_bytes(golden_output(GOLDEN / "minimal").read_bytes())
    return tool


def _environment(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "BURGEE_CACHE_DIR": str(cache), **extra}


def test_a_generated_tool_uses_its_cache_and_sees_edits(tmp_path: Path) -> None:
    tool = _tool(tmp_path)
    cache = tmp_path / "cache"
    env = _environment(cache)
    first = subprocess.run(
        [sys.executable, str(tool), "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert first.returncode == 0, first.stderr
    assert len(list(cache.iterdir())) == 1
    text = tool.read_text(encoding="utf-8")
    patched = text.replace(
        'sys.stdout.write(f"{program.name} {_installed_version(program)}\\n")',
        'sys.stdout.write("patched\\n")',
    )
    assert patched != text
    tool.write_text(patched, encoding="utf-8")
    second = subprocess.run(
        [sys.executable, str(tool), "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert second.stdout == "patched\n"
    assert len(list(cache.iterdir())) == 1


def test_an_unwritable_cache_changes_nothing(tmp_path: Path) -> None:
    tool = _tool(tmp_path)
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    runs = [([], _environment(blocked)), (["-B"], _environment(tmp_path / "c"))]
    for flags, env in runs:
        proc = subprocess.run(
            [sys.executable, *flags, str(tool), "--version"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert not (tmp_path / "c").exists()


def test_two_processes_racing_both_run(tmp_path: Path) -> None:
    tool = _tool(tmp_path)
    env = _environment(tmp_path / "cache")
    runs = [
        subprocess.Popen(
            [sys.executable, str(tool), "--version"], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    outputs = [run.communicate(timeout=60)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert len(set(outputs)) == 1 and outputs[0].strip()
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".code"]


def test_a_traceback_in_a_generated_tool_names_its_real_line(tmp_path: Path) -> None:
    tool = _tool(tmp_path)
    script = textwrap.dedent(
        f"""
        import runpy, traceback, sys
        namespace = runpy.run_path({str(tool)!r})
        try:
            timeout = next(f for f in namespace["FLAGS"] if f.name == "--timeout")
            timeout.read("not a number")
        except Exception:
            frame = traceback.extract_tb(sys.exc_info()[2])[-1]
            print(frame.lineno, frame.line)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        env=_environment(tmp_path / "cache"),
        check=False,
        capture_output=True,
        text=True,
    )
    number, line = proc.stdout.split(" ", 1)
    assert tool.read_text(encoding="utf-8").splitlines()[int(number) - 1].strip() == line.strip()
    assert "raise" in line


def test_a_read_only_home_falls_back_to_a_private_temporary_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "home-is-a-file"
    blocked.write_text("")
    monkeypatch.delenv("BURGEE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    found = boot._cache_directory()
    assert found is not None and Path(found).parent == tmp_path / "tmp"
    assert Path(found).name.startswith("burgee-")
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(Path(found).stat().st_mode) == 0o700


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_fallback_that_is_a_symlink_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user plants `burgee-UID` in the temporary directory as a symlink to one of
    this user's private directories (~/.ssh): it passes the owner and mode checks when
    followed, so the cache would write there. It is refused; so is another user's."""
    monkeypatch.delenv("BURGEE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-is-a-file"))
    (tmp_path / "home-is-a-file").write_text("")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    ssh = tmp_path / "ssh"
    ssh.mkdir(mode=0o700)
    planted = Path(boot._temporary_cache())
    planted.symlink_to(ssh)
    assert boot._cache_directory() is None
    assert _run(_module(tmp_path))["result"] == 42
    assert list(ssh.iterdir()) == []
    if os.getuid() == 0:
        planted.unlink()
        planted.mkdir(mode=0o700)
        os.chown(planted, 65534, 65534)
        assert boot._cache_directory() is None


GC_CODE = "\nimport gc\n\nCOLLECTING = gc.isenabled()\n\n\ndef main(argv=None):\n    return 0\n"


@pytest.mark.parametrize("before", [True, False])
def test_the_collector_is_off_while_the_code_is_defined_and_as_it_was_after(
    tmp_path: Path, cache: Path, before: bool
) -> None:
    path = _module(tmp_path, GC_CODE)
    was = gc.isenabled()
    (gc.enable if before else gc.disable)()
    try:
        namespace = _run(path)
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert namespace["COLLECTING"] is False
    assert after is before


def test_the_code_is_not_a_constant_of_the_modules_compiled_form() -> None:
    """The code's string is a statement of its own, which the compiler drops: an installed
    tool's .pyc holds only the start-up code and the documents, and loads fast."""
    text = golden_output(GOLDEN / "minimal").read_text(encoding="utf-8")
    assert boot._CODE_OPEN in text
    compiled = compile(text, "minimal.py", "exec")
    strings = [c for c in compiled.co_consts if isinstance(c, str)]
    assert strings and not [s for s in strings if "def main(" in s]
    assert sum(map(len, strings)) < len(text) / 4


def test_the_code_is_read_through_the_loader_when_there_is_no_file(
    tmp_path: Path, cache: Path
) -> None:
    path = _module(tmp_path)
    text = path.read_text(encoding="utf-8")

    class Loader:
        def get_source(self, name: str) -> str:
            assert name == "tool"
            return text

    namespace: dict[str, object] = {
        "__file__": str(tmp_path / "archive.zip" / "tool.py"),
        "__name__": "tool",
        "__loader__": Loader(),
    }
    assert boot._boot(namespace)() == 42


def test_a_tool_without_its_source_says_so(tmp_path: Path) -> None:
    """A sourceless install (only the .pyc, as PyInstaller makes) has no code to run: one line
    on stderr and exit 1, not a traceback."""
    tool = _tool(tmp_path)
    py_compile.compile(str(tool), cfile=str(tmp_path / "minimal.pyc"), doraise=True)
    tool.unlink()
    proc = subprocess.run(
        [sys.executable, "-c", "import minimal"],
        cwd=tmp_path,
        env=_environment(tmp_path / "cache"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "cannot start" in proc.stderr and "install the tool with its .py file" in proc.stderr


def test_a_tool_in_a_zip_archive_runs(tmp_path: Path) -> None:
    tool = _tool(tmp_path)
    archive = tmp_path / "tools.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.write(tool, "minimal.py")
    tool.unlink()
    script = f"import sys; sys.path.insert(0, {str(archive)!r}); import minimal; minimal.main()"
    proc = subprocess.run(
        [sys.executable, "-c", script, "--version"],
        env=_environment(tmp_path / "cache"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("minimal ")
    # NOTE: `python -m minimal`: the module is `__main__`, its loader knows it as `minimal`.
    proc = subprocess.run(
        [sys.executable, "-m", "minimal", "--version"],
        env={**_environment(tmp_path / "cache"), "PYTHONPATH": str(archive)},
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("minimal ")


#: Code that sends its own process SIGINT while it is being defined, as a Ctrl-C in the
#: first moments of a tool's start would.
KILLED_CODE = (
    "\nimport os\nimport signal\n\nfor _ in range(KILLS):\n    os.kill(os.getpid(), signal.SIGINT)"
    "\n\n\ndef main(argv=None):\n    return 0\n"
)


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own SIGINT handler in place (a run started in the background ignores SIGINT),
    and whatever was there back after."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
    del boot._INTERRUPTED[:]


def test_a_ctrl_c_while_the_code_is_defined_is_held_for_main(
    tmp_path: Path, cache: Path, python_sigint: None
) -> None:
    path = _module(tmp_path, KILLED_CODE)
    namespace: dict[str, object] = {"__file__": str(path), "__name__": "tool", "KILLS": 1}
    assert boot._boot(namespace)() == 0
    assert boot._INTERRUPTED == [signal.SIGINT]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_stops_the_start_at_once(
    tmp_path: Path, cache: Path, python_sigint: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _module(tmp_path, KILLED_CODE)
    namespace: dict[str, object] = {"__file__": str(path), "__name__": "tool", "KILLS": 2}
    namespace["PROGRAM_NAME"], namespace["EXIT_CODES"] = "tool", {"interrupted": 99}
    with pytest.raises(SystemExit) as stopped:
        boot._boot(namespace)
    assert stopped.value.code == 99
    assert capsys.readouterr().err == "tool: interrupted (Ctrl-C)\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_or_custom_sigint_is_left_alone(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path)
    for handler in (signal.SIG_IGN, lambda number, frame: None):
        before = signal.signal(signal.SIGINT, handler)
        try:
            assert _run(path)["result"] == 42
            assert signal.getsignal(signal.SIGINT) is handler
        finally:
            signal.signal(signal.SIGINT, before)
    assert boot._INTERRUPTED == []


KILLED_HANDLERS = '''
import os
import signal

from burgee import command, program

program(name="startled", version="1.0.0")

for _ in range(int(os.environ.get("KILLS", "0"))):
    os.kill(os.getpid(), signal.SIGINT)


@command(effects="read_only")
def hello() -> str:
    """Say hello."""
    return "hello"
'''


@pytest.mark.parametrize("kills", [1, 2])
def test_a_generated_tool_answers_a_ctrl_c_during_its_start(tmp_path: Path, kills: int) -> None:
    """One Ctrl-C before the tool can answer: the `interrupted` envelope once it can (exit
    130); two: it stops at once, with one line and no traceback."""
    tool = generate(tmp_path, KILLED_HANDLERS, "startled.py")
    proc = subprocess.run(
        [sys.executable, str(tool), "hello", "--json"],
        env=_environment(tmp_path / "cache", KILLS=str(kills)),
        capture_output=True,
        text=True,
        check=False,
        # NOTE: Python's own SIGINT handler, even when the tests run in the background.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.returncode == 130, proc.stderr
    assert "Traceback" not in proc.stderr
    if kills == 1:
        assert json.loads(proc.stdout)["error"]["kind"] == "interrupted"
    else:
        assert proc.stdout == ""
        assert proc.stderr == "startled: interrupted (Ctrl-C)\n"


FROZEN_HANDLERS = '''
import ast
import gc

from burgee import command, program

program(name="frozen", version="1.0.0")


@command(effects="read_only")
def frozen() -> bool:
    """Whether the objects made while the tool started are out of the collector's sight."""
    return gc.get_freeze_count() > 0
'''


def test_run_as_the_program_the_start_up_objects_are_frozen(tmp_path: Path) -> None:
    """`main()` from the command line freezes what start-up made (gc.freeze); `main(argv)`,
    as a program that imports the tool calls it, leaves its host's collector alone."""
    tool = generate(tmp_path, FROZEN_HANDLERS, "frozen.py")
    env = _environment(tmp_path / "cache")
    proc = subprocess.run(
        [sys.executable, str(tool), "frozen", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["data"] is True
    imported = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import tool; "
        "sys.exit(tool.main(['frozen', '--json']))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", imported, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["data"] is False


def test_a_sigint_handler_the_code_sets_stays(
    tmp_path: Path, cache: Path, python_sigint: None
) -> None:
    code = (
        "\nimport signal\n\n\ndef mine(number, frame):\n    pass\n\n\n"
        "signal.signal(signal.SIGINT, mine)\n\n\ndef main(argv=None):\n    return 0\n"
    )
    namespace = _run(_module(tmp_path, code))
    assert signal.getsignal(signal.SIGINT) is namespace["mine"]


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(tmp_path: Path, cache: Path) -> None:
    path = _module(tmp_path)
    assert _run(path)["result"] == 42
    before = path.stat()
    path.write_text(path.read_text().replace("41 + 1", "40 + 3"), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert _run(path)["result"] == 43


def test_a_symlink_moved_to_another_file_runs_that_file(tmp_path: Path, cache: Path) -> None:
    (tmp_path / "v1").mkdir()
    (tmp_path / "v2").mkdir()
    one = _module(tmp_path / "v1")
    two = _module(tmp_path / "v2", CODE.replace("41 + 1", "40 + 3"))
    stamp = one.stat().st_mtime_ns
    os.utime(two, ns=(stamp, stamp))
    link = tmp_path / "tool.py"
    link.symlink_to(one)
    assert _run(link)["result"] == 42
    link.unlink()
    link.symlink_to(two)
    assert _run(link)["result"] == 43


def test_each_python_and_optimisation_level_keeps_its_own_entry(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _module(tmp_path)
    _run(path)
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    _run(path)
    assert len(list(cache.iterdir())) == 2
    first = boot._key(str(path))
    monkeypatch.setattr(sys, "flags", type("Flags", (), {"optimize": 1})())
    assert boot._key(str(path)) != first


def test_without_a_home_the_cache_is_never_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("BURGEE_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    found = boot._cache_directory()
    assert found is not None and Path(found).parent == tmp_path / "tmp"
    assert not (tmp_path / "~").exists()


#: A wide tool: enough commands (handlers, each with a list default, and table rows) for the
#: collector to run several times while they are defined.
WIDE_HANDLERS = "from burgee import command\n\n" + "".join(
    f'\n\n@command(effects="read_only")\ndef cmd{n:03d}(name: str, tag: list[str] = []) -> str:\n'
    f'    """Say hello ({n})."""\n    return name\n'
    for n in range(300)
)


def test_the_collector_never_walks_the_code_while_it_is_defined(tmp_path: Path) -> None:
    """While a wide tool's module is defined (the runtime, the handlers, the tables), the
    cyclic garbage collector starts no collection: what the code makes lives as long as the
    process, and each young collection walked it again (a fifth of a 500-command tool's
    import). Afterwards the collector is on, as it was, and runs as usual."""
    tool = generate(tmp_path, WIDE_HANDLERS)
    script = textwrap.dedent(
        """
        import gc, json, sys
        namespace = {"__file__": sys.argv[1], "__name__": "tool"}
        with open(sys.argv[1], encoding="utf-8") as source:
            code = compile(source.read(), sys.argv[1], "exec")
        started = []

        def seen(phase, info):
            if phase == "start":
                started.append(sys._getframe(1).f_code.co_filename)

        gc.collect()
        gc.callbacks.append(seen)
        exec(code, namespace)
        during = started.count(sys.argv[1])
        defined = len(started)
        for _ in range(2000):
            cycle = []
            cycle.append(cycle)
        after = len(started) - defined
        print(json.dumps({"during": during, "enabled": gc.isenabled(), "after": after}))
        """
    )
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # NOTE: the first run compiles and caches the code, the second reads it
        found = subprocess.run(
            [sys.executable, "-c", script, str(tool)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout) == {"during": 0, "enabled": True, "after": 2}


#: The bench's one-command program (bench/programs.py, `burgee_handlers(1)`).
_ONE_COMMAND = '''\
"""Hello: 1 commands."""

from burgee import command, program

program(name="hello", version="1.0.0")


@command(effects="read_only")
def greet(name: str, count: int = 1, shout: bool = False) -> str:
    """Say hello."""
    text = f"Hello, {name}!"
    return text.upper() if shout else text
'''


def _plain_part(source: str) -> str:
    """What Python compiles on every run of a script besides the handlers' code and the
    string literals: the text before the code's string, without the handlers' section and
    the encoded documents (`_DATA`)."""
    plain = source[: source.rindex("\n" + HEADING)]
    before, _, rest = plain.partition("\n# ---- From ")
    plain = before + rest[rest.index("\n# ---- ") :]
    assert "\n_DATA = (" not in plain  # NOTE: the documents are in the string (packed)
    return plain


def test_a_script_compiles_little_besides_its_handlers(tmp_path: Path) -> None:
    """Issue 49: Python compiles a script's whole text on every run; what is not the
    handlers' code (the start-up code, the type checkers' stubs) stays small: the start-up
    code a run the cache cannot answer needs is in the string (section `start`)."""
    source = generate(tmp_path, _ONE_COMMAND).read_text(encoding="utf-8")
    plain = _plain_part(source)
    # NOTE: the tables are in the string: the stubs are of what the handlers' code uses
    # and a user's tests call (`invoke`, `Context`), not of what only the tables name.
    assert "def _from_row(" not in plain
    assert "class _Command" not in plain
    assert "\ndef _store(" not in plain
    assert "\ndef _pieces(" not in plain
    # NOTE: what compiling costs is the code's nodes (docstrings and comments are only read):
    # 6,300 with the runtime's stubs whole and the start-up code for a cache miss; 3,900 with
    # the stand-ins' code (`in the code` now, as is what else runs only once the code has).
    assert "\ndef _stand_ins(" not in plain and "\ndef _stored_section(" not in plain
    nodes = sum(1 for _ in ast.walk(ast.parse(plain)))
    assert nodes <= 3_500, nodes


def test_a_one_command_tool_is_at_most_480_kb(tmp_path: Path) -> None:
    """Issue 49's size goal (bench `gen`, 1 command); the runtime in the string carries no
    docstrings (but a body's only statement): nothing reads them (`python -OO` would drop
    them too), a reader has burgee's source (each module begins `# -- module: NAME`)."""
    path = generate(tmp_path, _ONE_COMMAND)
    assert path.stat().st_size <= 480 * 1024, path.stat().st_size
    start, end, _ = boot._code_span(path.read_text(encoding="utf-8")) or (0, 0, True)
    tree = ast.parse(boot._unpacked(path.read_text(encoding="utf-8")[start:end]))
    documented = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and ast.get_docstring(node, clean=False) is not None
        and len(node.body) > 1  # NOTE: a body of a docstring alone keeps it (`catalog.bare`)
    ]
    assert documented == []


def test_the_start_up_code_for_a_cache_miss_is_compiled_only_on_a_miss(tmp_path: Path) -> None:
    """The start-up code a run from the cache never needs (`_pieces`, `_store`, ...) is the
    string's section `start`: a run that misses compiles it, at the file's own lines; a run
    from the cache does not."""
    script = _LOADED + textwrap.dedent(
        """
        code = namespace.get("_store")
        print(json.dumps(code and code.__code__.co_firstlineno))
        """
    )
    tool = GOLDEN / "minimal" / "minimal.py"
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    lines = tool.read_text(encoding="utf-8").splitlines()
    where = next(n for n, line in enumerate(lines, 1) if line.startswith("def _store("))
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, str(tool)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        for _ in range(2)
    ]
    assert [json.loads(run) for run in runs] == [where, None]


_FAILING = '''\
"""Fails."""

from burgee import command, program

program(name="fails", version="1.0.0")


@command(effects="read_only")
def boom() -> None:
    """Fail."""
    raise RuntimeError("boom")
'''


def test_the_code_is_packed_and_unpacks_to_the_same_code(tmp_path: Path) -> None:
    """Issue 49: the code is packed, as comment lines at the end of the file (a script reads
    every byte of its file on every run, a comment faster than a string); it unpacks to the
    code the unpacked form holds in its string, line for line."""
    source = generate(tmp_path, _ONE_COMMAND).read_text(encoding="utf-8")
    start, end, packed = boot._code_span(source) or (0, 0, False)
    assert packed and source[end:] == boot.PACKED_END
    assert source[:start].endswith("\n" + HEADING + boot.PACKED.rstrip("\n"))
    assert all(line.startswith("#") for line in source[start:end].splitlines()[1:])
    code = boot._unpacked(source[start:end])
    assert "\ndef main(" in code and "\n# ---- burgee: loaded on first use: tables ----\n" in code
    # NOTE: the unpacked form: the same lines above, the code in a raw string.
    heading = source.rindex("\n" + HEADING) + 1
    assert expand(source) == source[:heading] + boot._CODE_OPEN + code + "'''\n"
    assert expand(source).count("\n", 0, heading) == source.count("\n", 0, heading)
    assert 2 * (end - start) < len(code)
    # NOTE: damaged packed code stops the start with a line that says so, not a traceback.
    with pytest.raises(SystemExit, match="packed code is damaged"):
        boot._unpacked(source[start:end][:-40] + "\n")


def test_what_follows_the_packed_code_is_the_modules(tmp_path: Path) -> None:
    """A footer after the packed code (a licence, an editor's modeline, code) is the module's,
    as after a string: the tool starts, from its cache and without."""
    tool = generate(tmp_path, _ONE_COMMAND)
    footer = "# vim: set ft=python:\nFOOTER = 1\n"
    tool.write_text(tool.read_text(encoding="utf-8") + footer, encoding="utf-8")
    assert expand(tool.read_text(encoding="utf-8")).endswith("\n'''\n" + footer)
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # NOTE: a miss, then a run from the cache
        done = subprocess.run(
            [sys.executable, str(tool), "--version"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, ""), done.stderr


def test_a_traceback_shows_the_lines_of_the_packed_code(tmp_path: Path) -> None:
    """`--debug` prints a traceback whose every line of the tool is the line the unpacked
    code has there: Python would show the packed file's own lines (base64) instead."""
    tool = generate(tmp_path, _FAILING)
    env = {**os.environ, "BURGEE_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # NOTE: a miss, then a run from the cache
        done = subprocess.run(
            [sys.executable, str(tool), "boom", "--debug"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        source = tool.read_text(encoding="utf-8")
        lines = expand(source).splitlines()
        shown = done.stderr.splitlines()
        frames = [
            (int(line.split(", line ")[1].split(",")[0]), shown[at + 1].strip())
            for at, line in enumerate(shown)
            if line.startswith(f'  File "{tool}", line ')
        ]
        start, _, _ = boot._code_span(source) or (len(source), 0, False)
        in_code = [
            (number, text) for number, text in frames if number > source.count("\n", 0, start)
        ]
        assert in_code, done.stderr  # NOTE: the runtime's frames (main, the call), not only boom
        assert all(lines[number - 1].strip() == text for number, text in frames), done.stderr
        assert 'raise RuntimeError("boom")' in done.stderr
