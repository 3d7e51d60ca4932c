"""Git edge (subprocess, no shell): a change's files and diff, a file at a commit, HEAD."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from riverbed.errors import UsageError

_TIMEOUT_SECONDS = 60


def _git(args: Sequence[str], cwd: str | os.PathLike[str], shown: str | None = None) -> str:
    """git's stdout; errors name the command as `shown` (default: the arguments)."""
    label = shown or " ".join(args)
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
        raise UsageError(f"`git {label}` took over {_TIMEOUT_SECONDS} s") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {done.returncode}"
        raise UsageError(f"`git {label}` failed in {cwd}: {detail}")
    return done.stdout.decode("utf-8", "surrogateescape")


def _is_revision(name: str | None) -> bool:
    """Whether `name` may be handed to git as a revision: not empty, no option, no blanks."""
    if not name or name.startswith("-"):
        return False
    return not any(c.isspace() or c == "\0" for c in name)


def _try_git(
    args: Sequence[str], cwd: str | os.PathLike[str]
) -> subprocess.CompletedProcess[bytes] | None:
    """git's finished run (any exit status), or None when git cannot be run at all."""
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            timeout=_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None


def _check_revision(base: str) -> None:
    if not _is_revision(base):
        raise UsageError(f"--base {base!r} is not a git revision")


def require_repository(cwd: str | os.PathLike[str], flag: str = "--base") -> None:
    """UsageError unless `cwd` is inside a git work tree (else git falls back to other modes)."""
    done = _try_git(["rev-parse", "--is-inside-work-tree"], cwd)
    if done is None:
        raise UsageError(f"git is not installed; pass --changed-files or --diff instead of {flag}")
    if done.returncode != 0 or done.stdout.strip() != b"true":
        raise UsageError(
            f"{flag} needs a git repository, and {os.path.abspath(cwd)} is not a git repository: "
            "run riverbed inside the checkout or name it with --workspace DIR"
        )


def diff_since(base: str, *, cwd: str | os.PathLike[str] = ".") -> str:
    """`git diff base...HEAD` with 3 lines of context, renames followed, fixed prefixes."""
    _check_revision(base)
    require_repository(cwd)
    return _git(
        [
            "-c",
            "core.quotePath=false",
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--find-renames",
            "-U3",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            f"{base}...HEAD",
            "--",
        ],
        cwd,
        f"diff {base}...HEAD",
    )


def file_at(
    commit: str, path: str, *, cwd: str | os.PathLike[str], max_bytes: int
) -> tuple[str, bytes | None]:
    """A file's blob at `commit`: ("ok", bytes), or (why not, None); symlinks are refused."""
    if not _is_revision(commit):
        return "no base commit", None
    listed = _try_git(["ls-tree", "-z", "--long", commit, "--", path], cwd)
    if listed is None:
        return "git is not available", None
    if listed.returncode != 0:
        return "the base commit is not in the checkout", None
    entry = listed.stdout.split(b"\0", 1)[0]
    if not entry:
        return "the base branch has no such file", None
    fields = entry.split(None, 4)
    mode, kind = fields[0], fields[1]
    if mode == b"120000":
        return "it is a symbolic link on the base branch (refused)", None
    if kind != b"blob":
        return "it is not a file on the base branch", None
    size = fields[3] if len(fields) > 3 else b"-"
    if size.isdigit() and int(size) > max_bytes:
        return f"it is larger than {max_bytes} bytes", None
    shown = _try_git(["cat-file", "blob", f"{commit}:{path}"], cwd)
    if shown is None:
        return "git is not available", None
    if shown.returncode != 0:
        return "git could not read it", None
    return "ok", shown.stdout


def changed_names(
    base: str | None, head: str | None, *, cwd: str | os.PathLike[str]
) -> tuple[list[str] | None, str]:
    """Files changed from `base` to `head` (renames: the new name), or (None, why not)."""
    for commit in (base, head):
        if not _is_revision(commit):
            return None, "the event names no base or head commit"
    done = _try_git(
        [
            *("-c", "core.quotePath=false", "diff", "--name-only", "-z"),
            *("--find-renames", "--no-ext-diff", f"{base}", f"{head}", "--"),
        ],
        cwd,
    )
    if done is None:
        return None, "git is not available"
    if done.returncode != 0:
        return None, "the base or head commit is not in the checkout (fetch-depth: 2 brings both)"
    names = done.stdout.decode("utf-8", "surrogateescape").split("\0")
    return [name for name in names if name], "ok"


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


