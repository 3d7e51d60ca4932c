"""Review body and job summary: sections, counts, escaping, budget and annotations."""

from __future__ import annotations

import re

from riverbed.pr_review import (
    GITHUB_BODY_LIMIT,
    GuardSkip,
    ResurfaceNote,
    ReviewFinding,
    ReviewView,
    SuppressedFinding,
    SuppressionInEffect,
    build_diff_index,
    findings_annotations,
    inline_comment_body,
    parse_review_marker,
    place_findings,
    render_job_summary,
    render_review_body,
    review_state,
    text_length,
)
from riverbed.pr_review.markers import parse_finding_marker

DIFF = build_diff_index([("src/app.py", "@@ -1,2 +1,3 @@\n a\n+b\n c")])
HOSTILE = "@org/team </details> <img src=x onerror=alert(1)> [x](javascript:1)"
MENTION = re.compile(r"@[A-Za-z0-9]")


def finding(fp: str, line: int | None = 2, message: str = "bad thing", **kw: str) -> ReviewFinding:
    return ReviewFinding(
        fp,
        kw.get("rule", "R1"),
        kw.get("path", "src/app.py"),
        line,
        kw.get("severity", "minor"),
        message,
    )


def report(**kw: object) -> ReviewView:
    base: dict[str, object] = {
        "phase": "midstream",
        "findings_in": 4,
        "kept": (finding("k1"), finding("k2", line=40, message=HOSTILE)),
        "suppressed": (
            SuppressedFinding(finding("s1", message=HOSTILE), "supp-a", "false_positive", HOSTILE),
        ),
        "guard_skips": (
            GuardSkip(
                finding("g1", severity="major"),
                "supp-b",
                "false_positive",
                "major and critical findings are only suppressed by accepted_risk",
            ),
        ),
        "suppressions": (
            SuppressionInEffect(
                "supp-a",
                "file",
                "false_positive",
                "noise",
                "@alice",
                "2027-01-01",
                "fingerprint s1",
            ),
        ),
        "resurfaced": (ResurfaceNote("supp-a", "old noise", ("src/app.py",)),),
    }
    base.update(kw)
    return ReviewView(**base)  # type: ignore[arg-type]


def render(rep: ReviewView, limit: int = GITHUB_BODY_LIMIT) -> str:
    placement = place_findings(rep.kept, DIFF, max_inline=30)
    state = review_state(rep.phase, [f.fingerprint for f in rep.kept], ["supp-a"])
    return render_review_body(rep, placement, state, max_inline=30, limit=limit)


def test_body_has_every_part() -> None:
    body = render(report())
    assert body.startswith("## riverbed review · midstream phase")
    # findings/outside/kept/suppressed/by the tool/guard/resurfaced/evidence not found
    assert "| 4 | 0 | 2 | 1 | 0 | 1 | 1 | 0 |" in body
    assert "1 inline comment, 1 finding outside the diff." in body
    assert "Suppressions in effect for this PR's files (phase: midstream)" in body
    assert "| <code>supp\\-a</code> | file | false\\_positive |" in body
    assert "2027\\-01\\-01" in body and "@&#8203;alice" in body
    assert (
        "stays; suppression <code>supp\\-b</code> (false\\_positive) was not applied: major" in body
    )
    assert "<details><summary>1 suppressed finding</summary>" in body
    assert "Is the suppression still valid?" in body
    assert "/riverbed suppress" in body and "/riverbed revoke" in body
    assert parse_review_marker(body) is not None


def test_hostile_strings_cannot_escape() -> None:
    body = render(report())
    assert body.count("</details>") == 1 and body.count("<details>") == 1
    assert "<img" not in body and "](javascript" not in body
    assert not MENTION.search(body)
    comment = inline_comment_body(finding("x", message=HOSTILE + "\n" + "@bob"))
    assert not MENTION.search(comment) and "<img" not in comment
    marker = parse_finding_marker(comment)
    assert marker is not None and marker.fingerprint == "x"


def test_huge_inputs_fit_and_cuts_are_counted() -> None:
    big = "A" * 100_000
    kept = tuple(finding(f"k{i}", line=100 + i, message=big) for i in range(400))
    suppressed = tuple(
        SuppressedFinding(finding(f"s{i}", message=big), f"id{i}", "false_positive", big)
        for i in range(400)
    )
    body = render(report(kept=kept, suppressed=suppressed, findings_in=800))
    assert text_length(body) <= GITHUB_BODY_LIMIT
    cut = re.search(r"\*\*(\d+) items were cut\*\*", body)
    assert cut is not None
    shown = sum(1 for ln in body.splitlines() if ln.startswith(("- ", "| <code>")))
    assert int(cut.group(1)) + shown == 400 + 400 + 3  # kept, suppressed, guard/table/resurface
    # Memory first: the suppressions table and "Still valid?" survive whole; findings follow.
    assert "| <code>supp\\-a</code> |" in body and "### Still valid?" in body
    assert body.index("### Suppressions in effect") < body.index("### Still valid?")
    assert body.index("### Still valid?") < body.index("### Findings not commented inline")
    # What did not fit at all is named and counted, never an empty heading.
    assert "<details>" not in body and "### Kept despite" not in body
    assert "… 400 more suppressed findings cut" in body
    assert "… 1 more guard notes cut" in body
    inline_body = inline_comment_body(finding("x", message=big))
    assert text_length(inline_body) < 5000


def test_summary_lists_all_kept_when_nothing_was_posted() -> None:
    rep = report()
    placement = place_findings(rep.kept, DIFF, max_inline=30)
    summary = render_job_summary(
        rep, placement, ["Could not post the review: 403"], max_inline=30, list_all=True
    )
    assert "### Kept findings" in summary and "k1" in summary and "k2" in summary
    assert "- Could not post the review: 403" in summary


def test_annotations_are_capped_counted_and_cannot_inject_commands() -> None:
    kept = [finding(f"f{i}", message="line1\n::error::boom %") for i in range(12)]
    notes = findings_annotations(kept, cap=10)
    assert len(notes.lines) == 10 and notes.omitted == 2
    line = notes.lines[0]
    assert line.startswith("::warning file=src/app.py,line=2,title=riverbed%3A minor R1::")
    assert "\n" not in line and "%0A::error::boom %25" in line
