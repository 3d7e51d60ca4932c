"""neverSuppress holds when the policy repository cannot be read (issue 36 §5).

Attacks through the real entrypoint against the stand-in: a flood of newer pull-request
artifacts in the policy repository, a broken or hostile artifact on its `main`, and a
kept layer planted in the base branch's index. Persist keeps the last good layer in this
repository's memory; review applies it, loudly, or fails closed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from riverbed.index.jsonbytes import dumps_js
from riverbed.testing.events import push_event
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.runner_env import RunnerPaths, runner_env

from .conftest import REPO
from .test_shared_memory import PERSIST, _posted_body, _setup, _shared_index

ORG_ID = 3003
KIND = "riverbed-shared-layer"


@pytest.fixture
def policy_repo(gh: FakeGitHub) -> Iterator[FakeGitHub]:
    """acme/policy, served on the same host as octo/demo and reading the same token."""
    with FakeGitHub(owner="acme", repo="policy", repository_id=ORG_ID, token=gh.token) as org:
        gh.add_sibling(org)
        yield org


def _publish(site: Any, policy_repo: FakeGitHub, noise: dict[str, Any]) -> tuple[int, int]:
    """A trusted push run of the policy's memory workflow with a good layer: (run, artifact)."""
    run_id = policy_repo.add_run(event="push", head_branch="main", path=PERSIST)
    files = {"index.json": _shared_index(site, noise)}
    return run_id, policy_repo.add_artifact(run_id=run_id, files=files)


