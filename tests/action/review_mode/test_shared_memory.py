"""Review mode with `shared-memory`: the organisation's layer, trusted by origin only
(repository, workflow, event, and a commit GitHub confirms is on the branch)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from riverbed.index.jsonbytes import dumps_js
from riverbed.organisation.policy import policy_entry
from riverbed.testing.github.server import FakeGitHub

from .conftest import NOW

ORG_ID = 3003
#: The policy repository's memory workflow (a default of shared-memory-trusted-workflows).
PERSIST = ".github/workflows/riverbed-persist.yml"
WORKFLOWS = "shared-memory-trusted-workflows"


@pytest.fixture
def policy_repo(gh: FakeGitHub) -> Iterator[FakeGitHub]:
    """acme/policy, served on the same host as octo/demo and reading the same token."""
    with FakeGitHub(owner="acme", repo="policy", repository_id=ORG_ID, token=gh.token) as org:
        gh.add_sibling(org)
        yield org


def _posted_body(gh: FakeGitHub) -> str:
    posts = [r for r in gh.requests if r.method == "POST" and r.path.endswith("/reviews")]
    assert len(posts) == 1
    body: str = json.loads(posts[0].body)["body"]
    return body


def _setup(site: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two minor findings; the repository suppresses the second as a false positive."""
    noise = site.issue("style-noise", 2, "a rule the organisation calls noise")
    secret = site.issue("hardcoded-secret", 3, "a password in the source")
    site.write_findings([noise, secret])
    local = site.suppression("local-secret", fp=site.fingerprint(secret), phase=None)
    site.write_memory([local])
    return noise, secret


def _shared_index(site: Any, noise: dict[str, Any]) -> bytes:
    org_suppression = site.suppression("org-noise", fp=site.fingerprint(noise), phase=None)
    org_suppression["metadata"]["relatedFiles"] = ["**"]
    policy = policy_entry(
        never_suppress=["*:hardcoded-secret"],
        severity_overrides=(),
        reason="secrets are never accepted",
        author="security-team",
        now=NOW,
    )
    return dumps_js({"version": "1", "entries": [org_suppression, policy]})


