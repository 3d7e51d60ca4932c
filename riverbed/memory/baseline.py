"""Baselines: the base's finding fingerprints, from a findings file or kept in memory (pure)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from riverbed.findings.interface import Finding
from riverbed.findings.line_hash import LINE_KEY_ALGO, keys_by_line
from riverbed.findings.match_key import MATCH_KEY_ALGO, key_counts, match_key
from riverbed.index.dates import expiry_status, format_timestamp
from riverbed.index.model import Context, Entry, Index, context, is_active, metadata
from riverbed.memory.globs import normalize_path

#: The tag and `context.kind` that mark a baseline entry (an ordinary `review` entry in v1).
BASELINE_TAG = "riverbed-baseline"
BASELINE_KIND = "findings-baseline"
#: A recorded baseline older than this no longer applies (a stale base hides new findings).
BASELINE_LIFETIME = timedelta(days=90)


@dataclass(frozen=True)
class Baseline:
    """The v1 fingerprints of the base's findings, and where they came from."""

    fingerprints: frozenset[str]
    source: str
    findings: int = 0
    #: Match key → how many of the base's findings have it (empty: an older baseline, which
    #: matches by fingerprint presence and cannot count copies).
    keys: Mapping[str, int] = field(default_factory=dict)
    #: Tool name → (its version when the base was read, how many findings it reported).
    tools: Mapping[str, tuple[str | None, int]] = field(default_factory=dict)
    #: Match key → (rule, path) of the base's findings: what a change that removes them fixed.
    where: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: Line-hash key → count (findings/line_hash.py), when every base finding's source line
    #: was at hand; empty otherwise (the review then matches on `keys`).
    line_keys: Mapping[str, int] = field(default_factory=dict)


def tool_versions(findings: Sequence[Finding]) -> dict[str, tuple[str | None, int]]:
    """Each tool's version (as its output states it) and how many findings it reported."""
    out: dict[str, tuple[str | None, int]] = {}
    for finding in findings:
        version, count = out.get(finding.tool, (finding.tool_version, 0))
        out[finding.tool] = (version or finding.tool_version, count + 1)
    return out


def baseline_from_findings(
    findings: Sequence[Finding], source: str, texts: Sequence[str | None] | None = None
) -> Baseline:
    """The baseline of a findings file (SARIF, River or rdjson, read as --findings); `texts`
    are the base's source lines of the findings, when the base's files are at hand."""
    prints = frozenset(f.fingerprint for f in findings)
    keys = dict(key_counts(findings))
    return Baseline(
        prints,
        source,
        len(findings),
        keys,
        tool_versions(findings),
        key_where(findings),
        line_key_counts(findings, texts),
    )


def line_key_counts(
    findings: Sequence[Finding], texts: Sequence[str | None] | None
) -> dict[str, int]:
    """The base's line-hash multiset, or {} when some finding's line is not at hand."""
    if texts is None or not findings:
        return {}
    paths = [normalize_path(f.file) if f.file else None for f in findings]
    keyed = keys_by_line(findings, texts, paths)
    return {} if keyed is None else dict(sorted(Counter(k for k, _ in keyed).items()))


def key_where(findings: Sequence[Finding]) -> dict[str, tuple[str, str]]:
    """Match key → the rule and file of the findings that have it."""
    return {
        match_key(f): (f.rule_id or "unknown", normalize_path(f.file) if f.file else "")
        for f in findings
    }


def is_baseline_entry(entry: Entry) -> bool:
    """True for the entry a baseline is kept in."""
    return entry.get("type") == "review" and context(entry).get("kind") == BASELINE_KIND


