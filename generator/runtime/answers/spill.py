# burgee: joins tail 110
# burgee: section agent
"""The full output of an answer that was cut, saved under a reference (a content hash) in a
private cache directory (`_spill`), and read back page by page (`_read_spill`, the `output`
command).

`_spill`/`_read_spill` (the full text saved privately (`_spill_save`, which also keeps the bytes
of a text-mode answer that had nowhere else to go), paged back; a page of a quarantined answer
quarantined as a whole; read back only from a file of the user's alone (`boot._read_owned`) that
still holds the text its reference, the start of its SHA-256, names), in the user's cache
directory or, when that cannot be written, the per-user temporary one that the code cache falls
back to (`boot`); `_write_anew`, how a file is made where others may write (a new file of the
user's alone renamed into place), also media's `PATH-2.EXT`.
"""

from __future__ import annotations

import os
from typing import Any

from burgee.runtime.answers.sanitize import _QUARANTINE_TAG, _quarantine
from burgee.runtime.core.errors import UsageError
from burgee.runtime.start.boot import _private, _read_owned, _temporary_cache, _user_cache

#: Spill files kept at most, and their age limit in seconds (7 days).
_SPILL_KEEP = 200
_SPILL_MAX_AGE = 7 * 24 * 3600
#: Temporary files of an interrupted save are removed after an hour.
_SPILL_STALE = 3600
#: A reference: this many lowercase hexadecimal digits of the SHA-256 of the saved text.
_SPILL_REF_DIGITS = 16


def _spill_directories(name: str) -> list[tuple[str, str | None]]:
    """Where the outputs of the tool `name` are saved, in order: `<user cache>/<name>/output`
    (`boot._user_cache`), then the same under this user's temporary cache directory, the code
    cache's fallback (a read-only home); each with the directory that must be this user's alone
    first, if any."""
    base = _user_cache()
    found: list[tuple[str, str | None]] = []
    if base is not None:
        found.append((os.path.join(base, name, "output"), None))
    temporary = _temporary_cache()
    found.append((os.path.join(temporary, name, "output"), temporary))
    return found


def _spill_ref(data: bytes) -> str:
    """The reference of a saved text: the start of its SHA-256, so a file changed on disk is
    seen when it is read back."""
    import hashlib

    return hashlib.sha256(data).hexdigest()[:_SPILL_REF_DIGITS]


def _spill_is_ref(ref: object) -> bool:
    return (
        isinstance(ref, str)
        and len(ref) == _SPILL_REF_DIGITS
        and all(c in "0123456789abcdef" for c in ref)
    )


def _spill(text: str, name: str, directory: str | None = None) -> str | None:
    """Save `text` (the full output, as written, of the tool `name`) and return its reference,
    or None if it could not be saved; never raises.

    The file is `<directory>/<ref>.txt` (by default in the first of `_spill_directories(name)`
    where it can be saved, made with mode 0o700), where ref is the first 16 hex digits of the
    SHA-256 of the text: saving the same text again writes nothing and keeps the same
    reference. Written to a temporary file and renamed into place, so a reader never sees half
    a file. After a save, files beyond the newest `_SPILL_KEEP`, or older than 7 days, are
    removed.
    """
    # NOTE: lone surrogates (from undecodable argv bytes) are kept, not refused.
    data = text.encode("utf-8", "surrogatepass")
    return _spill_ref(data) if _spill_save(data, ".txt", name, directory) else None


def _spill_save(data: bytes, suffix: str, name: str, directory: str | None = None) -> str | None:
    """Save `data` as `<ref><suffix>` where `_spill` saves (its text; or bytes with nowhere
    else to go, `media._write_media`), pruned with the rest; its path, or None."""
    ref = _spill_ref(data)
    places = [(directory, None)] if directory is not None else _spill_directories(name)
    for folder, private in places:
        if private is not None and _private(private, True) is None:
            continue  # NOTE: another user's, or open to others: they could read it
        target = os.path.join(folder, f"{ref}{suffix}")
        if _spill_write(folder, target, data, private=directory is None):
            _spill_prune(folder, target)
            return target
    return None


def _spill_write(folder: str, target: str, data: bytes, private: bool) -> bool:
    """Whether `data` could be saved as `target`, made in `folder` (0o700 if `private`)."""
    try:
        os.makedirs(folder, 0o700, exist_ok=True)
        if private:
            os.chmod(folder, 0o700)
        _write_anew(folder, target, data)
    except Exception:  # noqa: BLE001 (a failed save only means the output cannot be paged back)
        return False
    return True


