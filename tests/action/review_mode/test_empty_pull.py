"""A pull request that changes no file: a notice, and never a pass of the fail-on gate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from riverbed.testing.github.server import FakeGitHub

from .conftest import HEAD_SHA, ReviewSite


@pytest.fixture
def empty(gh: FakeGitHub, tmp_path: Path) -> ReviewSite:
    """Pull request #7, which changes no file; the workspace holds one major finding."""
    gh.add_pull(7, HEAD_SHA, files=[])
    site = ReviewSite(gh, tmp_path)
    (site.workspace / "src").mkdir(parents=True)
    site.write_findings([site.issue("rule-1", 2, "a finding", severity="major")])
    site.write_memory([])
    return site


def test_an_empty_pull_request_fails_a_fail_on_gate(empty: Any) -> None:
    run = empty.run(**{"fail-on": "major"})
    assert run.code == 2, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("::notice::") and "the change is empty" in line for line in lines)
    errors = [line for line in lines if line.startswith("::error")]
    assert len(errors) == 1 and "allow-empty-change" in errors[0]


def test_allowed_or_ungated_it_is_a_notice_and_exit_0(empty: Any) -> None:
    allowed = empty.run(**{"fail-on": "major", "allow-empty-change": "true"})
    assert allowed.code == 0, allowed.stdout + allowed.stderr
    assert "::notice::" in allowed.stdout and "the change is empty" in allowed.stdout
    assert allowed.outputs["findings-kept"] == "0" and allowed.outputs["findings-outside"] == "1"
    plain = empty.run()
    assert plain.code == 0 and "the change is empty" in plain.stdout


def test_nofilter_gates_the_whole_repository_even_on_an_empty_pull_request(empty: Any) -> None:
    """nofilter counts every finding, so an empty pull request is no reason to refuse."""
    run = empty.run(**{"fail-on": "major", "filter-mode": "nofilter"})
    assert run.code == 1, run.stdout + run.stderr
    assert not [
        line for line in run.stdout.splitlines() if line.startswith(("::error", "::notice"))
    ]
    assert "the change is empty" not in run.stdout
    assert run.outputs["findings-kept"] == "1" and run.outputs["findings-outside"] == "0"


def test_nofilter_warns_of_a_path_mismatch_and_still_gates(site: Any) -> None:
    """Findings in another path space: a refusal under fail-on, except under nofilter."""
    site.write_findings([site.issue("rule-1", 2, "a finding", severity="major", file="x/y.py")])
    site.write_memory([])
    refused = site.run(**{"fail-on": "major", "post-review": "false"})
    assert refused.code == 2 and "almost always a path mismatch" in refused.stdout
    gated = site.run(**{"fail-on": "major", "filter-mode": "nofilter", "post-review": "false"})
    assert gated.code == 1, gated.stdout + gated.stderr
    lines = gated.stdout.splitlines()
    assert any(line.startswith("::warning::") and "path mismatch" in line for line in lines)
    assert gated.outputs["findings-kept"] == "1"
