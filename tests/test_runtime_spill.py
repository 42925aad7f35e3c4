"""Saved outputs read back only from files of this user's (`spill.py`): a `--spill-dir`
others may write in (a shared one), or a temporary directory they planted a symlink in, never
serves their text as the tool's output. (Saving and paging: tests/test_runtime_truncate.py.)"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from pathlib import Path

import pytest

from burgee.runtime.answers.spill import _SPILL_REF_DIGITS, _read_spill, _spill
from burgee.runtime.core.errors import UsageError
from burgee.runtime.start import boot

#: The tool whose outputs are saved (the folder they go in, in a cache directory).
NAME = "mytool"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX owners and modes")

TEXT = "the tool's full output"
PLANTED = "another user's text, as an agent would read it"


def _ref(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:_SPILL_REF_DIGITS]


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """A spill directory anyone may write in, as /tmp is."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o1777)
    return folder


def _as_root() -> None:
    if os.getuid() != 0:
        pytest.skip("as root, to give a file away")


def test_another_users_file_under_the_right_name_is_not_served(shared: Path) -> None:
    _as_root()
    planted = shared / f"{_ref(TEXT)}.txt"
    planted.write_text(PLANTED)
    os.chown(planted, 65534, 65534)
    with pytest.raises(UsageError, match="not a file of this user's alone"):
        _read_spill(_ref(TEXT), NAME, directory=str(shared))


def test_a_file_others_may_write_is_not_served(shared: Path) -> None:
    ref = _spill(TEXT, NAME, str(shared))
    assert ref is not None
    (shared / f"{ref}.txt").chmod(0o666)
    with pytest.raises(UsageError, match="not a file of this user's alone"):
        _read_spill(ref, NAME, directory=str(shared))


def test_a_symlink_under_the_right_name_is_not_followed(shared: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text(PLANTED)
    mine.chmod(0o600)
    (shared / f"{_ref(TEXT)}.txt").symlink_to(mine)
    with pytest.raises(UsageError, match="symlink"):
        _read_spill(_ref(TEXT), NAME, directory=str(shared))


def test_a_fifo_under_the_right_name_does_not_hang(shared: Path) -> None:
    os.mkfifo(shared / f"{_ref(TEXT)}.txt")
    caught: list[BaseException] = []

    def read() -> None:
        try:
            _read_spill(_ref(TEXT), NAME, directory=str(shared))
        except BaseException as error:  # noqa: BLE001 (looked at below)
            caught.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "reading a planted FIFO blocked"
    assert len(caught) == 1 and isinstance(caught[0], UsageError)


def test_a_planted_file_is_replaced_when_the_output_is_saved(shared: Path) -> None:
    """Planted first, with the length of the text to come: saving writes the text anew
    instead of taking the file for an earlier save."""
    _as_root()
    planted = shared / f"{_ref(TEXT)}.txt"
    planted.write_text(PLANTED[: len(TEXT)])
    os.chown(planted, 65534, 65534)
    assert _spill(TEXT, NAME, str(shared)) == _ref(TEXT)
    assert _read_spill(_ref(TEXT), NAME, directory=str(shared))["text"] == TEXT


def test_a_symlinked_temporary_directory_is_not_saved_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The code cache's fallback, planted as a symlink to one of this user's own private
    directories: outputs are not saved there (nor read from there)."""
    (tmp_path / "home-is-a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-is-a-file"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    ssh = tmp_path / "ssh"
    ssh.mkdir(mode=0o700)
    Path(boot._temporary_cache()).symlink_to(ssh)
    assert _spill(TEXT, NAME) is None
    assert list(ssh.iterdir()) == []
    (ssh / "mytool" / "output").mkdir(parents=True)
    (ssh / "mytool" / "output" / f"{_ref(TEXT)}.txt").write_text(PLANTED)
    with pytest.raises(UsageError, match="no saved output"):
        _read_spill(_ref(TEXT), NAME)


def test_a_damaged_saved_output_is_refused(tmp_path: Path) -> None:
    """A reference is its text's digest: a file changed on disk (a bit flipped, cut short)
    is not served as the tool's output."""
    ref = _spill(TEXT, NAME, str(tmp_path))
    assert ref is not None
    saved = tmp_path / f"{ref}.txt"
    for damaged in (TEXT.replace("full", "fall"), TEXT[:-3]):
        saved.write_text(damaged)
        with pytest.raises(UsageError, match="damaged"):
            _read_spill(ref, NAME, directory=str(tmp_path))
