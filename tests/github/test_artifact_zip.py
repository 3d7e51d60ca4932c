"""riverbed.github.artifact_zip: defensive extraction and digest checks over bytes."""

from __future__ import annotations

import contextlib
import hashlib
import io
import stat
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.errors import ArtifactError
from riverbed.github.artifact_zip import ZipLimits, extract_index, verify_digest

INDEX = b'{"version": "1", "entries": []}\n'


def make_zip(members: dict[str, bytes], *, symlink: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        if symlink is not None:
            info = zipfile.ZipInfo(symlink)
            info.create_system = 3
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def test_plain_artifact_yields_its_index() -> None:
    assert extract_index(make_zip({"index.json": INDEX})).data == INDEX


def test_other_members_are_reported_not_read() -> None:
    result = extract_index(make_zip({"index.json": INDEX, "notes.txt": b"hi"}))
    assert result.data == INDEX
    assert result.ignored == ("notes.txt",)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../index.json", "path escape"),
        ("a/../../index.json", "path escape"),
        ("/etc/index.json", "absolute path"),
        ("C:/index.json", "absolute path"),
        ("a\\..\\index.json", "backslash"),
    ],
)
def test_unsafe_member_names_are_refused(name: str, reason: str) -> None:
    with pytest.raises(ArtifactError, match=reason):
        extract_index(make_zip({"index.json": INDEX, name: b"x"}))


def test_symlink_member_is_refused() -> None:
    with pytest.raises(ArtifactError, match="symbolic link"):
        extract_index(make_zip({"index.json": INDEX}, symlink="link"))


def test_symlinked_index_is_refused() -> None:
    with pytest.raises(ArtifactError, match="symbolic link"):
        extract_index(make_zip({}, symlink="index.json"))


def test_too_many_members_is_refused() -> None:
    members = {"index.json": INDEX} | {f"f{n}": b"" for n in range(8)}
    with pytest.raises(ArtifactError, match="holds 9 members"):
        extract_index(make_zip(members))


@pytest.mark.parametrize(
    "members",
    [{}, {"memory/index.json": INDEX}, {"index.json.bak": INDEX}],
)
def test_missing_root_index_is_refused(members: dict[str, bytes]) -> None:
    with pytest.raises(ArtifactError, match=r"exactly one `index\.json`"):
        extract_index(make_zip(members))


def test_uncompressed_size_cap_is_configurable() -> None:
    data = make_zip({"index.json": INDEX + b" " * 5000})
    limits = ZipLimits(max_uncompressed_bytes=4096)
    with pytest.raises(ArtifactError, match="over the cap of 4096 bytes"):
        extract_index(data, limits=limits)
    assert len(extract_index(data).data) == len(INDEX) + 5000


def test_compression_ratio_bomb_is_refused() -> None:
    data = make_zip({"index.json": b"0" * (8 * 1024 * 1024)})
    with pytest.raises(ArtifactError, match="zip bomb"):
        extract_index(data)


def test_declared_size_that_lies_is_caught() -> None:
    # Rewrite the sizes recorded for the member to claim fewer bytes than the stream holds.
    honest = make_zip({"index.json": INDEX * 10})
    archive = zipfile.ZipFile(io.BytesIO(honest))
    info = archive.infolist()[0]
    real = info.file_size.to_bytes(4, "little")
    forged = (len(INDEX)).to_bytes(4, "little")
    tampered = honest.replace(real, forged)
    with pytest.raises(ArtifactError):
        extract_index(tampered)


def test_garbage_is_not_a_zip() -> None:
    with pytest.raises(ArtifactError, match="not a readable zip"):
        extract_index(b"PK\x03\x04 this is not really a zip")


def test_truncated_zip_is_refused() -> None:
    data = make_zip({"index.json": INDEX * 100})
    with pytest.raises(ArtifactError):
        extract_index(data[: len(data) // 2])


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=2048))
def test_arbitrary_bytes_never_escape_as_other_errors(data: bytes) -> None:
    with contextlib.suppress(ArtifactError):
        extract_index(data)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=400), st.integers(min_value=0, max_value=10_000))
def test_flipping_a_byte_of_a_real_zip_is_refused_or_harmless(payload: bytes, where: int) -> None:
    data = bytearray(make_zip({"index.json": payload}))
    data[where % len(data)] ^= 0xFF
    try:
        result = extract_index(bytes(data))
    except ArtifactError:
        return
    # When it still reads (a flip in a field nobody checks), the content is intact.
    assert result.data == payload


def test_digest_verified_when_matching() -> None:
    data = b"zip bytes"
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    assert verify_digest(data, digest) == "sha256 digest verified"
    assert (
        verify_digest(data, digest.upper().replace("SHA256", "sha256")) == "sha256 digest verified"
    )


def test_digest_mismatch_is_an_error() -> None:
    with pytest.raises(ArtifactError, match="incomplete or was altered"):
        verify_digest(b"zip bytes", "sha256:" + "0" * 64)


@pytest.mark.parametrize("digest", [None, "", "md5:abc", "sha256:"])
def test_absent_or_unknown_digest_says_so(digest: str | None) -> None:
    assert "not verified" in verify_digest(b"x", digest)
