"""github/runs.py over real PyGithub against the stand-in: containment, runs, run artifacts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riverbed.errors import GitHubError
from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.github.runs import BranchCommits, run_artifacts, successful_runs
from riverbed.testing.github.server import FakeGitHub

FAST = GitHubSettings(timeout=5, retries=0, seconds_between_writes=0)


@pytest.fixture(scope="module")
def served() -> Iterator[FakeGitHub]:
    """One stand-in for the property's many graphs (each example adds its own commits)."""
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as fake:
        yield fake


@pytest.fixture
def client(gh: FakeGitHub) -> Iterator[GitHubClient]:
    made = GitHubClient(api_url=gh.api_url, token=gh.token, repository="octo/demo", settings=FAST)
    yield made
    made.close()


# Each commit picks its parents among the commits before it: any DAG, merges included.
GRAPHS = st.integers(min_value=1, max_value=7).flatmap(
    lambda n: st.tuples(
        st.tuples(*[st.sets(st.integers(0, max(i - 1, 0)), max_size=2) for i in range(n)]),
        st.integers(0, n - 1),
        st.integers(0, n - 1),
    )
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(graph=GRAPHS)
def test_a_commit_is_on_a_branch_exactly_when_it_is_the_tip_or_an_ancestor(
    served: FakeGitHub, graph: tuple[tuple[set[int], ...], int, int]
) -> None:
    parents, tip_at, probe_at = graph
    root = served.git.commit(())
    shas: list[str] = []
    for position, chosen in enumerate(parents):
        picks = tuple(dict.fromkeys(shas[p] for p in chosen if p < position)) or (root,)
        shas.append(served.git.commit(picks))
    branch = f"b{len(served.git.refs)}"
    served.git.set_ref(f"heads/{branch}", shas[tip_at])
    made = GitHubClient(
        api_url=served.api_url, token=served.token, repository="octo/demo", settings=FAST
    )
    try:
        found = BranchCommits(made).contains(branch, shas[probe_at])
    finally:
        made.close()
    assert found.contained == (shas[probe_at] in served.git.ancestors(shas[tip_at]))


def test_successful_runs_are_newest_first_bounded_and_empty_for_no_workflow(
    gh: FakeGitHub, client: GitHubClient
) -> None:
    ids = [gh.add_run(event="push", head_branch="main") for _ in range(130)]
    gh.add_run(event="push", head_branch="main", conclusion="failure")
    found = successful_runs(
        client, ".github/workflows/riverbed.yml", branch="main", event="push", limit=120
    )
    assert [r.id for r in found] == ids[::-1][:120]
    assert all(r.head_sha and r.created_at for r in found)
    assert successful_runs(client, "missing.yml", branch="main", event="push", limit=5) == []
    assert gh.schema_problems == []


def test_a_run_with_more_artifacts_than_are_read_is_refused(
    gh: FakeGitHub, client: GitHubClient
) -> None:
    run = gh.add_run(event="push", head_branch="main")
    for _ in range(3):
        gh.add_artifact(run_id=run, files={"index.json": "{}"})
    assert len(run_artifacts(client, run, "riverbed-memory")) == 3
    for _ in range(1000):
        gh.add_artifact(run_id=run, files={"index.json": "{}"})
    with pytest.raises(GitHubError, match="more than 1000 artifacts"):
        run_artifacts(client, run, "riverbed-memory")