def test_a_trusted_artifact_of_the_policy_repo_decides_first_and_protects_rules(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    noise, _ = _setup(site)
    run_id = policy_repo.add_run(event="push", head_branch="main", path=PERSIST)
    artifact = policy_repo.add_artifact(
        run_id=run_id, files={"index.json": _shared_index(site, noise)}
    )
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "1" and run.outputs["findings-kept"] == "1"
    body = _posted_body(gh)
    assert "org\\-noise" in body and "from the shared acme/policy@&#8203;main" in body
    assert "never suppressed" in body  # the local suppression of the secret was refused
    assert f"artifact {artifact}" in run.summary
    assert "unreachable" not in run.stdout


def test_the_checked_in_index_is_the_fallback_when_there_is_no_artifact(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    noise, _ = _setup(site)
    policy_repo.contents.add_file(".river/memory/index.json", _shared_index(site, noise))
    run = site.run(**{"shared-memory": "acme/policy@main"})
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "1"
    assert "memory/index" in run.summary  # the checked-in index, not an artifact


def test_the_checked_in_index_is_read_at_the_branchs_commit_not_its_name(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    noise, _ = _setup(site)
    policy_repo.add_run(event="push", head_branch="main", path=PERSIST)  # no artifact
    tip = policy_repo.git.refs["heads/main"]
    policy_repo.add_tag("main")  # a tag of the same name points elsewhere
    policy_repo.contents.add_file(".river/memory/index.json", _shared_index(site, noise))
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "1"
    (read,) = gh.requests_to(r"^/repos/acme/policy/contents/")
    assert read.query["ref"] == tip


@pytest.mark.parametrize(
    "origin",
    [
        {"event": "pull_request", "head_branch": "main"},  # a pull request's run
        {"event": "push", "head_branch": "feature"},  # another branch
        {"event": "push", "head_branch": "main", "head_repository_id": 9999},  # a fork's code
    ],
)
def test_memory_from_an_untrusted_origin_is_refused_and_the_review_says_so(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub, origin: dict[str, Any]
) -> None:
    noise, _ = _setup(site)
    run_id = policy_repo.add_run(**origin, path=PERSIST)
    policy_repo.add_artifact(run_id=run_id, files={"index.json": _shared_index(site, noise)})
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    _assert_failed_closed(run, gh)


def _assert_failed_closed(run: Any, gh: FakeGitHub) -> None:
    """Nothing of a planted layer applied, and no suppression at all (fail closed)."""
    assert run.outputs["findings-suppressed"] == "0" and run.outputs["findings-kept"] == "2"
    body = _posted_body(gh)
    assert "org\\-noise" not in body
    assert "Shared memory could not be read" in body and "failing closed" in body
    warnings = [line for line in run.stdout.splitlines() if line.startswith("::warning")]
    assert any("shared memory unreachable" in w and "failing closed" in w for w in warnings)
    assert "failing closed" in run.summary


def test_an_unreachable_policy_repo_without_a_kept_layer_fails_closed(
    site: Any, gh: FakeGitHub
) -> None:
    _setup(site)
    run = site.run(**{"shared-memory": "acme/missing"})
    assert run.code == 0, run.stderr + run.stdout
    # The local suppression of the secret is held back too: without the organisation's
    # policy no suppression can be shown not to hide a rule it protects.
    _assert_failed_closed(run, gh)
    assert "acme/missing" in run.stdout


def _tag_run(policy_repo: FakeGitHub, name: str = "main", **extra: Any) -> int:
    """A successful push run of the riverbed workflow for a tag called `name`, off main."""
    sha = policy_repo.add_tag(name)
    return policy_repo.add_run(event="push", head_branch=name, head_sha=sha, path=PERSIST, **extra)


def test_a_tag_named_main_in_the_policy_repo_does_not_publish_the_layer(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    noise, _ = _setup(site)
    policy_repo.add_run(event="push", head_branch="main", path=PERSIST)  # main exists
    run_id = _tag_run(policy_repo)
    policy_repo.add_artifact(run_id=run_id, files={"index.json": _shared_index(site, noise)})
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    _assert_failed_closed(run, gh)
    assert f"run {run_id} reported branch 'main', but commit" in run.stdout
    assert "is not on branch main (compare: ahead)" in run.stdout


def test_a_tag_on_a_commit_that_is_on_main_is_the_same_code_and_is_taken(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    """Positive control: the check is the commit, not the ref's kind or name."""
    noise, _ = _setup(site)
    on_main = policy_repo.add_run(event="push", head_branch="main", path=PERSIST)
    sha = policy_repo.runs[on_main]["head_sha"]
    policy_repo.add_run(event="push", head_branch="main", path=PERSIST)  # main moved on
    run_id = policy_repo.add_run(
        event="push", head_branch="main", head_sha=policy_repo.add_tag("main", sha), path=PERSIST
    )
    artifact = policy_repo.add_artifact(
        run_id=run_id, files={"index.json": _shared_index(site, noise)}
    )
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "1"  # org-noise, from the layer
    assert "never suppressed" in _posted_body(gh) and f"artifact {artifact}" in run.summary
    compares = gh.requests_to(r"^/repos/acme/policy/compare/")
    assert compares and all(r.status == 200 for r in compares)


def test_another_workflow_of_the_policy_repo_is_not_trusted(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    noise, _ = _setup(site)
    run_id = policy_repo.add_run(
        event="push", head_branch="main", path=".github/workflows/release.yml"
    )
    policy_repo.add_artifact(run_id=run_id, files={"index.json": _shared_index(site, noise)})
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    _assert_failed_closed(run, gh)
    # Named in shared-memory-trusted-workflows, the same run is trusted (positive control).
    again = site.run(**{"shared-memory": "acme/policy", WORKFLOWS: "release.yml"})
    assert again.code == 0, again.stderr + again.stdout
    assert again.outputs["findings-suppressed"] == "1"


def test_a_bad_shared_memory_trusted_workflows_input_fails_in_one_line(site: Any) -> None:
    _setup(site)
    run = site.run(**{"shared-memory": "acme/policy", WORKFLOWS: "../evil.sh"})
    assert run.code == 2
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and WORKFLOWS in errors[0]


def test_a_malformed_shared_memory_input_fails_in_one_line(site: Any) -> None:
    _setup(site)
    run = site.run(**{"shared-memory": "not a repository"})
    assert run.code == 2
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "shared-memory" in errors[0]
