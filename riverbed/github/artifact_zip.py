"""Defensive reading of a memory artifact's zip: pure over bytes, refusing anything unusual."""

from __future__ import annotations

import hashlib
import hmac
import io
import stat
import zipfile
import zlib
from dataclasses import dataclass

from riverbed.errors import ArtifactError
from riverbed.merging.cold_archive import ARCHIVE_SUFFIX

#: The file a memory artifact is expected to hold, at the zip's root.
INDEX_MEMBER = "index.json"
#: The cold archive that travels beside it (optional; see merging/cold_archive.py).
ARCHIVE_MEMBER = "index" + ARCHIVE_SUFFIX
MIB = 1024 * 1024
# What `zipfile` raises on a damaged archive (it has no single exception for that).
_DAMAGED = (
    zipfile.BadZipFile,
    zlib.error,
    NotImplementedError,
    RuntimeError,
    ValueError,
    OSError,
    EOFError,
)


@dataclass(frozen=True)
class ZipLimits:
    """Caps applied before and while reading a zip (every one names itself when it refuses)."""

    max_members: int = 8
    max_uncompressed_bytes: int = 256 * MIB
    #: A member may expand at most this many times its compressed size …
    max_ratio: int = 200
    #: … once it is bigger than this (small JSON legitimately compresses very well).
    ratio_floor_bytes: int = 1 * MIB


@dataclass(frozen=True)
class ExtractedIndex:
    """The bytes of `index.json`, of its cold archive if any, and other members left unread."""

    data: bytes
    ignored: tuple[str, ...] = ()
    #: The gzip bytes of the cold archive member, undecoded (a review never reads it).
    archive: bytes | None = None


def _unsafe_name(name: str) -> str | None:
    """Why a member name is unsafe to extract, or None when it is a plain relative path."""
    if not name:
        return "an empty name"
    if "\x00" in name:
        return "a NUL byte"
    if "\\" in name:
        return "a backslash (Windows path separator)"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "an absolute path"
    if any(part == ".." for part in name.split("/")):
        return "a '..' component (path escape)"
    return None


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    mode = info.external_attr >> 16
    return info.create_system == 3 and stat.S_ISLNK(mode)


def _check_member(info: zipfile.ZipInfo, limits: ZipLimits, source: str) -> None:
    reason = _unsafe_name(info.filename)
    if reason:
        raise ArtifactError(f"{source}: refused member {info.filename!r}: {reason}")
    if _is_symlink(info):
        raise ArtifactError(f"{source}: refused member {info.filename!r}: it is a symbolic link")
    if info.flag_bits & 0x1:
        raise ArtifactError(f"{source}: refused member {info.filename!r}: it is encrypted")
    if info.file_size > limits.ratio_floor_bytes:
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > limits.max_ratio:
            raise ArtifactError(
                f"{source}: refused member {info.filename!r}: it expands {ratio:.0f}x "
                f"({info.compress_size} → {info.file_size} bytes; the cap is "
                f"{limits.max_ratio}x), which looks like a zip bomb"
            )


def extract_index(
    data: bytes, *, limits: ZipLimits | None = None, source: str = "artifact"
) -> ExtractedIndex:
    """The `index.json` held by a memory artifact zip, after checking every member; pure."""
    limits = limits or ZipLimits()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _DAMAGED as exc:
        raise ArtifactError(f"{source}: not a readable zip archive ({exc})") from None
    with archive:
        members = archive.infolist()
        if len(members) > limits.max_members:
            raise ArtifactError(
                f"{source}: holds {len(members)} members; a memory artifact holds one "
                f"`{INDEX_MEMBER}` (at most {limits.max_members} members are accepted)"
            )
        for info in members:
            _check_member(info, limits, source)
        declared = sum(info.file_size for info in members)
        if declared > limits.max_uncompressed_bytes:
            raise ArtifactError(
                f"{source}: members declare {declared} bytes uncompressed, over the cap of "
                f"{limits.max_uncompressed_bytes} bytes"
            )
        wanted = [info for info in members if info.filename == INDEX_MEMBER]
        if len(wanted) != 1:
            names = ", ".join(repr(i.filename) for i in members) or "nothing"
            raise ArtifactError(
                f"{source}: expected exactly one `{INDEX_MEMBER}` at the archive root, "
                f"found {len(wanted)} (members: {names})"
            )
        known = (INDEX_MEMBER, ARCHIVE_MEMBER)
        ignored = tuple(i.filename for i in members if i.filename not in known)
        cold = [info for info in members if info.filename == ARCHIVE_MEMBER]
        if len(cold) > 1:
            raise ArtifactError(f"{source}: holds {len(cold)} members named `{ARCHIVE_MEMBER}`")
        data = _read_bounded(archive, wanted[0], limits, source)
        kept = _read_bounded(archive, cold[0], limits, source) if cold else None
        return ExtractedIndex(data, ignored, kept)


def _read_bounded(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits: ZipLimits, source: str
) -> bytes:
    # Never trust the declared size: read at most one byte past the cap and look.
    cap = min(limits.max_uncompressed_bytes, info.file_size)
    try:
        with archive.open(info) as handle:
            content = handle.read(cap + 1)
    except _DAMAGED as exc:
        raise ArtifactError(f"{source}: {info.filename!r} cannot be decompressed ({exc})") from None
    if len(content) > cap:
        raise ArtifactError(
            f"{source}: {info.filename!r} expands past its declared size or the cap of "
            f"{limits.max_uncompressed_bytes} bytes"
        )
    return content


def verify_digest(data: bytes, digest: str | None, *, source: str = "artifact") -> str:
    """Check `data` against an artifact `digest` ("sha256:<hex>"); returns what was checked."""
    if not digest:
        return "no digest published; content not verified"
    algorithm, _, expected = digest.partition(":")
    if algorithm.lower() != "sha256" or not expected:
        return f"digest {digest!r} uses an unsupported algorithm; content not verified"
    actual = hashlib.sha256(data).hexdigest()
    if not hmac.compare_digest(actual, expected.lower()):
        raise ArtifactError(
            f"{source}: sha256 of the download is {actual}, but GitHub published "
            f"{expected}; the download is incomplete or was altered"
        )
    return "sha256 digest verified"
