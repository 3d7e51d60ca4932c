"""Appending a few entries by their tail: the file's bytes copied in the kernel, checked where
they change.

An append changes only the end of the file, so only the end is checked: the head and the
closing of `entries` must be as writers lay them out, and no new id may be spelled anywhere
in the file. The old bytes go to the temp file by `copy_file_range` (no 70 MB buffer to fault
in, no userspace copy) while one read through a reused buffer looks for the ids; then the
new tail, fsync and the rename, so a reader still sees the old file or the new one, never
half of either. The old bytes are not validated here: every read validates the whole file.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from riverbed.errors import StoreWriteError
from riverbed.index import atomic_write
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Entry
from riverbed.index.write_checks import check_entries_written

if TYPE_CHECKING:
    from pathlib import Path

#: How a file riverbed (`entries` first) or River Reviewer (`version` first) wrote begins, and
#: ends after its last entry, when `entries` holds entries and there is no `generatedAt`
#: (which an append refreshes: the full path does that). A valid index has no other member.
LAYOUTS = (
    (b'{\n  "entries": [\n    {\n', b'\n  ],\n  "version": "1"\n}\n'),
    (b'{\n  "version": "1",\n  "entries": [\n    {\n', b"\n  ]\n}\n"),
)
_ENTRY_END = b"\n    }"
#: At most this many entries go by their tail (each id is one byte search of the file).
MOST_ENTRIES = 4
_CHUNK = 1 << 20
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def entries_block(entries: list[Entry]) -> bytes:
    """Each of `entries` (at least one) as it appears inside the entries array (indented 4),
    joined by `,\n`, serialized at once."""
    # `[\n  {…},\n  {…}\n]\n` re-indented by 2 is `[\n` + exactly that + `\n  ]\n  `.
    return dumps_js(entries).replace(b"\n", b"\n  ")[2:-7]


def id_spelling(entry_id: str) -> bytes | None:
    """The only JSON spelling JSON writers give this id, or None when there could be others.

    Printable ASCII without a quote, a backslash or a slash is written as it is by every
    writer (`\\/` is allowed for a slash); anything else could be escaped in more than one way,
    and a byte search would not be exact.
    """
    if not entry_id or not entry_id.isascii() or not entry_id.isprintable():
        return None
    if any(character in entry_id for character in '"\\/'):
        return None
    return dumps_js(entry_id)[:-1]


def append(path: Path, entries: Sequence[Entry]) -> bool:
    """Append `entries` (validated) by the file's tail if it allows; False: use the full path.

    The full path is taken when: `copy_file_range` is missing; the file is missing or not
    laid out as writers lay it out at its head and end (or carries `generatedAt`); or one
    of the ids is spelled anywhere in it (taken, or an identical entry again: the full path
    decides). Otherwise the file is checked where it changes: its head and end, the new
    ids, the new entries; the rest is left to the next read, which validates it whole.
    The caller holds the lock.
    """
    spellings = [id_spelling(entry["id"]) for entry in entries]
    if not hasattr(os, "copy_file_range") or not 0 < len(entries) <= MOST_ENTRIES:
        return False
    if None in spellings or len(set(spellings)) != len(spellings):
        return False
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:  # missing, unreadable, a symlink: the full path says what to do
        return False
    try:
        before = os.fstat(fd)
        closing = _closing(fd, before)
        if closing is None:
            return False
        check_entries_written([(None, entry) for entry in entries])
        new_tail = b",\n" + entries_block(list(entries)) + closing
        searched = [s for s in spellings if s is not None]
        return _write(
            path, fd, before=before, spellings=searched, new_tail=new_tail, closing=len(closing)
        )
    finally:
        os.close(fd)


def _closing(fd: int, info: os.stat_result) -> bytes | None:
    """The bytes after the last entry when the file is laid out as in `LAYOUTS`, else None."""
    if not stat.S_ISREG(info.st_mode):
        return None
    for head, closing in LAYOUTS:
        last = _ENTRY_END + closing
        if info.st_size >= len(head) + len(last) and os.pread(fd, len(head), 0) == head:
            end = os.pread(fd, len(last), info.st_size - len(last))
            return closing if end == last else None
    return None


def _write(
    path: Path,
    fd: int,
    *,
    before: os.stat_result,
    spellings: list[bytes],
    new_tail: bytes,
    closing: int,
) -> bool:
    """Copy the old bytes and write the new tail to a temp file while the scan checks them;
    False (the temp file removed, nothing installed): use the full path."""
    offset = before.st_size - closing
    temp = None
    failed: list[BaseException] = []
    try:
        out, temp = atomic_write.new_temp(path)  # as every write of the index makes one
        job = (fd, out, offset, new_tail, failed)
        worker = threading.Thread(target=_copy_synced, args=job, name="riverbed-tail-copy")
        try:
            worker.start()
        except RuntimeError:  # no thread to be had (the process is at its limit)
            os.close(out)
            raise OSError(errno.EAGAIN, "no thread could be started; retry") from None
        try:
            _sync_file_range()  # ctypes imported here while the worker copies the first piece
            found = _scan(fd, before.st_size, spellings)
        finally:
            worker.join()
        # What the copying thread caught: anything but an I/O error is raised whatever the
        # scan found; an I/O error matters only if this copy were installed (a decline hands
        # the write to the full path, which writes the whole file and reports its own errors).
        if failed and not isinstance(failed[0], OSError):
            raise failed[0]
        after = os.fstat(fd)
        if found or (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
            return False  # an id is spelled in it, or another program wrote it without the lock
        if failed:
            raise failed[0]
        os.chmod(temp, before.st_mode & 0o777)
        atomic_write.replace_file(temp, path)
        temp = None
        atomic_write.fsync_directory(path.parent)
    except OSError as exc:
        raise StoreWriteError(atomic_write.write_failure(path, exc, "the index")) from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    return True


def _copy_synced(
    source: int, out: int, length: int, tail: bytes, failed: list[BaseException]
) -> None:
    """The first `length` bytes of `source`, then `tail`, into `out`, synced and closed; what
    goes wrong is put in `failed`, for the caller's thread to raise."""
    try:
        done = 0
        while done < length:
            count = _copy_range(source, out, min(_CHUNK * 8, length - done), done)
            if count <= 0:
                raise OSError(5, "the file system copied no bytes")
            # The disk starts writing each piece while the next is copied: the fsync below
            # then waits for the last piece only (about 15 ms less for 70 MB, measured).
            start_writeback = _sync_file_range()
            if start_writeback is not None:
                start_writeback(out, done, count, _SYNC_FILE_RANGE_WRITE)
            done += count
        if os.pwrite(out, tail, length) != len(tail):
            raise OSError(28, "No space left on device")  # a short write: the disk filled up
        os.fsync(out)
    except BaseException as exc:  # everything, as a thread has no caller: `_write` raises it
        failed.append(exc)
    finally:
        os.close(out)


