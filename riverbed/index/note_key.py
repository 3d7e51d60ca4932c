"""The per-user secret that signs the lock file's verified notes, kept outside any repository.

A note is an HMAC of a content digest under this key, so a lock file planted in a checkout
(committed with `git add -f`, or by a repository without the `.gitignore`) cannot name a
file as proven: only someone who can read the key can write a note riverbed trusts. When
the key can be neither read nor created, `note_key` answers None and notes are off.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

STATE_DIR_VARIABLE = "RIVERBED_STATE_DIR"
KEY_NAME = "note-key"
_KEY_BYTES = 32
#: More than a key file ever holds (64 hex digits and a newline): a bigger file is not one.
_MOST = 256
#: Keys read or created, by state directory (None: none could be had); read once a process.
_KEYS: dict[str, bytes | None] = {}


def state_dir(env: Mapping[str, str] | None = None, platform: str | None = None) -> Path | None:
    """riverbed's per-user state directory, or None when no home directory is known."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    explicit = env.get(STATE_DIR_VARIABLE, "").strip()
    if explicit:
        return Path(os.path.abspath(explicit))
    if platform == "win32":
        local = env.get("LOCALAPPDATA", "").strip()
        if os.path.isabs(local):
            return Path(local) / "riverbed"
        home = _home(env, "USERPROFILE")
        return None if home is None else home / "AppData" / "Local" / "riverbed"
    home = _home(env, "HOME")
    if platform == "darwin":
        return None if home is None else home / "Library" / "Application Support" / "riverbed"
    xdg = env.get("XDG_STATE_HOME", "").strip()
    if os.path.isabs(xdg):  # the XDG spec says a relative path is to be ignored
        return Path(xdg) / "riverbed"
    return None if home is None else home / ".local" / "state" / "riverbed"


def _home(env: Mapping[str, str], variable: str) -> Path | None:
    text = env.get(variable, "").strip()
    if not text:
        try:
            text = str(Path.home())  # the password database when the variable is unset
        except (RuntimeError, KeyError, OSError):
            return None
    # A relative home would put the key wherever riverbed runs, maybe inside a checkout.
    return Path(text) if os.path.isabs(text) else None


def note_key() -> bytes | None:
    """This user's note key (read, or created on first use), or None when it cannot be had."""
    try:
        directory = state_dir()
    except (OSError, ValueError):  # abspath of a relative path in a deleted directory
        return None
    if directory is None:
        return None
    where = str(directory)
    if where not in _KEYS:
        _KEYS[where] = _load_or_create(directory)
    return _KEYS[where]


def sign(key: bytes, message: str) -> str:
    """The HMAC-SHA256 of `message` under `key`, in hex."""
    return hmac.new(key, message.encode("ascii"), hashlib.sha256).hexdigest()


def _load_or_create(directory: Path) -> bytes | None:
    path = directory / KEY_NAME
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError):
        return None
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        _create(path)
        # Whichever process placed the key first, this reads the one every process uses.
        return _read(path)
    except (OSError, ValueError):
        return None


def _read(path: Path) -> bytes | None:
    """The key in `path`; None when the file is not one this user alone could have written."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MOST:
            return None
        if os.name == "posix" and (info.st_uid != os.geteuid() or info.st_mode & 0o077):
            return None  # another user could read or have written it: as ssh does, refuse
        text = os.read(fd, _MOST)
    finally:
        os.close(fd)
    try:
        key = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        return None
    return key if len(key) == _KEY_BYTES else None


def _create(path: Path) -> None:
    """Place a new random key at `path` unless one is already there (never replacing it)."""
    fd, temp = tempfile.mkstemp(prefix=f".{KEY_NAME}.", suffix=".tmp", dir=path.parent)
    try:
        try:  # mkstemp made the file 0600: complete before it is given the key's name
            os.write(fd, secrets.token_hex(_KEY_BYTES).encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        _place(temp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _place(temp: str, path: Path) -> None:
    try:
        os.link(temp, path)  # atomic, and fails when another process placed its key first
        return
    except FileExistsError:
        return
    except OSError:
        if os.name != "nt":
            raise
    with contextlib.suppress(FileExistsError):
        os.rename(temp, path)  # Windows' rename never replaces an existing file