def _persist(site: Any, gh: FakeGitHub, name: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    """Run persist mode for a push to octo/demo's main with `shared-memory`; (process, paths)."""
    paths = RunnerPaths.under(site.root / name, workspace=site.workspace)
    paths.write_event(push_event(owner="octo", repo="demo", repository_id=1001, api_url=gh.api_url))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.environ.get("PYTHONPATH", str(REPO)),
        **runner_env(
            paths,
            api_url=gh.api_url,
            token=gh.token,
            event_name="push",
            inputs={"mode": "persist", "shared-memory": "acme/policy"},
        ),
    }
    done = subprocess.run(
        [sys.executable, str(REPO / "entrypoint.py")],
        env=env,
        cwd=site.workspace,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done, paths


def _kept(staged: bytes) -> list[dict[str, Any]]:
    entries = json.loads(staged)["entries"]
    return [e for e in entries if e.get("context", {}).get("kind") == KIND]


def _staged(paths: Any) -> bytes:
    data: bytes = (paths.temp / "riverbed-artifact" / "index.json").read_bytes()
    return data


def test_205_newer_pull_request_artifacts_do_not_hide_the_trusted_layer(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    noise, _ = _setup(site)
    _, artifact = _publish(site, policy_repo, noise)
    for number in range(205):
        flood = policy_repo.add_run(event="pull_request", head_branch=f"pr-{number}", path=PERSIST)
        policy_repo.add_artifact(run_id=flood, files={"index.json": b'{"version": "1"}'})
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "1"  # org-noise, by the trusted layer
    assert "never suppressed" in _posted_body(gh) and f"artifact {artifact}" in run.summary
    # The flood is never looked at: runs listed by filter, one run's artifacts, one download.
    asked = gh.requests_to(r"^/repos/acme/policy/")
    assert len(asked) <= 12, [r.path for r in asked]
    assert not gh.requests_to(r"^/repos/acme/policy/actions/runs/\d+$")


def test_a_flood_of_tag_runs_named_main_never_publishes_and_fails_closed(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    """The one flood the runs API cannot filter out (a policy writer's tag pushes, whose
    head_branch reads `main`) pushes the trusted run past the runs looked at: the layer is
    then unreachable, never the tags' layer, and without a kept layer the review fails closed."""
    noise, _ = _setup(site)
    _publish(site, policy_repo, noise)
    tag = policy_repo.add_tag("main")
    for _ in range(201):
        flood = policy_repo.add_run(event="push", head_branch="main", head_sha=tag, path=PERSIST)
        policy_repo.add_artifact(run_id=flood, files={"index.json": _shared_index(site, noise)})
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "0"  # neither the tags' layer nor local
    warning = next(w for w in run.stdout.splitlines() if "shared memory unreachable" in w)
    assert "looked at the newest 200 successful runs" in warning and "(there are more)" in warning
    assert "failing closed" in warning
    assert len(gh.requests_to(r"^/repos/acme/policy/compare/")) == 1  # one commit, asked once


def _broken(kind: str) -> dict[str, Any]:
    if kind == "not a zip":
        return {"zip_bytes": b"PK\x03\x04 not really a zip", "digest": None}
    if kind == "invalid index":
        return {"files": {"index.json": b'{"version": "1", "entries": [{"id": 1}]}'}}
    return {"files": {"index.json": b"{}", "../../escape.json": b"{}"}}  # a zip slip


@pytest.mark.parametrize("kind", ["not a zip", "invalid index", "zip slip"])
def test_a_hostile_artifact_on_policy_main_gets_the_last_good_layer_applied_loudly(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub, kind: str
) -> None:
    noise, secret = _setup(site)
    local_noise = site.suppression("local-noise", fp=site.fingerprint(noise), phase=None)
    local_secret = site.suppression("local-secret", fp=site.fingerprint(secret), phase=None)
    site.write_memory([local_noise, local_secret])
    policy_run, _ = _publish(site, policy_repo, noise)
    # A trusted persist run of octo/demo reads the layer and keeps it in memory.
    done, paths = _persist(site, gh, "persist1")
    assert done.returncode == 0, done.stdout + done.stderr
    staged = _staged(paths)
    (kept,) = _kept(staged)
    details = kept["context"]["details"]
    assert kept["context"]["neverSuppress"] == ["*:hardcoded-secret"]
    assert details["repository"] == "acme/policy" and details["run"] == policy_run
    assert kept["context"]["commit"] == policy_repo.runs[policy_run]["head_sha"]
    gh.add_artifact(files={"index.json": staged})  # what the upload step would do
    # Then a policy-repository writer's run on main uploads something hostile or broken.
    bad_run = policy_repo.add_run(event="push", head_branch="main", path=PERSIST)
    add = policy_repo.add_artifact_zip if kind == "not a zip" else policy_repo.add_artifact
    add(run_id=bad_run, **_broken(kind))
    run = site.run(**{"shared-memory": "acme/policy"})
    assert run.code == 0, run.stderr + run.stdout
    # The kept policy still protects the secret; the local noise suppression still applies.
    assert run.outputs["findings-suppressed"] == "1" and run.outputs["findings-kept"] == "1"
    body = _posted_body(gh)
    assert "rule \\*\\:hardcoded\\-secret by policy of shared acme/policy@&#8203;main" in body
    date = details["layerDate"]
    (warning,) = [w for w in run.stdout.splitlines() if "shared memory unreachable" in w]
    assert warning.startswith("::warning") and "last good shared layer" in warning
    assert date in warning and kept["id"] in warning
    shown = date[:16].replace("-", "\\-").replace(":", "\\:")  # as Markdown-escaped text
    for text in (run.summary, body):
        assert "could not be read\\: applied the last good shared layer" in text
        assert f"dated {shown}" in text
    # A later persist while the artifact is still bad keeps the good layer, loudly.
    again, paths2 = _persist(site, gh, "persist2")
    assert again.returncode == 0, again.stdout + again.stderr
    assert [e["id"] for e in _kept(_staged(paths2))] == [kept["id"]]
    assert any(
        line.startswith("::warning") and "shared layer: not kept" in line
        for line in again.stdout.splitlines()
    )


def test_the_same_layer_twice_is_kept_once_and_a_new_one_supersedes_it(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    """Positive control of persist: a good layer replaces the kept one, the same one is a no-op."""
    noise, _ = _setup(site)
    _publish(site, policy_repo, noise)
    done, paths = _persist(site, gh, "persist1")
    assert done.returncode == 0, done.stdout + done.stderr
    gh.add_artifact(files={"index.json": _staged(paths)})
    same, paths2 = _persist(site, gh, "persist2")
    assert "already keeps" in same.stdout
    assert len(_kept(_staged(paths2))) == 1
    gh.add_artifact(files={"index.json": _staged(paths2)})
    _publish(site, policy_repo, noise)  # a new commit on the policy's main
    newer, paths3 = _persist(site, gh, "persist3")
    assert newer.returncode == 0, newer.stdout + newer.stderr
    old, new = _kept(_staged(paths3))
    assert old["status"] == "superseded" and old["supersededBy"] == new["id"]


def test_a_kept_layer_in_the_base_branch_file_is_not_trusted(
    site: Any, gh: FakeGitHub, policy_repo: FakeGitHub
) -> None:
    """A writer could plant a permissive kept layer in the checked-in index; only memory of
    a trusted artifact may speak for the organisation, so the review fails closed."""
    _, secret = _setup(site)
    planted = {
        "id": "shared-layer-planted",
        "type": "decision",
        "title": "a layer that protects nothing",
        "content": "planted",
        "metadata": {"createdAt": "2026-11-30T00:00:00Z", "author": "mallory"},
        "context": {
            "kind": KIND,
            "branch": "main",
            "source": "artifact 1",
            "neverSuppress": [],
            "severityOverrides": {},
            "details": {"repository": "acme/policy", "layerDate": "2026-11-30T00:00:00Z"},
        },
    }
    local = site.suppression("local-secret", fp=site.fingerprint(secret), phase=None)
    site.index_path.write_bytes(dumps_js({"version": "1", "entries": [local, planted]}))
    site.commit_base("plant a kept layer")
    run = site.run(**{"shared-memory": "acme/policy"})  # acme/policy has nothing trusted
    assert run.code == 0, run.stderr + run.stdout
    assert run.outputs["findings-suppressed"] == "0"
    warning = next(w for w in run.stdout.splitlines() if "shared memory unreachable" in w)
    assert "not a trusted artifact" in warning and "failing closed" in warning
