"""Review mode: the pull request's `.river/config.toml` cannot re-grade a neverSuppress rule down.

The action runs against the GitHub stand-in with the organisation's layer from a trusted
artifact of acme/policy that never suppresses `*:hardcoded-secret`. The pull request's own
config re-grades that rule to `info` under `fail-on: minor`: the step still fails, and the
refusal is in the log (`::warning::`), the job summary and the posted review. Positive
controls: the same config may raise the rule, and may lower a rule the policy leaves alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from riverbed.index.jsonbytes import dumps_js
from riverbed.organisation.policy import policy_entry
from riverbed.testing.github.server import FakeGitHub

from .conftest import NOW


@pytest.fixture
def policy_repo(gh: FakeGitHub) -> Iterator[FakeGitHub]:
    """acme/policy with a trusted push artifact never suppressing `*:hardcoded-secret`."""
    with FakeGitHub(owner="acme", repo="policy", repository_id=3003, token=gh.token) as org:
        gh.add_sibling(org)
        policy = policy_entry(
            never_suppress=["*:hardcoded-secret"],
            severity_overrides=(),
            reason="secrets are never accepted",
            author="security-team",
            now=NOW,
        )
        # A run of the policy repository's riverbed workflow (shared-memory-trusted-workflows).
        run_id = org.add_run(
            event="push", head_branch="main", path=".github/workflows/riverbed-persist.yml"
        )
        index = dumps_js({"version": "1", "entries": [policy]})
        org.add_artifact(run_id=run_id, files={"index.json": index})
        yield org


def _setup(site: Any, config: str) -> None:
    noise = site.issue("style-noise", 2, "a rule the organisation leaves alone", severity="major")
    secret = site.issue("hardcoded-secret", 3, "a password in the source", severity="major")
    site.write_findings([noise, secret])
    site.write_memory([])
    path = site.workspace / ".river" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[severity-overrides]\n{config}\n")


def _body(gh: FakeGitHub) -> str:
    [post] = [r for r in gh.requests if r.method == "POST" and r.path.endswith("/reviews")]
    body: str = json.loads(post.body)["body"]
    return body


def test_a_pull_requests_config_cannot_grade_the_protected_rule_down(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    _setup(site, '"*:hardcoded-secret" = "info"\n"*:style-noise" = "info"')
    run = site.run(fail_on="minor", **{"shared-memory": "acme/policy"})
    assert run.code == 1, run.stdout + run.stderr  # the secret still fails the gate
    assert "unreachable" not in run.stdout
    warnings = [line for line in run.stdout.splitlines() if line.startswith("::warning")]
    assert any("*:hardcoded-secret=info" in w and "refused" in w for w in warnings)
    assert "refused for 1 finding" in run.summary
    assert "never lower" in run.summary
    assert "refused for 1 finding" in _body(gh).replace("\\", "")
    assert run.outputs["findings-kept"] == "2"


def test_the_config_may_still_raise_it_and_lower_an_unprotected_rule(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    _setup(site, '"*:hardcoded-secret" = "critical"\n"*:style-noise" = "info"')
    run = site.run(fail_on="critical", **{"shared-memory": "acme/policy"})
    assert run.code == 1, run.stdout + run.stderr  # raised to critical: it fails that gate
    assert "refused" not in run.stdout + run.summary
    _setup(site, '"*:style-noise" = "info"')
    run = site.run(fail_on="major", **{"shared-memory": "acme/policy"})
    assert run.code == 1  # the secret stays major; the noise, lowered, no longer counts
    assert "1 finding set to info" in run.summary.replace("\\", "")
