"""The real entrypoint as a subprocess, as the composite action runs it, for one comment."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from riverbed.memory.identity import is_identity_entry
from riverbed.testing.events import issue_comment_event
from riverbed.testing.github.server import FakeGitHub
from riverbed.testing.runner_env import RunnerPaths, runner_env

ROOT = Path(__file__).resolve().parents[3]


def test_entrypoint_applies_a_comment_and_stages_the_index(tmp_path: Path) -> None:
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as gh:
        gh.add_pull(number=7, head_sha="b" * 40)
        gh.set_permission("maintainer", "maintain")
        body = '/riverbed wontfix "Legacy logging stays" --files "src/legacy/**"\nKept until 2028.'
        comment_id = gh.add_issue_comment(issue=7, body=body, user="maintainer")
        payload = issue_comment_event(7, comment_id, body, "maintainer", api_url=gh.api_url)
        paths = RunnerPaths.under(tmp_path, workspace=tmp_path)
        paths.write_event(payload)
        env = {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            **runner_env(
                paths,
                api_url=gh.api_url,
                token=gh.token,
                event_name="issue_comment",
                repository_id=None,
                inputs={"mode": "auto", "command-permission": "maintain"},
            ),
        }
        done = subprocess.run(
            [sys.executable, str(ROOT / "entrypoint.py")],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert paths.outputs()["upload"] == "true"
        staged = json.loads((paths.temp / "riverbed-artifact" / "index.json").read_text())
        # The trusted run also pins the login its reaction was answered with (one entry).
        (wontfix,) = [e for e in staged["entries"] if not is_identity_entry(e)]
        assert wontfix["type"] == "wontfix" and wontfix["content"] == "Kept until 2028."
        assert wontfix["metadata"]["author"] == "maintainer"
        replies = [c["body"] for c in gh.issue_comments[7] if c["id"] != comment_id]
        assert len(replies) == 1 and wontfix["id"] in replies[0]
        assert gh.reactions[("issue_comment", comment_id)] == ["eyes", "+1"]
        log = (done.stdout + done.stderr).replace(f"::add-mask::{gh.token}", "")
        assert gh.token not in log  # only the mask command names it