def baseline_entry(
    findings: Sequence[Finding],
    *,
    now: datetime,
    author: str,
    branch: str | None = None,
    commit: str | None = None,
    texts: Sequence[str | None] | None = None,
) -> Entry:
    """A `review` entry holding the findings' fingerprints, valid under River Reviewer's v1
    (and their line-hash keys when `texts`, the base's source lines, are all at hand)."""
    fingerprints = sorted({f.fingerprint for f in findings})
    keys = dict(sorted(key_counts(findings).items()))
    counted = "\n".join([*fingerprints, *(f"{k}={n}" for k, n in keys.items())])
    digest = hashlib.sha256(counted.encode()).hexdigest()[:12]
    where = f" of {branch}" if branch else ""
    at = f" at {commit[:12]}" if commit else ""
    ctx: Context = {
        "kind": BASELINE_KIND,
        "fingerprintAlgo": "v1",
        "digest": digest,
        "fingerprints": fingerprints,
        "findings": len(findings),
        "matchKeyAlgo": MATCH_KEY_ALGO,
        "matchKeys": keys,
        "matchKeyWhere": {k: list(v) for k, v in sorted(key_where(findings).items())},
        "tools": {
            name: {"findings": n, **({"version": v} if v else {})}
            for name, (v, n) in sorted(tool_versions(findings).items())
        },
    }
    if line_keys := line_key_counts(findings, texts):
        ctx["lineKeyAlgo"] = LINE_KEY_ALGO
        ctx["lineKeys"] = line_keys
    if branch:
        ctx["branch"] = branch
    if commit:
        ctx["commit"] = commit
    return {
        "id": f"baseline-{digest}-{now.strftime('%Y%m%d%H%M%S')}",
        "type": "review",
        "title": f"Findings baseline{where}{at}",
        "content": (
            f"{len(fingerprints)} distinct finding fingerprints{where}{at}, recorded so that "
            "reviews report only findings the base does not have (riverbed --baseline memory)."
        ),
        "metadata": {
            "createdAt": format_timestamp(now),
            "author": author,
            "tags": [BASELINE_TAG],
        },
        "context": ctx,
        "expiresAt": format_timestamp(now + BASELINE_LIFETIME),
    }


def same_baseline(entry: Entry, other: Entry) -> bool:
    """True when two baseline entries hold the same fingerprints (by digest)."""
    digest = context(entry).get("digest")
    return isinstance(digest, str) and digest == context(other).get("digest")


def retired(entry: Entry) -> Entry:
    """A superseded baseline without its lists (fingerprints, match keys and where each key
    was found): the index keeps a small stub."""
    ctx = context(entry).copy()
    values = ctx.pop("fingerprints", None)
    ctx.pop("matchKeys", None)
    ctx.pop("matchKeyWhere", None)
    ctx.pop("lineKeys", None)
    ctx["fingerprintsDropped"] = len(values) if isinstance(values, list) else 0
    return {**entry, "context": ctx}


def current_baselines(index: Index, now: datetime) -> list[Entry]:
    """Active, unexpired baseline entries, newest first."""
    found = [
        e
        for e in index.get("entries", [])
        if is_baseline_entry(e) and is_active(e) and not expiry_status(e, now)[0]
    ]
    return sorted(found, key=lambda e: str(metadata(e).get("createdAt", "")), reverse=True)


def baseline_from_memory(index: Index, now: datetime) -> Baseline | None:
    """The newest baseline kept in memory, or None when there is none (or it expired)."""
    entries = current_baselines(index, now)
    if not entries:
        return None
    entry = entries[0]
    values = context(entry).get("fingerprints")
    prints: Iterable[object] = values if isinstance(values, list) else ()
    count = context(entry).get("findings")
    stored = context(entry).get("matchKeys")
    keys: dict[str, int] = {}
    if context(entry).get("matchKeyAlgo") == MATCH_KEY_ALGO and isinstance(stored, dict):
        keys = _counts(stored)
    lines = context(entry).get("lineKeys")
    line_keys: dict[str, int] = {}
    if context(entry).get("lineKeyAlgo") == LINE_KEY_ALGO and isinstance(lines, dict):
        line_keys = _counts(lines)
    return Baseline(
        frozenset(p for p in prints if isinstance(p, str)),
        f"memory entry {entry.get('id')}",
        count if isinstance(count, int) else 0,
        keys,
        _stored_tools(context(entry).get("tools")),
        _stored_where(context(entry).get("matchKeyWhere"), keys),
        line_keys,
    )


def _counts(stored: Mapping[Any, Any]) -> dict[str, int]:
    """Stored key → count pairs (tolerant: anything malformed is left out)."""
    return {k: n for k, n in stored.items() if isinstance(k, str) and type(n) is int and n > 0}


def _stored_where(value: object, keys: Mapping[str, int]) -> dict[str, tuple[str, str]]:
    """The `matchKeyWhere` a baseline entry recorded, for its keys (malformed pairs left out)."""
    if not isinstance(value, dict):
        return {}
    return {
        k: (v[0], v[1])
        for k, v in value.items()
        if k in keys and isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)
    }


def _stored_tools(value: object) -> dict[str, tuple[str | None, int]]:
    """The `tools` a baseline entry recorded (tolerant: anything malformed is left out)."""
    out: dict[str, tuple[str | None, int]] = {}
    if isinstance(value, dict):
        for name, item in value.items():
            if isinstance(name, str) and isinstance(item, dict):
                version, count = item.get("version"), item.get("findings")
                if type(count) is int and (version is None or isinstance(version, str)):
                    out[name] = (version, count)
    return out
