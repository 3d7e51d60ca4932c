"""Side by side with River Reviewer's `analyzeSuppressions` (node), on the same indexes.

Skipped when node or the reference (`../shared`, beside the repository or its worktree
folder) is absent. The reference reads entries as its own `createSuppression` writes them,
so the generated histories use that shape: no status, no revocations (riverbed's stricter
definition of "in effect" would differ there by design; see docs/LEARNING.md).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from histories import days_before, index_of, reference_suppression, revocation

from riverbed.memory.learning.analysis import analyze_memory

ROOT = Path(__file__).resolve().parents[3]
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _reference_js() -> Path | None:
    for base in (ROOT.parent, ROOT.parent.parent):
        js = base / "shared" / "reference" / "river-reviewer-v1" / "js"
        if (js / "suppression-analytics.mjs").is_file():
            return js
    return None


JS = _reference_js()
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    JS is None or NODE is None,
    reason="needs node and ../shared/reference/river-reviewer-v1/js (not in a fresh clone)",
)

_SCRIPT = """
const { analyzeSuppressions } = await import(process.env.REFERENCE_MODULE);
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const cases = JSON.parse(raw);
const out = cases.map((c) => analyzeSuppressions(c.entries, { now: new Date(c.now) }));
process.stdout.write(JSON.stringify(out));
"""


def _reference(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    assert JS is not None and NODE is not None
    module = (JS / "suppression-analytics.mjs").as_uri()
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", _SCRIPT],
        env={**os.environ, "REFERENCE_MODULE": module},
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def _history(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    fingerprints = [f"{n:016x}" for n in rng.sample(range(1, 50), 4)]
    entries = []
    for i in range(rng.randint(0, 30)):
        expires = rng.choice([None, None, "2026-06-01T00:00:00.000Z", "2027-06-01T00:00:00.000Z"])
        entries.append(
            reference_suppression(
                f"suppression-{i}",
                fingerprint=rng.choice(fingerprints),
                pr=rng.choice([None, *range(1, 9)]),
                severity=rng.choice([None, "minor", "major", "critical"]),
                feedback_type="accepted_risk",
                created=days_before(NOW, rng.randint(0, 60)),
                files=("src/app.py",),
                context_expires=expires,
            )
        )
    return entries


def _ours(entries: list[dict[str, Any]]) -> dict[str, Any]:
    insights = analyze_memory(index_of(*entries), now=NOW)
    return {
        "active": insights.active_suppressions,
        "repeated": sorted(
            (c.key, c.weight, list(c.prs), sorted(c.severities))
            for c in insights.clusters
            if c.kind == "fingerprint"
        ),
    }


def _theirs(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "active": result["active"],
        "repeated": sorted(
            (r["fingerprint"], r["prCount"], r["prs"], sorted(r["severities"]))
            for r in result["repeatedFingerprints"]
        ),
    }


def test_repeated_fingerprints_match_the_reference_on_generated_histories() -> None:
    histories = [_history(seed) for seed in range(60)]
    reference = _reference([{"now": NOW.isoformat(), "entries": h} for h in histories])
    compared = 0
    for entries, result in zip(histories, reference, strict=True):
        assert _ours(entries) == _theirs(result)
        compared += bool(result["repeatedFingerprints"])
    assert compared >= 10  # the generator really produces clusters, not only empty answers


def test_staleness_differs_by_design_the_reference_reads_a_top_level_created_at() -> None:
    old = reference_suppression(
        "suppression-old",
        fingerprint="00000000000000aa",
        severity="critical",
        feedback_type="accepted_risk",
        created=days_before(NOW, 40),
    )
    (result,) = _reference([{"now": NOW.isoformat(), "entries": [old]}])
    assert result["staleHighSeverity"] == []  # its own entries carry metadata.createdAt only
    (stale,) = analyze_memory(index_of(old), now=NOW).stale
    assert (stale.id, stale.age_days) == ("suppression-old", 40)


def test_revoked_suppressions_still_count_for_the_reference_but_not_for_riverbed() -> None:
    entries = [
        reference_suppression(f"s{pr}", fingerprint="00000000000000bb", pr=pr) for pr in (1, 2, 3)
    ]
    revoke = revocation("resurface-s1", "s1", "revoked")
    (result,) = _reference([{"now": NOW.isoformat(), "entries": [*entries, revoke]}])
    assert [r["prCount"] for r in result["repeatedFingerprints"]] == [3]
    assert analyze_memory(index_of(*entries, revoke), now=NOW).clusters == ()
