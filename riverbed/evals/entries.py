"""Turn an EvalRun into one `eval_result` entry in River Reviewer's shape (pure)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath
from typing import Any, Final

from riverbed.errors import InvalidExpiresAt, UsageError
from riverbed.evals.interface import MAX_ERRORS_PER_RESULT, MAX_STORED_RESULTS, EvalRun, tidy_number
from riverbed.index.dates import format_timestamp, parse_expires_at
from riverbed.index.ids import slug
from riverbed.index.jsonbytes import js_number
from riverbed.index.model import Context, Entry

DEFAULT_AUTHOR: Final = "riverbed-eval"
NO_COMMIT: Final = "unknown"
_ATTEMPT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
_NAIVE_DATE_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?")


@dataclass(frozen=True)
class RunIdentity:
    """What names a run in memory: suite, commit, branch and attempt (after overrides)."""

    suite: str
    commit: str
    branch: str | None
    attempt: str


def normalize_attempt(attempt: str | int | None) -> str:
    """`1` when not given; else 1–40 of `A-Z a-z 0-9 . _ -` (e.g. `3` or `4711-2`)."""
    if attempt is None:
        return "1"
    text = str(attempt)
    if isinstance(attempt, int) and attempt < 1:
        raise UsageError(f"{{attempt}} must be 1 or more, not {attempt}", field="attempt")
    if not _ATTEMPT.fullmatch(text):
        raise UsageError(
            f"{{attempt}} {text!r} is not a valid attempt: use a number such as 2, or a run "
            "token of letters, digits, '.', '_' and '-' (at most 40), such as 4711-2",
            field="attempt",
        )
    return text


def identify(
    run: EvalRun,
    *,
    suite: str | None = None,
    commit: str | None = None,
    branch: str | None = None,
    attempt: str | int | None = None,
) -> RunIdentity:
    """The run's identity: explicit values win, then the file's own, then defaults."""
    name = (suite or run.suite or PurePath(run.path).stem or "eval").strip()
    return RunIdentity(
        suite=name,
        commit=(commit or run.commit or NO_COMMIT).strip(),
        branch=branch or run.branch,
        attempt=normalize_attempt(attempt),
    )


def eval_entry_id(identity: RunIdentity) -> str:
    """`eval-{suite}-{commit[:12]}-{attempt}-{hash}`: the same run always gets the same id."""
    key = "\x00".join((identity.suite, identity.commit, identity.attempt)).encode("utf-8")
    digest = hashlib.sha256(key).hexdigest()[:6]
    commit = slug(identity.commit, words=1, max_len=12) or "x"
    attempt = slug(identity.attempt, words=4, max_len=20) or "x"
    return "-".join(p for p in ("eval", slug(identity.suite), commit, attempt, digest) if p)


def run_moment(run: EvalRun, now: datetime) -> tuple[datetime, str | None]:
    """When the run happened (its own timestamp), else `now`; plus a note when not exact."""
    if run.timestamp is None:
        return now, "the file states no run timestamp; createdAt is the time of persisting"
    try:
        return parse_expires_at(run.timestamp), None
    except InvalidExpiresAt:
        pass
    if _NAIVE_DATE_TIME.fullmatch(run.timestamp):
        # jest-junit writes UTC without an offset; older pytest writes local time the same way.
        return parse_expires_at(run.timestamp + "Z"), (
            f"run timestamp {run.timestamp!r} has no offset; read as UTC"
        )
    return now, f"run timestamp {run.timestamp!r} is not RFC 3339; createdAt is the persist time"


def compact_json(value: Any) -> str:
    """`JSON.stringify(value)` (no spaces; numbers as JavaScript writes them)."""
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, dict):
        items = (f"{json.dumps(k, ensure_ascii=False)}:{compact_json(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(compact_json(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _envelope(run: EvalRun, identity: RunIdentity, timestamp: str) -> dict[str, Any]:
    """River Reviewer's envelope shape for a run read from another tool."""
    results = [
        {"name": c.id, "pass": c.passed, "errors": list(c.errors[:MAX_ERRORS_PER_RESULT])}
        for c in run.cases[:MAX_STORED_RESULTS]
    ]
    envelope: dict[str, Any] = {
        "version": run.tool_version,
        "timestamp": timestamp,
        "commit": identity.commit,
        "branch": identity.branch,
        "scores": {k: tidy_number(v) for k, v in run.scores.items()},
        "results": results,
        "status": run.status,
        "description": run.description,
        "suite": identity.suite,
        "source": run.source,
    }
    if len(run.cases) > MAX_STORED_RESULTS:
        envelope["resultsOmitted"] = len(run.cases) - MAX_STORED_RESULTS
    return {k: v for k, v in envelope.items() if v is not None}


def eval_context(run: EvalRun, identity: RunIdentity) -> Context:
    """The structured context of an eval entry: what compare and history read."""
    ctx: Context = {"suite": identity.suite, "commit": identity.commit}
    if identity.branch:
        ctx["branch"] = identity.branch
    ctx["attempt"] = identity.attempt
    ctx["status"] = run.status
    ctx["source"] = run.source
    ctx["scores"] = {k: tidy_number(v) for k, v in run.scores.items()}
    ctx["counts"] = run.counts.as_dict()
    if run.tool_version:
        ctx["toolVersion"] = run.tool_version
    if run.extra:
        ctx["details"] = dict(run.extra)
    return ctx


def summary_line(run: EvalRun) -> str:
    """`fail: 4 metrics, 2/3 passed` (River Reviewer's `status: N metrics`, plus the cases)."""
    line = f"{run.status}: {len(run.scores)} metric{'s' if len(run.scores) != 1 else ''}"
    counts = run.counts
    if counts.total:
        line += f", {counts.passed}/{counts.total - counts.skipped} passed"
    return line


def build_eval_entry(
    run: EvalRun, identity: RunIdentity, *, now: datetime, author: str = DEFAULT_AUTHOR
) -> tuple[Entry, tuple[str, ...]]:
    """The `eval_result` entry for one run, and the notes about how it was built."""
    moment, note = run_moment(run, now)
    if run.envelope is not None:
        # River Reviewer's own envelope is kept exactly as its tool wrote it.
        content = compact_json(dict(run.envelope))
    else:
        content = compact_json(_envelope(run, identity, format_timestamp(moment)))
    entry: Entry = {
        "id": eval_entry_id(identity),
        "type": "eval_result",
        "title": f"Eval run {identity.suite} @ {identity.commit[:12]}",
        "content": content,
        "metadata": {
            "createdAt": format_timestamp(moment),
            "author": author,
            "tags": ["eval", run.status],
            "summary": summary_line(run),
        },
        "context": eval_context(run, identity),
    }
    return entry, run.notes + ((note,) if note else ())
