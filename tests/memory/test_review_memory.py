"""DESIGN's review-memory rule: active, unexpired, unrevoked, phase, relatedFiles, scope."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from review_helpers import NOW, make_entry

from riverbed import find_active_suppressions, load_review_memory, should_resurface
from riverbed.memory.select import revoked_ids, scope_matches, subsystem


def index(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"version": "1", "entries": list(entries)}


def ids(entries: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> list[str]:
    return [e["id"] for e in entries]


def revoke(entry_id: str, target: str, **fields: Any) -> dict[str, Any]:
    return make_entry(
        entry_id, "resurface", context={"action": "revoke", "suppressionId": target}, **fields
    )


def test_status_expiry_and_revocation() -> None:
    idx = index(
        make_entry("a"),
        make_entry("sup", "superseded", status="superseded"),
        make_entry("arc", status="archived"),
        make_entry("old", expires="2026-05-01"),
        make_entry(
            "ctx-old",
            "suppression",
            context={"scope": "file", "active": True, "expiresAt": "2026-06-01T12:00:00Z"},
        ),
        make_entry("later", expires="2026-06-02"),
        make_entry("s1", "suppression"),
        revoke("rev", "s1"),
    )
    memory = load_review_memory(idx, now=NOW)
    assert ids(memory.entries) == ["a", "later", "rev"]
    assert memory.excluded == {"inactive": 2, "expired": 2, "revoked": 1}


def test_revocation_survives_supersession_of_the_revoking_entry() -> None:
    idx = index(
        make_entry("s1", "suppression"),
        revoke("rev", "s1", status="superseded"),
        make_entry("r2", "review"),
    )
    assert revoked_ids(idx) == {"s1"}
    assert ids(load_review_memory(idx, now=NOW).entries) == ["r2"]


def test_unparseable_expiry_is_kept_with_a_warning() -> None:
    memory = load_review_memory(index(make_entry("odd", expires="next tuesday")), now=NOW)
    assert ids(memory.entries) == ["odd"]
    assert "'odd'" in memory.warnings[0] and "next tuesday" in memory.warnings[0]


def test_phase_rule_phaseless_suppressions_apply_everywhere() -> None:
    idx = index(
        make_entry("mid", phase="midstream"),
        make_entry("up", phase="upstream"),
        make_entry("none"),
        make_entry("s-none", "suppression"),
        make_entry("s-up", "suppression", phase="upstream"),
    )
    assert ids(load_review_memory(idx, phase="midstream", now=NOW).entries) == ["mid", "s-none"]
    assert ids(load_review_memory(idx, now=NOW).entries) == ["mid", "up", "none", "s-none", "s-up"]


def test_related_files_exact_and_glob() -> None:
    idx = index(
        make_entry("exact", files=["src/a.py"]),
        make_entry("glob", files=["src/**/*.py"]),
        make_entry("q", files=["docs/?.md"]),
        make_entry("free"),
    )
    memory = load_review_memory(idx, changed_files=["./src/a.py"], now=NOW)
    assert ids(memory.entries) == ["exact", "glob", "free"]
    assert ids(load_review_memory(idx, changed_files=["docs/x.md"], now=NOW).entries) == [
        "q",
        "free",
    ]
    assert ids(load_review_memory(idx, changed_files=(), now=NOW).entries) == ["free"]
    assert ids(load_review_memory(idx, changed_files=None, now=NOW).entries) == [
        "exact",
        "glob",
        "q",
        "free",
    ]
    assert load_review_memory(idx, changed_files=[], now=NOW).excluded == {"files": 3}


def test_scopes() -> None:
    assert subsystem("src/auth/login.ts") == "auth"
    assert subsystem("lib/auth/login.ts") == "lib"
    assert subsystem("README.md") == "README.md"
    assert scope_matches("subsystem", "src/auth/login.ts", "src/auth/oauth.ts")
    assert not scope_matches("subsystem", "src/auth/login.ts", "src/billing/pay.ts")
    assert not scope_matches("file", "src/auth/login.ts", "src/auth/oauth.ts")
    assert scope_matches("global", "src/auth/login.ts", "anything/else")
    sub = make_entry(
        "sub",
        "suppression",
        files=["src/auth/login.ts"],
        context={"scope": "subsystem", "active": True},
    )
    glob = make_entry(
        "glob",
        "suppression",
        files=["src/auth/login.ts"],
        context={"scope": "global", "active": True},
    )
    pattern = make_entry("pat", files=["src/auth/login.ts"])  # scope is a suppression notion only
    idx = index(sub, glob, pattern)
    assert ids(load_review_memory(idx, changed_files=["src/auth/oauth.ts"], now=NOW).entries) == [
        "sub",
        "glob",
    ]
    assert ids(load_review_memory(idx, changed_files=[], now=NOW).entries) == ["glob"]


def test_find_active_suppressions() -> None:
    idx = index(
        make_entry("on", "suppression"),
        make_entry("off", "suppression", context={"scope": "file", "active": False}),
        make_entry("gone", "suppression"),
        revoke("rev", "gone"),
        make_entry("wf", "wontfix"),
        make_entry("upstream-only", "suppression", phase="upstream"),
    )
    assert ids(find_active_suppressions(idx, [], now=NOW)) == ["on", "upstream-only"]
    assert ids(find_active_suppressions(idx, [], now=NOW, phase="midstream")) == ["on"]


def test_should_resurface() -> None:
    sup = make_entry("s", "suppression", files=["src/auth.ts", "lib/**"])
    assert should_resurface(sup, ["src/auth.ts"], now=NOW)
    assert should_resurface(sup, ["lib/x/y.js"], now=NOW)
    assert not should_resurface(sup, ["src/other.ts"], now=NOW)
    assert not should_resurface(make_entry("n", "suppression"), ["src/auth.ts"], now=NOW)
    expired = make_entry("e", "suppression", files=["src/auth.ts"], expires="2026-01-01")
    assert not should_resurface(expired, ["src/auth.ts"], now=NOW)
    archived = make_entry("a", "suppression", files=["src/auth.ts"], status="archived")
    assert not should_resurface(archived, ["src/auth.ts"], now=NOW)
    wontfix = make_entry("w", "wontfix", files=["src/auth.ts"])
    assert not should_resurface(wontfix, ["src/auth.ts"], now=NOW)


FILES = ["src/a.py", "src/auth/b.py", "lib/c.py", "docs/d.md"]
PATTERNS = [*FILES, "src/**", "**/*.py", "docs/?.md", "lib/*"]


@st.composite
def entries(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(0, 12))
    out = []
    for n in range(count):
        kind = draw(st.sampled_from(["pattern", "suppression", "wontfix", "decision"]))
        ctx = {
            "scope": draw(st.sampled_from(["file", "subsystem", "global"])),
            "active": draw(st.booleans()),
        }
        out.append(
            make_entry(
                f"e{n}",
                kind,
                phase=draw(st.sampled_from([None, "upstream", "midstream", "downstream"])),
                files=draw(st.lists(st.sampled_from(PATTERNS), max_size=2, unique=True)),
                status=draw(st.sampled_from([None, "active", "superseded", "archived"])),
                expires=draw(
                    st.sampled_from([None, "2026-01-01", "2027-01-01", "2026-06-01T12:00:00Z"])
                ),
                **({"context": ctx} if kind == "suppression" else {}),
            )
        )
    for n in range(draw(st.integers(0, 3))):
        out.append(
            revoke(
                f"rev{n}",
                f"e{draw(st.integers(0, 12))}",
                status=draw(st.sampled_from([None, "superseded"])),
            )
        )
    return out


@settings(max_examples=150, deadline=None)
@given(
    entries(),
    st.sampled_from([None, "upstream", "midstream", "downstream"]),
    st.lists(st.sampled_from(FILES), max_size=3),
)
def test_property_never_returns_inactive_expired_or_revoked(
    drawn: list[dict[str, Any]], phase: str | None, changed: list[str]
) -> None:
    idx = index(*drawn)
    revoked = revoked_ids(idx)
    memory = load_review_memory(idx, phase=phase, changed_files=changed, now=NOW)
    for entry in memory.entries:
        assert entry.get("status", "active") == "active"
        assert entry["id"] not in revoked
        expiry = entry.get("expiresAt")
        assert expiry is None or expiry in ("2027-01-01",)  # the others are ≤ NOW
        if phase is not None:
            own = entry["metadata"].get("phase")
            assert own == phase or (own is None and entry["type"] == "suppression")
    positions = [drawn.index(e) for e in memory.entries]
    assert positions == sorted(positions)  # index order kept
    assert len(memory.entries) + sum(memory.excluded.values()) == len(drawn)
    for sup in find_active_suppressions(idx, changed, now=NOW, phase=phase):
        assert sup["type"] == "suppression" and sup["context"]["active"] is True
        assert sup["id"] not in revoked
