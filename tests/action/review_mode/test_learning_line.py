"""A kept finding whose rule was suppressed in other pull requests says so in the review."""

from __future__ import annotations

from typing import Any

from histories import reference_suppression

from riverbed.pr_review.markers import parse_finding_marker
from riverbed.text import unescape_markdown


def _posts(site: Any) -> list[dict[str, Any]]:
    import json

    return [json.loads(r.body) for r in site.gh.requests_to(r"/pulls/7/reviews$", "POST")]


def test_kept_finding_of_a_rule_suppressed_elsewhere_carries_one_line(site: Any) -> None:
    kept = site.issue("R-inline", 2, "added line has a bug", lineEnd=3)
    fresh = site.issue("R-new", 4, "a rule nobody suppressed")
    site.write_findings([kept, fresh])
    elsewhere = [
        reference_suppression(f"s{pr}", rule="R-inline", paths=(f"lib/m{pr}.py",), pr=pr)
        for pr in (3, 4, 5, 6)
    ]
    # Its own pull request's suppression elsewhere is no recurrence "in other" pull requests.
    elsewhere.append(reference_suppression("own", rule="R-inline", paths=("lib/x.py",), pr=7))
    site.write_memory(elsewhere)
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    (request,) = _posts(site)
    by_fp = {parse_finding_marker(c["body"]).fingerprint: c["body"] for c in request["comments"]}  # type: ignore[union-attr]
    line = "↻ suppressed in 4 other pull requests"
    assert line in unescape_markdown(by_fp[site.fingerprint(kept)])
    assert "↻" not in by_fp[site.fingerprint(fresh)]


def test_the_line_names_the_clusters_candidate(site: Any, tmp_path: Any) -> None:
    import json
    from datetime import UTC, datetime

    from histories import index_of

    from riverbed.index.storage import read_index
    from riverbed.memory.learning.candidate_store import write_candidates

    kept = site.issue("R-inline", 2, "added line has a bug", lineEnd=3)
    site.write_findings([kept])
    scratch = tmp_path / "scratch.json"
    entries = [
        reference_suppression(f"s{pr}", rule="R-inline", paths=(f"lib/m{pr}.py",), pr=pr)
        for pr in (3, 4, 5)
    ]
    scratch.write_text(json.dumps(index_of(*entries)), encoding="utf-8")
    (candidate,) = write_candidates(scratch, now=datetime(2026, 11, 1, tzinfo=UTC)).plan.new
    site.write_memory(read_index(scratch)["entries"])
    assert site.run().code == 0
    (request,) = _posts(site)
    (comment,) = request["comments"]
    expected = f"↻ suppressed in 3 other pull requests; candidate {candidate['id']}"
    assert expected in unescape_markdown(comment["body"])


def test_the_body_list_item_carries_the_line_too() -> None:
    from riverbed.pr_review.body import finding_line
    from riverbed.pr_review.model import ReviewFinding

    finding = ReviewFinding("0" * 16, "S101", "t.py", 3, "minor", "assert used")
    assert "↻" not in finding_line(finding)
    hinted = ReviewFinding(
        "0" * 16,
        "S101",
        "t.py",
        3,
        "minor",
        "assert used",
        learning="suppressed in 2 other pull requests",
    )
    assert "\n  ↻ suppressed in 2 other pull requests\n" in unescape_markdown(finding_line(hinted))
