"""Git edge (subprocess, no shell): the files a change touches, and HEAD's commit or branch."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from riverbed.errors import UsageError

_TIMEOUT_SECONDS = 60


def _git(args: Sequence[str], cwd: str | os.PathLike[str]) -> str:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            timeout=_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError:
        raise UsageError("git is not installed; pass --changed-files instead of --base") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"`git {' '.join(args)}` took over {_TIMEOUT_SECONDS} s") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {done.returncode}"
        raise UsageError(f"`git {' '.join(args)}` failed in {cwd}: {detail}")
    return done.stdout.decode("utf-8", "surrogateescape")


def changed_files_since(base: str, *, cwd: str | os.PathLike[str] = ".") -> list[str]:
    """Files changed between the merge base of `base` and HEAD and the working tree."""
    if not base or base.startswith("-") or any(c.isspace() or c == "\0" for c in base):
        raise UsageError(f"--base {base!r} is not a git revision")
    merge_base = _git(["merge-base", base, "HEAD"], cwd).strip()
    output = _git(["diff", "--name-only", "-z", "--no-ext-diff", merge_base, "--"], cwd)
    return [name for name in output.split("\0") if name]


def git_line(*args: str) -> str | None:
    """One line of `git` output in the current directory, or None (no git, no repository)."""
    try:
        done = subprocess.run(
            ["git", *args], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = done.stdout.strip()
    return value if done.returncode == 0 and value and value != "HEAD" else None