def _write_anew(folder: str, target: str, data: bytes) -> None:
    """`data` as `target` in `folder`, in a directory others may write in: a new file of this
    user's alone (0o600, `O_EXCL`), renamed into place, so never written through a link or
    into a file another user planted there (nor seen half written); OSError when it cannot
    be. A file of this user's alone already holding `data` is kept (touched)."""
    import tempfile

    try:
        # NOTE: in a directory others may write in (a shared --spill-dir), a file of the
        # right name may be theirs, planted; or the file was damaged on disk: only this
        # user's own, holding the text, is taken for an earlier save.
        saved = _read_owned(target) == data
    except OSError:
        saved = False
    if saved:
        os.utime(target)  # saved before: it counts as new for pruning
        return
    handle, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _spill_prune(folder: str, keep: str) -> None:
    """Remove spill files beyond the newest `_SPILL_KEEP` or older than `_SPILL_MAX_AGE`
    (never `keep`), and temporary files of interrupted saves; best effort, never raises."""
    import time

    now = time.time()
    found: list[tuple[float, str]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                stem, dot, _ = name.partition(".")
                spilled = bool(dot) and _spill_is_ref(stem)  # NOTE: `.txt`, or media's
                if not spilled and not (name.startswith(".") and name.endswith(".tmp")):
                    continue
                try:
                    changed = entry.stat(follow_symlinks=False).st_mtime
                except OSError:
                    continue
                if spilled:
                    found.append((changed, entry.path))
                elif changed < now - _SPILL_STALE:
                    os.unlink(entry.path)
        found.sort(reverse=True)
        for position, (changed, path) in enumerate(found):
            if path != keep and (position >= _SPILL_KEEP or changed < now - _SPILL_MAX_AGE):
                try:
                    os.unlink(path)
                except OSError:
                    continue  # removed by another process meanwhile, or not ours to remove
    except OSError:
        return


def _spill_text(ref: str, paths: list[str]) -> str:
    """The text saved as `ref` in the first of `paths` there is, read only from a file of this
    user's that no one else may write (`boot._read_owned`: in a directory others may write in,
    a file of the right name may be theirs, and its text would be served as the tool's
    output), and only when it is still the text the reference names."""
    for path in paths:
        try:
            data = _read_owned(path)
        except (FileNotFoundError, NotADirectoryError):
            continue  # NOTE: a folder that is no folder (a file in its place): nothing saved
        if _spill_ref(data) != ref:
            raise ValueError(f"{path} is damaged: it no longer holds the text saved as {ref}")
        return data.decode("utf-8", "surrogatepass")
    raise FileNotFoundError


#: `output REF`'s page length when none is asked for (the `output` command's `--limit`).
_PAGE = 100_000
#: What an answer holds around a page's text (its other keys, `ok`, `meta.provenance` of the
#: inputs), kept free of a bounded page (`_read_spill`'s `bound`).
_PAGE_ROOM = 512


def _read_spill(
    ref: str,
    name: str,
    offset: int = 0,
    limit: int = _PAGE,
    directory: str | None = None,
    bound: int = 0,
) -> dict[str, Any]:
    """One page of an output the tool `name` saved: `{"ref", "offset", "length" (of the whole text,
    in characters), "text" (at most `limit` characters from `offset`; between quarantine tags when
    the output held quarantined text), "next" (the offset of the next page, or None after the
    last)}`; with a `bound` (an agent's limit, `--max-output`), a page short enough that its answer
    is within it, JSON escapes included. A usage error for a malformed or unknown reference;
    `offset` is 0 or more and `limit` 1 or more (the `output` command's reader checks its bounds,
    `table._OUTPUT_INPUTS`, as every command's)."""
    if not _spill_is_ref(ref):
        raise UsageError(
            f"{ref!r} is not a saved-output reference",
            hint=f"a reference is {_SPILL_REF_DIGITS} hexadecimal digits (0-9, a-f), "
            "as in meta.truncated.ref",
        )
    places = [(directory, None)] if directory is not None else _spill_directories(name)
    found = [
        os.path.join(folder, f"{ref}.txt")
        for folder, private in places
        if private is None or _private(private, False) is not None
    ]
    try:
        text = _spill_text(ref, found)
    except FileNotFoundError:
        elsewhere = "" if directory is not None else "; saved with --spill-dir? give it again"
        raise UsageError(
            f"no saved output {ref}: it has expired or was never saved",
            hint=f"outputs are kept {_SPILL_MAX_AGE // 86400} days, the newest {_SPILL_KEEP} "
            f"only; run the command again{elsewhere}",
        ) from None
    except (OSError, ValueError) as error:
        raise UsageError(f"saved output {ref} cannot be read: {error}") from None
    page = text[offset : offset + limit]
    while True:
        end = offset + len(page)
        # NOTE: an answer quarantined for an agent (untrusted text inside); a page of it may
        # have no tags of its own left, so it is quarantined as a whole.
        shown = _quarantine(page) if f"<{_QUARANTINE_TAG}>" in text else page
        answer = {
            "ref": ref,
            "offset": offset,
            "length": len(text),
            "text": shown,
            "next": end if end < len(text) else None,
        }
        over = _page_over(answer, bound)
        if over <= 0 or len(page) <= 1:
            return answer
        # NOTE: each character taken off shortens the JSON by one at least (an escape, more).
        page = page[: max(1, len(page) - over)]


def _page_over(page: dict[str, Any], bound: int) -> int:
    """How many characters the answer holding `page` is over `bound` (none: no bound)."""
    if bound <= 0:
        return 0
    import json

    return len(json.dumps(page, ensure_ascii=False)) + _PAGE_ROOM - bound
