"""The head commit's text of the files the tools' fixes edit (review mode's read for them).

A fix's positions are those of the file the tool read: the checkout. GitHub applies a
suggested change to the pull request's head commit. So a file's text is used only when the
checkout's file is the head commit's, byte for byte (git's blob when the checkout holds the
head commit, else the contents API); otherwise the fix is shown as a diff, and the reason said.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient
from riverbed.github.contents import read_repository_file
from riverbed.gitio import file_at
from riverbed.memory.evidence import MAX_FILE_BYTES, EvidenceCheck, read_workspace_text
from riverbed.pr_review.suggest import FileText

#: At most this many files are read for one review's fixes (each at most MAX_FILE_BYTES).
MAX_FIX_FILES = 100


def _head_blob(
    client: GitHubClient, workspace: Path, path: str, head_sha: str
) -> tuple[bytes | None, str]:
    """The file at the head commit from git, else from GitHub; (None, why) when neither has it."""
    why, data = file_at(head_sha, path, cwd=workspace, max_bytes=MAX_FILE_BYTES)
    if data is not None:
        return data, ""
    try:
        found = read_repository_file(client, path, head_sha, max_bytes=MAX_FILE_BYTES)
    except GitHubError as exc:
        return None, f"git: {why}; GitHub: {exc}"
    if found is None:
        return None, "the head commit has no such file"
    return found, ""


def head_text(client: GitHubClient, workspace: Path, path: str, head_sha: str | None) -> FileText:
    """The file's text when the checkout's copy is the head commit's; else why not."""
    if head_sha is None:
        return FileText(None, "the event names no head commit")
    local = read_workspace_text(workspace, path)
    if isinstance(local, EvidenceCheck):
        return FileText(None, local.detail)
    blob, why = _head_blob(client, workspace, path, head_sha)
    if blob is None:
        return FileText(None, why)
    if blob != local.encode("utf-8"):
        return FileText(
            None,
            f"the checkout's {path} is not the head commit's ({head_sha[:12]}), which the "
            "tool's positions would not fit",
        )
    return FileText(local)


def head_texts(
    client: GitHubClient, workspace: Path, paths: Sequence[str], head_sha: str | None
) -> tuple[dict[str, FileText], str | None]:
    """`head_text` of each path (the first MAX_FIX_FILES), and a note when some were not read."""
    texts = {path: head_text(client, workspace, path, head_sha) for path in paths[:MAX_FIX_FILES]}
    skipped = paths[MAX_FIX_FILES:]
    for path in skipped:
        texts[path] = FileText(None, f"over the {MAX_FIX_FILES} files read for fixes")
    note = (
        f"Fixes: {len(skipped)} files were not read (at most {MAX_FIX_FILES} a review); "
        "their fixes are shown as diffs"
        if skipped
        else None
    )
    return texts, note
