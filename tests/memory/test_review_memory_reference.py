"""`load_review_memory`'s one-pass loop against a check-by-check reference built from helpers."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import NOW

from riverbed import load_review_memory
from riverbed.index.dates import expiry_status
from riverbed.index.model import Entry, entry_phase, is_active
from riverbed.memory.select import ChangedFiles, matches_files, revoked_ids


def reference(
    index: dict[str, Any], phase: str | None, changed: Iterable[str] | None, now: datetime
) -> tuple[list[Entry], dict[str, int], list[str]]:
    """DESIGN's rule spelled as one helper per check, in the documented order."""
    revoked = revoked_ids(index)
    files = None if changed is None else ChangedFiles(changed)
    kept: list[Entry] = []
    warnings: list[str] = []
    counts = dict.fromkeys(("inactive", "expired", "revoked", "phase", "files"), 0)
    for entry in index["entries"]:
        if not is_active(entry):
            counts["inactive"] += 1
            continue
        expired, warning = expiry_status(entry, now)
        if warning:
            warnings.append(warning)
        own = entry_phase(entry)
        if expired:
            counts["expired"] += 1
        elif entry.get("id") in revoked:
            counts["revoked"] += 1
        elif (
            phase is not None
            and own != phase
            and not (own is None and entry.get("type") == "suppression")
        ):
            counts["phase"] += 1
        elif not matches_files(entry, files):
            counts["files"] += 1
        else:
            kept.append(entry)
    return kept, {k: v for k, v in counts.items() if v}, warnings


PATHS = ["src/a.py", "src/auth/b.py", "lib/c.py", "docs/d.md", "./src/a.py", "src\\auth\\b.py"]
GLOBS = ["src/**", "**/*.py", "docs/?.md", "lib/*", "src/auth/**", "*.md"]
EXPIRIES = [None, "2026-01-01", "2027-01-01", "2026-06-01T12:00:00Z", "soon", "2026-02-30", 7]
# JSON values a hand-edited (unvalidated) index may hold where a string is expected.
ODD = st.sampled_from([None, 3, True, [], {}, "", "active"])


@st.composite
def entries(draw: st.DrawFn) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["pattern", "suppression", "wontfix", "resurface", "review"]))
        entry: dict[str, Any] = {"id": f"e{n}", "type": kind, "content": "c"}
        meta: dict[str, Any] = {"createdAt": "2026-01-01T00:00:00Z", "author": "t"}
        phase = draw(st.sampled_from([None, "upstream", "midstream", "downstream", 5]))
        if phase is not None:
            meta["phase"] = phase
        related = draw(
            st.one_of(
                st.lists(st.sampled_from([*PATHS, *GLOBS]), max_size=3),
                st.lists(st.one_of(st.sampled_from(PATHS), ODD), max_size=2),
                ODD,
            )
        )
        if related != []:
            meta["relatedFiles"] = related
        entry["metadata"] = draw(st.sampled_from([meta, meta, meta, None]))
        status = draw(st.sampled_from([None, "active", "superseded", "archived", 1]))
        if status is not None or draw(st.booleans()):
            entry["status"] = status
        expiry = draw(st.sampled_from(EXPIRIES))
        ctx: dict[str, Any] = {}
        if kind == "suppression":
            ctx = {"scope": draw(st.sampled_from(["file", "subsystem", "global", None]))}
            ctx["active"] = draw(st.booleans())
        if kind == "resurface":
            ctx = {"action": draw(st.sampled_from(["revoke", "note"]))}
            ctx["suppressionId"] = f"e{draw(st.integers(0, 14))}"
        if expiry is not None:
            where = draw(st.sampled_from(["entry", "context", "both"]))
            if where != "context":
                entry["expiresAt"] = expiry
            if where != "entry":
                ctx["expiresAt"] = draw(st.sampled_from(EXPIRIES))
        if ctx or draw(st.booleans()):
            entry["context"] = draw(st.sampled_from([ctx, ctx, "not an object"]))
        out.append(entry)
    return out


@settings(max_examples=400, deadline=None)
@given(
    entries(),
    st.sampled_from([None, "upstream", "midstream", "downstream"]),
    st.one_of(st.none(), st.lists(st.sampled_from(PATHS), max_size=3)),
)
def test_property_same_as_the_reference(
    drawn: list[dict[str, Any]], phase: str | None, changed: list[str] | None
) -> None:
    index = {"version": "1", "entries": drawn}
    memory = load_review_memory(index, phase=phase, changed_files=changed, now=NOW)
    kept, excluded, warnings = reference(index, phase, changed, NOW)
    assert [id(e) for e in memory.entries] == [id(e) for e in kept]
    assert dict(memory.excluded) == excluded
    assert list(memory.warnings) == warnings
