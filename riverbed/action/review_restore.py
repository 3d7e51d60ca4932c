"""Review mode's memory: the trusted artifact, else the base branch's index, never the PR's own."""

from __future__ import annotations

from typing import Any

from riverbed.action.context import ActionContext
from riverbed.action.restore import Restored, TrustCheck, restore_artifact
from riverbed.errors import CorruptIndexError
from riverbed.gitio import file_at
from riverbed.index.model import empty_index
from riverbed.index.storage import parse_index_bytes


def base_commit(event: dict[str, Any]) -> str | None:
    """The pull request's base commit from the event payload (None when it names none)."""
    pull = event.get("pull_request")
    base = pull.get("base") if isinstance(pull, dict) else None
    sha = base.get("sha") if isinstance(base, dict) else None
    return sha if isinstance(sha, str) and sha else None


def restore_for_review(context: ActionContext, check: TrustCheck) -> Restored:
    """Artifact, else `git show BASE:index-path`, else empty; the workspace copy is the PR's."""
    config = context.config
    notes: list[str] = []
    restored = restore_artifact(context, check, notes)
    if restored is not None:
        return restored
    # The workspace holds the pull request's checkout: its index is the pull request's to
    # edit, so it could suppress its own findings. Only the base branch's copy is trusted.
    where = config.index_input
    base = base_commit(context.event())
    if base is None:
        why = "the event names no base commit"
    else:
        why, data = file_at(
            base, where, cwd=config.workspace, max_bytes=config.zip_limits.max_uncompressed_bytes
        )
        if data is not None:
            try:
                index = parse_index_bytes(data, f"{where} at the base commit")
            except CorruptIndexError:
                # Never quote the file: the problem text can carry its contents.
                why = "it is not a valid riverbed index"
            else:
                notes.append(f"no trusted artifact; using {where} from the base commit {base[:12]}")
                return Restored(index, "base", notes=tuple(notes))
    notes.append(
        f"no trusted artifact and no usable {where} on the base branch ({why}); starting "
        "empty (the pull request's own copy is never used)"
    )
    return Restored(empty_index(), "empty", notes=tuple(notes))
