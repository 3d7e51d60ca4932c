"""The `.gitignore` beside the index: its lock file and interrupted writes stay out of git."""

from __future__ import annotations

from pathlib import Path

from riverbed.errors import StoreWriteError
from riverbed.index.atomic_write import temp_prefix, write_bytes_atomic
from riverbed.index.storage import lock_path

_HEADER = "# riverbed's lock file and interrupted writes: never commit"


def ignored_names(path: Path) -> tuple[str, ...]:
    """The patterns of the files beside `path` that must never be committed."""
    return (lock_path(path).name, f"{temp_prefix(path)}*.tmp")


def ensure_gitignore(path: Path) -> bool:
    """Make the `.gitignore` beside the index ignore its lock and temp files; True if changed.

    Lines already there are kept; missing patterns are appended. A `.gitignore` that is a
    symlink is refused rather than read: a checkout could point it at a file of the user's,
    whose text would then be copied into the repository.
    """
    ignore = path.parent / ".gitignore"
    if ignore.is_symlink() or (ignore.exists() and not ignore.is_file()):
        raise StoreWriteError(
            f"{ignore}: is a symlink or not a regular file; riverbed neither reads nor writes "
            f"through it (replace it with a file, or add {', '.join(ignored_names(path))} to "
            "it yourself)"
        )
    try:
        existing = ignore.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise StoreWriteError(f"{ignore}: cannot be read: {reason}") from None
    present = {line.strip() for line in existing.splitlines()}
    missing = [name for name in ignored_names(path) if name not in present]
    if not missing:
        return False
    lines = [] if existing else [_HEADER]
    text = existing + ("\n" if existing and not existing.endswith("\n") else "")
    text += "".join(line + "\n" for line in [*lines, *missing])
    write_bytes_atomic(ignore, text.encode("utf-8"), what="the .gitignore")
    return True
