"""The stand-in's commit graph, compare endpoint and filtered workflow-run listing.

What GitHub documents: `compare/{base}...{head}` answers `identical`, `ahead`, `behind` or
`diverged` with `ahead_by`/`behind_by`; `git/ref/heads/x` names a branch, never a tag;
`actions/workflows/{id or file}/runs` filters by `branch` (the run's head_branch, which a
tag's name fills too), `event`, `status` (a status or a conclusion) and `head_sha`.
"""

from __future__ import annotations

import requests

from riverbed.testing import FakeGitHub


def _compare(http: requests.Session, repo_url: str, base: str, head: str) -> requests.Response:
    return http.get(f"{repo_url}/compare/{base}...{head}")


def test_compare_says_how_a_commit_stands_against_a_branch(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    first = gh.git.advance("main")
    second = gh.git.advance("main")
    side = gh.git.commit((first,))
    tag = gh.add_tag("main")  # off main's tip, not on main
    cases = {
        (second, second): ("identical", 0, 0),
        (second, first): ("behind", 0, 1),
        (first, second): ("ahead", 1, 0),
        (second, side): ("diverged", 1, 1),
        (second, tag): ("ahead", 1, 0),
        ("main", first): ("behind", 0, 1),
    }
    for (base, head), (status, ahead, behind) in cases.items():
        body = _compare(http, repo_url, base, head).json()
        assert (body["status"], body["ahead_by"], body["behind_by"]) == (status, ahead, behind)
        assert [c["sha"] for c in body["commits"]] == ([head] if ahead else [])
    assert _compare(http, repo_url, second, "f" * 40).status_code == 404
    lonely = gh.git.commit(())
    assert _compare(http, repo_url, second, lonely).status_code == 404  # no common ancestor
    assert gh.schema_problems == []


def test_a_branch_ref_never_resolves_to_a_tag_of_the_same_name(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    tip = gh.git.advance("main")
    tag = gh.add_tag("main")
    assert http.get(f"{repo_url}/git/ref/heads/main").json()["object"]["sha"] == tip
    assert http.get(f"{repo_url}/git/ref/tags/main").json()["object"]["sha"] == tag
    assert http.get(f"{repo_url}/git/ref/heads/nope").status_code == 404
    gh.git.advance("feature/x")
    assert http.get(f"{repo_url}/git/ref/heads/feature/x").json()["ref"] == "refs/heads/feature/x"
    assert gh.schema_problems == []


def test_workflow_runs_are_filtered_as_github_documents(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    persist = ".github/workflows/riverbed-persist.yml"
    good = gh.add_run(event="push", head_branch="main", path=persist)
    tag = gh.add_run(event="push", head_branch="main", head_sha=gh.add_tag("main"), path=persist)
    gh.add_run(event="push", head_branch="main", path=persist, conclusion="failure")
    gh.add_run(
        event="push", head_branch="main", path=persist, status="in_progress", conclusion=None
    )
    gh.add_run(event="pull_request", head_branch="main", path=persist)
    gh.add_run(event="push", head_branch="feature", path=persist)
    gh.add_run(event="push", head_branch="main", path=".github/workflows/other.yml")
    url = f"{repo_url}/actions/workflows/riverbed-persist.yml/runs"
    params = {"branch": "main", "event": "push", "status": "success"}
    body = http.get(url, params=params).json()
    # The tag's run matches `branch=main`: the filter is by name, so the commit must decide.
    assert [r["id"] for r in body["workflow_runs"]] == [tag, good]
    assert body["total_count"] == 2
    by_id = http.get(f"{repo_url}/actions/workflows/{body['workflow_runs'][0]['workflow_id']}/runs")
    assert by_id.json()["total_count"] == 6
    in_progress = http.get(url, params={"status": "in_progress"}).json()
    assert [r["status"] for r in in_progress["workflow_runs"]] == ["in_progress"]
    assert http.get(f"{repo_url}/actions/workflows/missing.yml/runs").status_code == 404
    assert gh.schema_problems == []


def test_workflow_runs_page_and_stop_at_a_thousand_when_filtered(
    gh: FakeGitHub, http: requests.Session, repo_url: str
) -> None:
    for _ in range(1005):
        gh.add_run(event="push", head_branch="main")
    url = f"{repo_url}/actions/workflows/riverbed.yml/runs"
    first = http.get(url, params={"event": "push", "per_page": "100"})
    assert first.json()["total_count"] == 1000 and len(first.json()["workflow_runs"]) == 100
    assert 'rel="next"' in first.headers["Link"]
    assert http.get(url).json()["total_count"] == 1005  # no filter, no cap
