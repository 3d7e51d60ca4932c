"""Run riverbed with `fcntl` hidden and Windows' `msvcrt.locking` emulated, as a real process.

`python windows_locking.py hold INDEX` takes the index lock, prints "held" and keeps it until
stdin closes. `python windows_locking.py append INDEX WORKER COUNT` appends COUNT entries and
prints their ids as JSON. `python windows_locking.py backend` prints the backend riverbed picks.

The emulation has msvcrt's contract: `locking(fd, mode, nbytes)` locks `nbytes` bytes from the
file position, `LK_NBLCK` fails with EACCES while another process holds an overlapping range,
`LK_UNLCK` unlocks. It is built on POSIX byte-range locks (`lockf`), which are what Windows'
LockFile is: per range, per process, released when the process dies.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import types
from datetime import UTC, datetime
from pathlib import Path


def _install_msvcrt() -> None:
    import fcntl

    lockf = fcntl.lockf
    exclusive, nonblocking, unlock = fcntl.LOCK_EX, fcntl.LOCK_NB, fcntl.LOCK_UN

    def locking(fd: int, mode: int, nbytes: int) -> None:
        start = os.lseek(fd, 0, os.SEEK_CUR)
        if mode == module.LK_UNLCK:
            lockf(fd, unlock, nbytes, start, os.SEEK_SET)
            return
        try:
            lockf(fd, exclusive | nonblocking, nbytes, start, os.SEEK_SET)
        except OSError:
            raise PermissionError(errno.EACCES, "Permission denied") from None

    module = types.ModuleType("msvcrt")
    module.LK_UNLCK, module.LK_LOCK, module.LK_NBLCK = 0, 1, 2  # type: ignore[attr-defined]
    module.locking = locking  # type: ignore[attr-defined]
    sys.modules["msvcrt"] = module
    # `import fcntl` now raises ImportError, as it does on Windows.
    sys.modules["fcntl"] = None  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    _install_msvcrt()
    from riverbed import append_entry
    from riverbed.index import locking
    from riverbed.index.build import build_entry
    from riverbed.index.storage import locked

    command = argv[0]
    if command == "backend":
        print(locking._backend()[0])
        return 0
    path = Path(argv[1])
    if command == "hold":
        with locked(path):
            print("held", flush=True)
            sys.stdin.read()
        return 0
    worker, count = int(argv[2]), int(argv[3])
    ids = []
    for number in range(count):
        entry_id = f"win-w{worker}-{number:03d}"
        append_entry(
            path,
            build_entry(
                type="pattern",
                title=f"worker {worker} entry {number}",
                content="appended with fcntl hidden",
                author="windows-emulation",
                now=datetime(2026, 6, 1, tzinfo=UTC),
                entry_id=entry_id,
            ),
        )
        ids.append(entry_id)
    print(json.dumps(ids))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