def merge_base(ref: str, cwd: str | os.PathLike[str]) -> str | None:
    """The commit `git diff REF...HEAD` compares from (the merge-base), or None."""
    if not _is_revision(ref):
        return None
    return _line(["merge-base", ref, "HEAD"], cwd)


def toplevel(cwd: str | os.PathLike[str]) -> str | None:
    """The root of the git work tree holding `cwd`, or None (no git, no repository)."""
    done = _try_git(["rev-parse", "--show-toplevel"], cwd)
    if done is None or done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape").strip() or None


def unmerged_blobs(path: str | os.PathLike[str]) -> dict[int, bytes]:
    """Git's copies of a file in the middle of a merge: {1: base, 2: ours, 3: theirs}.

    Empty when the file is not unmerged (or there is no git or repository); a stage the merge
    lacks (no common ancestor) is left out.
    """
    where = os.path.dirname(os.path.abspath(path)) or "."
    name = os.path.basename(path)
    if not os.path.isdir(where):
        return {}
    listed = _try_git(["ls-files", "-u", "-z", "--", name], where)
    if listed is None or listed.returncode != 0:
        return {}
    blobs: dict[int, bytes] = {}
    for record in listed.stdout.split(b"\0"):
        info = record.split(b"\t", 1)[0].split()
        if len(info) != 3 or not info[2].isdigit():
            continue
        shown = _try_git(["cat-file", "blob", info[1].decode("ascii", "replace")], where)
        if shown is not None and shown.returncode == 0:
            blobs[int(info[2])] = shown.stdout
    return blobs


def stage(path: str | os.PathLike[str]) -> str | None:
    """`git add` one file in the repository holding it: None when staged, else why not."""
    where = os.path.dirname(os.path.abspath(path)) or "."
    done = _try_git(["add", "--", os.path.basename(path)], where)
    if done is None:
        return "git is not installed"
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return reason[0] if reason else f"git add exited {done.returncode}"
    return None


def set_config(key: str, value: str, *, cwd: str | os.PathLike[str]) -> None:
    """`git config key value` in the repository holding `cwd` (its own .git/config)."""
    done = _try_git(["config", key, value], cwd)
    if done is None:
        raise UsageError(f"git is not installed; run `git config {key} ...` where it is")
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {done.returncode}"
        raise UsageError(f"`git config {key}` failed in {cwd}: {detail}")


@dataclass(frozen=True)
class BaseLabel:
    """What a baseline is labelled with: a ref name, its commit, and how they were found."""

    ref: str
    commit: str
    how: str


def _line(args: Sequence[str], cwd: str | os.PathLike[str]) -> str | None:
    done = _try_git(args, cwd)
    if done is None or done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape").strip() or None


def _default_branch(cwd: str | os.PathLike[str]) -> str | None:
    """origin's HEAD (`origin/main`), else a local main or master, else None."""
    remote = _line(["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], cwd)
    if remote:
        return remote
    for name in ("main", "master"):
        if _line(["rev-parse", "--verify", "--quiet", f"refs/heads/{name}^{{commit}}"], cwd):
            return name
    return None


def base_label(base: str | None, cwd: str | os.PathLike[str]) -> BaseLabel:
    """The base a baseline stands for: `base` resolved, else HEAD's merge-base with the default."""
    require_repository(cwd, "baseline record")
    if base is not None:
        _check_revision(base)
        commit = _line(["rev-parse", "--verify", "--quiet", f"{base}^{{commit}}"], cwd)
        if commit is None:
            raise UsageError(f"--base {base!r} names no commit in {os.path.abspath(cwd)}")
        return BaseLabel(base, commit, f"--base {base}")
    default = _default_branch(cwd)
    if default is None:
        raise UsageError(
            "baseline record cannot tell what the base is: no origin/HEAD, main or master "
            "here; name it with --base REF (or label it yourself with --branch and --commit)"
        )
    commit = _line(["merge-base", "HEAD", default], cwd)
    if commit is None:
        raise UsageError(
            f"HEAD and {default} share no commit, so the base is unknown; name it with --base REF"
        )
    return BaseLabel(default, commit, f"the merge-base of HEAD and {default}")
