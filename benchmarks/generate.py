"""Deterministic, realistic indexes and findings for the benchmarks."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from riverbed.index.model import Entry, Index

TYPES = (
    ("pattern", 20),
    ("decision", 12),
    ("adr", 5),
    ("wontfix", 10),
    ("review", 18),
    ("suppression", 25),
    ("eval_result", 5),
    ("resurface", 5),
)
PHASES = ("upstream", "midstream", "downstream")
AREAS = ("api", "web", "billing", "auth", "search", "infra", "reporting", "mobile")
RULES = tuple(f"rule-{n:03d}" for n in range(200))
WORDS = (
    "retry",
    "cache",
    "token",
    "session",
    "query",
    "handler",
    "render",
    "schema",
    "migration",
    "timeout",
    "logging",
    "pagination",
    "webhook",
    "payload",
    "tenant",
    "invoice",
    "locale",
    "feature",
    "flag",
    "audit",
    "index",
)
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()


def file_path(rng: random.Random) -> str:
    """A plausible repository path."""
    area = rng.choice(AREAS)
    return f"src/{area}/{rng.choice(WORDS)}_{rng.randrange(400)}.py"


def fingerprint_for(rule: str, path: str, n: int) -> str:
    """A stable 16-hex value standing in for a finding's fingerprint."""
    return hashlib.sha256(f"{rule}::{path}::{n}".encode()).hexdigest()[:16]


def make_entry(rng: random.Random, n: int) -> dict[str, Any]:
    """One entry of a realistic mix (about 600 bytes serialized)."""
    entry_type = rng.choices([t for t, _ in TYPES], weights=[w for _, w in TYPES])[0]
    created = EPOCH + timedelta(minutes=37 * n + rng.randrange(30))
    files = sorted({file_path(rng) for _ in range(rng.randrange(1, 3))})
    if rng.random() < 0.2:
        files.append(f"src/{rng.choice(AREAS)}/**")
    meta: dict[str, Any] = {
        "createdAt": created.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        "author": rng.choice(("alice", "bob", "carol", "river-bot", "dave")),
        "tags": sorted({rng.choice(WORDS) for _ in range(rng.randrange(1, 4))}),
        "relatedFiles": files,
        "summary": _sentence(rng, 5),
    }
    if entry_type != "suppression" or rng.random() < 0.7:
        meta["phase"] = rng.choice(PHASES)
    entry: dict[str, Any] = {
        "id": f"{entry_type.replace('_', '-')}-{n:06d}",
        "type": entry_type,
        "title": _sentence(rng, 6),
        "content": _sentence(rng, rng.randrange(10, 22)) + ".",
        "metadata": meta,
    }
    if entry_type == "suppression":
        rule = rng.choice(RULES)
        entry["context"] = {
            "active": True,
            "scope": rng.choice(("file", "file", "subsystem", "global")),
            "feedbackType": rng.choice(("false_positive", "accepted_risk", "wont_fix")),
            "fingerprint": fingerprint_for(rule, files[0], n),
            "fingerprintAlgo": "v1",
            "severity": rng.choice(("info", "minor", "major")),
            "ruleId": rule,
        }
    elif entry_type == "resurface":
        entry["context"] = {"suppressionId": f"suppression-{rng.randrange(max(n, 1)):06d}"}
    if rng.random() < 0.3:
        expiry = created + timedelta(days=rng.randrange(30, 900))
        entry["expiresAt"] = expiry.strftime("%Y-%m-%d")
    if rng.random() < 0.08:
        entry["status"] = rng.choice(("superseded", "archived"))
        if entry["status"] == "superseded":
            entry["supersededBy"] = f"decision-{rng.randrange(max(n, 1)):06d}"
    return entry


def make_index(size: int, seed: int = 20261130) -> Index:
    """An index of `size` entries, the same for the same seed."""
    rng = random.Random(seed)
    entries = [make_entry(rng, n) for n in range(size)]
    return cast(Index, {"version": "1", "entries": entries})


def new_entries(count: int, start: int, seed: int = 7) -> list[Entry]:
    """Fresh entries (ids not in a generated index) to append."""
    rng = random.Random(seed)
    out: list[Entry] = []
    for n in range(count):
        entry = make_entry(rng, start + n)
        entry["id"] = f"bench-new-{start + n:07d}"
        entry.pop("status", None)
        entry.pop("supersededBy", None)
        out.append(cast(Entry, entry))
    return out
