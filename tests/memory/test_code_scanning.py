"""Code scanning alerts → suppressions (pure): mapping, scope, idempotence, revocation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.model import Entry, Index, context, empty_index, metadata
from riverbed.memory.code_scanning import path_problem, severity_of
from riverbed.memory.code_scanning_plan import plan_import
from riverbed.memory.globs import glob_match, normalize_path
from riverbed.memory.record_revocation import build_revocation_entry

NOW = datetime(2026, 3, 1, tzinfo=UTC)
REPO = "octo/demo"


def alert(
    number: int,
    *,
    state: str = "dismissed",
    rule: Any = "py/x",
    path: Any = "src/a.py",
    reason: Any = "won't fix",
    comment: Any = "ok",
    login: Any = "alice",
    severity: Any = "warning",
    link: str | None = None,
) -> dict[str, Any]:
    """An alert as GitHub lists it (only the fields riverbed reads, plus a few it ignores)."""
    return {
        "number": number,
        "state": state,
        "html_url": link or f"https://github.com/{REPO}/security/code-scanning/{number}",
        "rule": {"id": rule, "severity": severity, "name": "x"},
        "most_recent_instance": {"location": {"path": path, "start_line": 3}},
        "dismissed_reason": reason if state == "dismissed" else None,
        "dismissed_comment": comment if state == "dismissed" else None,
        "dismissed_by": {"login": login} if state == "dismissed" else None,
    }


def plan(index: Index, *alerts: dict[str, Any]) -> Any:
    by_state: dict[str, list[dict[str, Any]]] = {"dismissed": [], "open": [], "fixed": []}
    for raw in alerts:
        by_state[raw["state"]].append(raw)
    return plan_import(index, by_state, repository=REPO, author="me", now=NOW)


def applied(index: Index, result: Any) -> Index:
    """The index after the plan, written as the writer writes it (pure here)."""
    added: list[Entry] = [p.entry for p in result.add]
    revoked = [
        build_revocation_entry(r.suppression_id, reason=r.reason, author="me", now=NOW)
        for r in result.revoke
    ]
    return {"version": "1", "entries": [*index["entries"], *added, *revoked]}


def test_reasons_map_to_feedback_types_and_severity_is_recorded() -> None:
    result = plan(
        empty_index(),
        alert(1, reason="false positive"),
        alert(2, reason="won't fix", severity="error"),
        alert(3, reason="used in tests", severity="note"),
    )
    feedback = {p.alert.number: context(p.entry)["feedbackType"] for p in result.add}
    severity = {p.alert.number: context(p.entry).get("severity") for p in result.add}
    assert feedback == {1: "false_positive", 2: "accepted_risk", 3: "accepted_risk"}
    assert severity == {1: "minor", 2: "major", 3: "info"}
    assert result.skipped == ()


def test_security_severity_level_wins_over_the_level() -> None:
    assert severity_of({"severity": "note", "security_severity_level": "critical"}) == "critical"
    assert severity_of({"severity": "error"}) == "major"
    assert severity_of({"severity": "bogus"}) is None


def test_the_guard_refuses_false_positive_on_major_and_critical() -> None:
    raw = alert(1, reason="false positive", severity="error")
    critical = alert(2, reason="false positive")
    critical["rule"]["security_severity_level"] = "critical"
    result = plan(empty_index(), raw, critical, alert(3, reason="won't fix", severity="error"))
    assert [p.alert.number for p in result.add] == [3]
    assert [s.number for s in result.skipped] == [1, 2]
    assert all("severity guard" in s.why for s in result.skipped)


def test_a_second_plan_adds_nothing_and_a_reopen_revokes_only_that_alerts_suppression() -> None:
    alerts = [alert(n, path=f"src/{n}.py") for n in range(1, 4)]
    first = plan(empty_index(), *alerts)
    index = applied(empty_index(), first)
    again = plan(index, *alerts)
    assert (len(again.add), len(again.present), again.revoke) == (0, 3, ())
    reopened = plan(index, alerts[0], {**alert(2, state="open")}, alerts[2])
    assert [r.suppression_id for r in reopened.revoke] == [first.add[1].entry["id"]]
    after = applied(index, reopened)
    assert plan(after, alerts[0], alert(2, state="open"), alerts[2]).revoke == ()


def test_a_changed_dismissal_replaces_the_old_suppression() -> None:
    first = plan(empty_index(), alert(1, comment="old reason"))
    index = applied(empty_index(), first)
    changed = plan(index, alert(1, comment="new reason"))
    assert len(changed.add) == 1 and "new reason" in changed.add[0].entry["content"]
    assert [r.suppression_id for r in changed.revoke] == [first.add[0].entry["id"]]


def test_an_alert_listed_in_two_states_is_skipped_not_guessed() -> None:
    result = plan(empty_index(), alert(1), alert(1, state="open"))
    assert result.add == () and result.revoke == ()
    assert [s.number for s in result.skipped] == [1] and "changed state" in result.skipped[0].why


def test_a_foreign_link_neither_imports_nor_revokes() -> None:
    index = applied(empty_index(), plan(empty_index(), alert(1)))
    evil = "https://github.com/other/repo/security/code-scanning/1"
    wrong_number = f"https://github.com/{REPO}/security/code-scanning/9"
    markdown = f"https://x)[y](javascript:1/{REPO}/security/code-scanning/1"
    for link in (evil, wrong_number, markdown):
        result = plan(index, alert(1, state="open", link=link))
        assert result.revoke == () and len(result.skipped) == 1, link


def test_hostile_fields_are_skipped_with_a_reason() -> None:
    cases = {
        2: alert(2, rule="py/x\nInjected"),
        3: alert(3, rule="r" * 300),
        4: alert(4, rule=None),
        5: alert(5, path="../secrets.py"),
        6: alert(6, path="/etc/passwd"),
        7: alert(7, path="src/*.py"),
        8: alert(8, path="src/a?.py"),
        9: alert(9, path=None),
        10: alert(10, path="src\\win.py"),
        11: alert(11, path="src//a.py"),
        12: alert(12, reason="mitigated"),
        13: alert(13, comment="token ghp_" + "a" * 36),
        14: alert(14, path="src/\u202egnp.py"),
    }
    result = plan(empty_index(), alert(1, path="src/[id].ts"), *cases.values())
    assert [p.alert.number for p in result.add] == [1]
    assert [s.number for s in result.skipped] == sorted(cases)
    assert all(s.why for s in result.skipped)


def test_a_huge_comment_with_control_characters_is_kept_cleaned_and_cut() -> None:
    comment = "a\x1b[31mred\x00\n::error::x " + "b" * 50_000
    [planned] = plan(empty_index(), alert(1, comment=comment)).add
    content = planned.entry["content"]
    assert "\x1b" not in content and "\x00" not in content and "\n" not in content
    assert "more characters cut" in content and len(content) < 1500
    assert metadata(planned.entry)["links"] == [
        f"https://github.com/{REPO}/security/code-scanning/1"
    ]


PATH_CHARS = st.sampled_from([*"ab./*?[]{}!-_ \\\t\u202e", "..", "src", "é"])


@given(st.lists(PATH_CHARS, min_size=1, max_size=10).map("".join), st.text(max_size=12))
@settings(max_examples=300, deadline=None)
def test_an_accepted_path_matches_only_itself(path: str, other: str) -> None:
    if path_problem(path) is not None:
        return
    assert glob_match(path, path)
    if normalize_path(other) != path:  # `./a` and `a\\b` are `a` and `a/b` to every rule
        assert not glob_match(path, other)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["dismissed", "open", "fixed"]),
            st.text(min_size=1, max_size=8),
            st.text(min_size=1, max_size=8),
            st.sampled_from(["false positive", "won't fix", "used in tests", "mitigated", None]),
        ),
        max_size=8,
    )
)
@settings(max_examples=150, deadline=None)
def test_nothing_widens_beyond_the_alerts_rule_and_file_and_reimport_adds_nothing(
    rows: list[tuple[str, str, str, str | None]],
) -> None:
    alerts = [
        alert(n, state=state, rule=rule, path=path, reason=reason, severity="note")
        for n, (state, rule, path, reason) in enumerate(rows, start=1)
    ]
    result = plan(empty_index(), *alerts)
    for planned in result.add:
        match = context(planned.entry)["match"]
        assert match == {"ruleId": planned.alert.rule_id, "paths": [planned.alert.path]}
        raw = alerts[planned.alert.number - 1]
        assert (raw["rule"]["id"], raw["most_recent_instance"]["location"]["path"]) == (
            match["ruleId"],
            match["paths"][0],
        )
        assert path_problem(match["paths"][0]) is None
    assert len(result.add) + len(result.skipped) >= sum(a["state"] == "dismissed" for a in alerts)
    again = plan(applied(empty_index(), result), *alerts)
    assert again.add == ()


def test_the_batch_writers_write_what_single_writes_would(tmp_path: Any) -> None:
    from riverbed.index.storage import write_index_atomic
    from riverbed.memory.code_scanning import alert_spec, parse_alert
    from riverbed.memory.record_revocation import write_revocation, write_revocations
    from riverbed.memory.record_suppression import write_suppression, write_suppressions

    specs = []
    for n in (1, 2, 2, 3):  # the repeated one is written once
        parsed = parse_alert(alert(n, path=f"src/{n}.py"), REPO, "dismissed")
        specs.append(alert_spec(parsed))  # type: ignore[arg-type]
    one, many = tmp_path / "one.json", tmp_path / "many.json"
    for path in (one, many):
        write_index_atomic(path, empty_index())
    singles = [write_suppression(one, spec, now=NOW) for spec in specs]
    batch = write_suppressions(many, specs, now=NOW)
    assert [o.written for o in batch] == [o.written for o in singles] == [True, True, False, True]
    assert one.read_bytes() == many.read_bytes()
    targets = [(str(o.entry["id"]), "reopened") for o in batch[:2]]
    for target, reason in targets:
        write_revocation(one, target, reason=reason, author="me", now=NOW)
    assert [o.written for o in write_revocations(many, targets, author="me", now=NOW)] == [True] * 2
    assert one.read_bytes() == many.read_bytes()
    again = write_revocations(many, targets, author="me", now=NOW)
    assert [o.written for o in again] == [False, False]
    # Revoked ones come back as the next generation; the one still in effect stays as it is.
    back = write_suppressions(many, specs, now=NOW)
    assert [o.written for o in back] == [True, True, False, False]
    assert str(back[0].entry["id"]).endswith("-2")


def test_a_suppression_made_by_hand_that_links_the_alert_is_not_revoked() -> None:
    from riverbed.memory.record_suppression import SuppressionSpec, build_suppression_entry

    link = f"https://github.com/{REPO}/security/code-scanning/1"
    spec = SuppressionSpec(reason="we decided", author="x", rule_id="py/x", links=(link,))
    manual = build_suppression_entry(spec, now=NOW)
    index: Index = {"version": "1", "entries": [manual]}
    assert plan(index, alert(1, state="open")).revoke == ()
