"""The repository's `.gitattributes` line that makes git merge the index with riverbed."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from riverbed.errors import StoreWriteError
from riverbed.index.atomic_write import write_bytes_atomic

#: The merge driver's name in `.gitattributes` and in `git config merge.<name>.driver`.
DRIVER = "riverbed"
_HEADER = "# riverbed's memory index: git merges it with `riverbed merge-driver` (see README)"
_GLOB = re.compile(r"([*?\[\]\\])")


def attribute_pattern(relative: PurePosixPath) -> str:
    """The `.gitattributes` pattern matching exactly `relative` (glob characters escaped)."""
    text = str(relative)
    if any(c.isspace() or c == '"' or ord(c) < 32 for c in text):
        raise StoreWriteError(
            f"{text}: a path with blanks or quotes cannot be named in .gitattributes by "
            "riverbed; move the index, or add its merge=riverbed line yourself"
        )
    pattern = _GLOB.sub(r"\\\1", text)
    # A pattern with no inner slash would match the name in every directory: anchor it.
    return pattern if "/" in pattern else "/" + pattern


def ensure_gitattributes(root: Path, index_path: Path) -> tuple[Path, str, bool]:
    """Make `root/.gitattributes` give the index `merge=riverbed`: (file, line, changed).

    Lines already there are kept and the line is appended when missing. A `.gitattributes`
    that is a symlink is refused rather than read: a checkout could point it at a file of
    the user's, whose text would then be copied into the repository.
    """
    relative = PurePosixPath(index_path.resolve().relative_to(root.resolve()).as_posix())
    pattern = attribute_pattern(relative)
    line = f"{pattern} merge={DRIVER}"
    attributes = root / ".gitattributes"
    if attributes.is_symlink() or (attributes.exists() and not attributes.is_file()):
        raise StoreWriteError(
            f"{attributes}: is a symlink or not a regular file; riverbed neither reads nor "
            f"writes through it (replace it with a file, or add `{line}` to it yourself)"
        )
    try:
        existing = attributes.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise StoreWriteError(f"{attributes}: cannot be read: {reason}") from None
    # A later line wins in git, so only the last line naming the pattern counts.
    named = [words for words in map(str.split, existing.splitlines()) if words[:1] == [pattern]]
    if named and f"merge={DRIVER}" in named[-1][1:]:
        return attributes, line, False
    text = existing + ("\n" if existing and not existing.endswith("\n") else "")
    text += "".join(f"{x}\n" for x in ([] if existing else [_HEADER]) + [line])
    write_bytes_atomic(attributes, text.encode("utf-8"), what="the .gitattributes")
    return attributes, line, True