def _scan(fd: int, size: int, spellings: list[bytes]) -> bool:
    """Whether a spelling occurs in the file, from one read through a reused buffer (no 70 MB
    allocation to fault in)."""
    room = max(len(spelling) for spelling in spellings)  # carried over between chunks
    buffer = bytearray(room + _CHUNK)
    view = memoryview(buffer)
    carried = b""
    done = 0
    while done < size:
        count = os.preadv(fd, [view[room : room + _CHUNK]], done)
        if count <= 0:
            break
        start = room - len(carried)
        view[start:room] = carried
        end = room + count
        if any(buffer.find(spelling, start, end) != -1 for spelling in spellings):
            return True
        carried = bytes(view[max(start, end - room + 1) : end])  # read bytes only
        done += count
    return False


#: What `copy_file_range` answers where a file system or kernel cannot copy in the kernel.
_NO_KERNEL_COPY = (errno.EXDEV, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP)


def _copy_range(source: int, out: int, length: int, offset: int) -> int:
    """Copy `length` bytes at `offset` from `source` to the same offset of `out`; the bytes
    go through a buffer where the kernel cannot copy them itself."""
    try:
        return os.copy_file_range(source, out, length, offset, offset)
    except OSError as exc:
        if exc.errno not in _NO_KERNEL_COPY:
            raise
    data = os.pread(source, length, offset)
    return os.pwrite(out, data, offset) if data else 0


#: `sync_file_range`'s flag: start writing the range, do not wait for it.
_SYNC_FILE_RANGE_WRITE = 2


@functools.cache
def _sync_file_range() -> Any:
    """Linux's call that starts writing a range of a file to disk now, or None (elsewhere, or
    missing: the fsync writes everything anyway); libc's, as the standard library has none."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # 1 ms of imports, paid while the file is being copied (see `_write`)

    try:
        call = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
    call.restype = ctypes.c_int
    return call
