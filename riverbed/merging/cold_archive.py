"""The cold archive beside the index: a gzipped v1 index of settled entries, read on demand."""

from __future__ import annotations

import gzip
import io
import zlib
from datetime import datetime
from pathlib import Path

from riverbed.errors import CorruptIndexError, UsageError
from riverbed.index.atomic_write import write_bytes_atomic
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import Index, empty_index
from riverbed.index.storage import parse_index_bytes, read_index, update_index
from riverbed.merging.compaction import CompactReport, compact, with_archive

#: The archive's name beside an index named `index.json`: `index.archive.json.gz`.
ARCHIVE_SUFFIX = ".archive.json.gz"
#: The most an archive may expand to when read (a gzip bomb stops here, named).
MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024


def archive_path_for(index_path: Path) -> Path:
    """Where the cold archive of the index at `index_path` lives (same folder)."""
    stem = (
        index_path.name[: -len(".json")] if index_path.name.endswith(".json") else index_path.name
    )
    return index_path.with_name(stem + ARCHIVE_SUFFIX)


def encode_archive(archive: Index) -> bytes:
    """The archive's bytes: gzip (mtime 0, so equal content gives equal bytes) of canonical JSON."""
    return gzip.compress(dumps_js(archive), compresslevel=9, mtime=0)


def decode_archive(data: bytes, source: str, *, limit: int = MAX_ARCHIVE_BYTES) -> Index:
    """An archive from its gzip bytes: bounded, parsed and validated like an index."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
            raw = handle.read(limit + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise CorruptIndexError(source, f"not a readable gzip archive ({exc})") from None
    if len(raw) > limit:
        raise CorruptIndexError(source, f"expands past {limit} bytes, the cap for an archive")
    return parse_index_bytes(raw, source)


def read_archive(path: Path) -> Index:
    """The cold archive at `path` (missing → empty); CorruptIndexError when unreadable."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return empty_index()
    except OSError as exc:
        raise CorruptIndexError(str(path), f"cannot be read: {exc.strerror}") from None
    return decode_archive(data, str(path))


def archived_count(index_path: Path) -> int:
    """How many entries the cold archive beside `index_path` holds (0 when there is none)."""
    path = archive_path_for(index_path)
    return len(read_archive(path)["entries"]) if path.is_file() else 0


def write_archive(path: Path, archive: Index) -> None:
    """Replace the archive atomically (the caller holds the index's lock)."""
    write_bytes_atomic(path, encode_archive(archive), what="the cold archive")


def read_with_archive(index_path: Path) -> Index:
    """The live index and its cold archive as one index (live entries win on a shared id)."""
    return with_archive(read_index(index_path), read_archive(archive_path_for(index_path)))


def compact_index(
    index_path: Path, *, now: datetime, days: int, dry_run: bool = False
) -> CompactReport:
    """Move settled entries older than `days` into the cold archive, under the index's lock.

    The archive is written first, then the live index: a crash between the two leaves an
    entry in both places (the next compaction settles it), never in neither.
    """
    if not index_path.is_file():
        raise UsageError(
            f"no index at {index_path}: nothing to compact (create one: riverbed init)"
        )
    archive_path = archive_path_for(index_path)

    def change(index: Index) -> tuple[Index, bool, CompactReport]:
        archive = read_archive(archive_path)
        live, new_archive, report = compact(index, archive, now, days)
        if dry_run or not report.moved:
            return index, False, report
        write_archive(archive_path, new_archive)
        return live, True, report

    result: CompactReport = update_index(index_path, change)
    return result
