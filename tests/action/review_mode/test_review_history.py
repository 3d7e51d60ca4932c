"""A kept finding fixed on the default branch and back in the PR is labelled in the review."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from riverbed.findings import read_findings_file
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.index.storage import read_index
from riverbed.memory.record_history import record_history
from riverbed.pr_review.markers import parse_finding_marker
from riverbed.text import unescape_markdown

START = datetime(2026, 11, 1, tzinfo=UTC)


def test_back_finding_is_labelled_inline_and_in_the_summary(site: Any, tmp_path: Path) -> None:
    back = site.issue("R-inline", 2, "added line has a bug", lineEnd=3)
    fresh = site.issue("R-new", 4, "a rule nobody saw before")
    site.write_findings([back])
    _, findings = read_findings_file(site.workspace / "findings.json")
    scratch = tmp_path / "history.json"
    scratch.write_bytes(dumps_js(empty_index()))
    # On main: seen in c1…, fixed in c2…, back in c3…, fixed in c4… (3 flips: oscillating).
    for n, present in enumerate([findings, [], findings, []]):
        now = START + timedelta(days=n)
        record_history(scratch, present, now=now, branch="main", commit=f"c{n + 1}" * 20)
    site.write_findings([back, fresh])
    site.write_memory(read_index(scratch)["entries"])
    run = site.run()
    assert run.code == 0, run.stderr + run.stdout
    posts = [json.loads(r.body) for r in site.gh.requests_to(r"/pulls/7/reviews$", "POST")]
    (request,) = posts
    by_fp = {parse_finding_marker(c["body"]).fingerprint: c["body"] for c in request["comments"]}
    label = "⟲ fixed in <code>c4c4c4c4c4c4</code> on 2026-11-04, back; oscillating (4 flips)"
    assert label in unescape_markdown(by_fp[site.fingerprint(back)])
    assert "⟲" not in by_fp[site.fingerprint(fresh)]
    assert label in unescape_markdown(request["body"])
