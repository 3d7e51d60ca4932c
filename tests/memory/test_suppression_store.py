"""create_suppression / revoke_suppression: River Reviewer's shape, stable ids, no-op re-runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_helpers import NOW

from riverbed import (
    EntryNotFoundError,
    InvalidExpiresAt,
    InvalidTransitionError,
    SecretInEntryError,
    UsageError,
    create_suppression,
    find_active_suppressions,
    load_memory,
    revoke_suppression,
    validate_index,
)
from riverbed.index.jsonbytes import dumps_js

FP = "0f92f0f44d6509b1"


def test_fingerprint_suppression_shape(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    entry = create_suppression(
        path,
        fingerprint=FP,
        reason="  intended  ",
        feedback_type="accepted_risk",
        severity="major",
        related_files=["src/app.js"],
        expires_at="2027-01-01",
        phase="midstream",
        author="ana",
        source_pr=12,
        source_comment_id=34,
        now=NOW,
    )
    assert entry == {
        "id": entry["id"],
        "type": "suppression",
        "title": "Suppress finding 0f92f0f44d6509b1 in src/app.js",
        "content": "intended",
        "metadata": {
            "createdAt": "2026-06-01T12:00:00.000Z",
            "author": "ana",
            "phase": "midstream",
            "relatedFiles": ["src/app.js"],
        },
        "context": {
            "scope": "file",
            "active": True,
            "feedbackType": "accepted_risk",
            "fingerprint": FP,
            "fingerprintAlgo": "v1",
            "severity": "major",
            "sourcePR": 12,
            "sourceCommentId": 34,
        },
        "expiresAt": "2027-01-01",
    }
    assert (
        entry["id"].startswith(f"suppression-{FP}-")
        and len(entry["id"]) == len(f"suppression-{FP}-") + 8
    )
    index = load_memory(path)
    assert index["entries"] == [entry] and validate_index(index) == []


def test_links_go_to_metadata_and_do_not_change_the_id(tmp_path: Path) -> None:
    path = tmp_path / "index.json"
    url = "https://github.com/o/r/pull/12#issuecomment-34"
    entry = create_suppression(
        path, fingerprint=FP, reason="intended", author="ana", links=[url, url], now=NOW
    )
    assert entry["metadata"]["links"] == [url]
    again = create_suppression(path, fingerprint=FP, reason="intended", author="bo", now=NOW)
    assert again == entry and load_memory(path)["entries"] == [entry]


def test_rule_suppression_shape(tmp_path: Path) -> None:
    entry = create_suppression(
        tmp_path / "i.json",
        rule_id="E711",
        paths=["src/**", "*.py"],
        reason="numpy",
        author="a",
        now=NOW,
    )
    assert entry["context"] == {
        "scope": "file",
        "active": True,
        "feedbackType": "false_positive",
        "match": {"ruleId": "E711", "paths": ["src/**", "*.py"]},
    }
    assert entry["title"] == "Suppress E711 in src/**, *.py" and entry["id"].startswith(
        "suppression-e711-"
    )
    assert "relatedFiles" not in entry["metadata"]


def test_rerun_is_a_noop_and_ids_are_deterministic(tmp_path: Path) -> None:
    path = tmp_path / "i.json"
    first = create_suppression(path, fingerprint=FP, reason="r", author="a", now=NOW)
    before = path.read_bytes()
    again = create_suppression(
        path, fingerprint=FP, reason="r", author="someone else", now=NOW.replace(hour=13)
    )
    assert again == first and path.read_bytes() == before
    other = tmp_path / "j.json"
    assert (
        create_suppression(other, fingerprint=FP, reason="r", author="b", now=NOW)["id"]
        == first["id"]
    )
    different = create_suppression(
        path, fingerprint=FP, reason="another reason", author="a", now=NOW
    )
    assert different["id"] != first["id"]


def test_revoke_then_suppress_again_gets_a_new_generation(tmp_path: Path) -> None:
    path = tmp_path / "i.json"
    first = create_suppression(path, fingerprint=FP, reason="r", author="a", now=NOW)
    revocation = revoke_suppression(path, first["id"], reason="fixed upstream", author="b", now=NOW)
    assert (
        revocation["type"] == "resurface" and revocation["id"] == f"resurface-revoke-{first['id']}"
    )
    assert revocation["context"] == {"action": "revoke", "suppressionId": first["id"]}
    assert revocation["content"] == "fixed upstream"
    before = path.read_bytes()
    assert revoke_suppression(path, first["id"], reason="again", author="b", now=NOW) == revocation
    assert path.read_bytes() == before
    assert find_active_suppressions(load_memory(path), [], now=NOW) == []
    renewed = create_suppression(path, fingerprint=FP, reason="r", author="a", now=NOW)
    assert renewed["id"] == first["id"] + "-2"
    assert [e["id"] for e in find_active_suppressions(load_memory(path), [], now=NOW)] == [
        renewed["id"]
    ]
    assert create_suppression(path, fingerprint=FP, reason="r", author="a", now=NOW) == renewed
    assert validate_index(load_memory(path)) == []


def test_an_expired_suppression_is_renewed_with_a_future_date_only(tmp_path: Path) -> None:
    path = tmp_path / "i.json"
    first = create_suppression(
        path, fingerprint=FP, reason="r", expires_at="2026-07-01", author="a", now=NOW
    )
    later = NOW.replace(month=8)
    with pytest.raises(UsageError, match="already past"):  # expired from birth: refused
        create_suppression(
            path, fingerprint=FP, reason="r", expires_at="2026-07-01", author="a", now=later
        )
    renewed = create_suppression(
        path, fingerprint=FP, reason="r", expires_at="2026-12-01", author="a", now=later
    )
    assert renewed["id"] != first["id"]


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({}, UsageError, "or a rule id with ruleId; neither was given"),
        ({"fingerprint": FP, "rule_id": "R"}, UsageError, "give a fingerprint or ruleId, not both"),
        ({"fingerprint": FP, "paths": ["a"]}, UsageError, "go with ruleId"),
        ({"fingerprint": FP, "reason": "  "}, UsageError, "needs a reason"),
        ({"fingerprint": FP, "feedback_type": "meh"}, UsageError, "feedbackType 'meh'"),
        ({"fingerprint": FP, "scope": "planet"}, UsageError, "scope 'planet'"),
        (
            {"fingerprint": FP, "severity": "critical"},
            UsageError,
            "the severity guard never lets a false_positive suppression hide",
        ),
        ({"fingerprint": FP, "expires_at": "2026-02-30"}, InvalidExpiresAt, "2026-02-30"),
        ({"fingerprint": "NOTHEX0123456789"}, UsageError, "is not a v1 fingerprint"),
        ({"fingerprint": FP, "reason": "token ghp_" + "a" * 36}, SecretInEntryError, "content"),
    ],
)
def test_create_refuses_bad_input_and_writes_nothing(
    tmp_path: Path, kwargs: dict, error: type, text: str
) -> None:
    path = tmp_path / "i.json"
    args = {"reason": "r", "author": "a", "now": NOW, **kwargs}
    with pytest.raises(error, match=text) as caught:
        create_suppression(path, **args)
    assert "--" not in str(caught.value)  # the library names fields, not CLI flags
    assert not path.exists()


def test_revoke_errors(tmp_path: Path) -> None:
    path = tmp_path / "i.json"
    path.write_bytes(
        dumps_js(
            {
                "version": "1",
                "entries": [
                    {
                        "id": "p1",
                        "type": "pattern",
                        "content": "c",
                        "metadata": {"createdAt": "2026-01-01T00:00:00Z", "author": "a"},
                    }
                ],
            }
        )
    )
    with pytest.raises(EntryNotFoundError, match="no suppression with id 'nope'"):
        revoke_suppression(path, "nope", reason="r", author="a", now=NOW)
    with pytest.raises(InvalidTransitionError, match="is a pattern entry"):
        revoke_suppression(path, "p1", reason="r", author="a", now=NOW)
    sid = create_suppression(path, fingerprint=FP, reason="r", author="a", now=NOW)["id"]
    with pytest.raises(UsageError, match="needs a reason"):
        revoke_suppression(path, sid, reason=" ", author="a", now=NOW)
