"""The real entrypoint as a subprocess, as the composite action runs it, for one comment."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from riverbed.testing.events import issue_comment_event, write_event
from riverbed.testing.fake_github import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]


def test_entrypoint_applies_a_comment_and_stages_the_index(tmp_path: Path) -> None:
    with FakeGitHub(owner="octo", repo="demo", repository_id=1001) as gh:
        gh.add_pull(number=7, head_sha="b" * 40)
        gh.set_permission("maintainer", "maintain")
        body = '/riverbed wontfix "Legacy logging stays" --files "src/legacy/**"\nKept until 2028.'
        comment_id = gh.add_issue_comment(issue=7, body=body, user="maintainer")
        payload = issue_comment_event(7, comment_id, body, "maintainer", api_url=gh.api_url)
        temp = tmp_path / "temp"
        temp.mkdir()
        (tmp_path / "out").touch()
        env = {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "GITHUB_API_URL": gh.api_url,
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_EVENT_NAME": "issue_comment",
            "GITHUB_EVENT_PATH": str(write_event(payload, tmp_path / "event.json")),
            "GITHUB_WORKSPACE": str(tmp_path),
            "RUNNER_TEMP": str(temp),
            "GITHUB_OUTPUT": str(tmp_path / "out"),
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
            "INPUT_GITHUB_TOKEN": gh.token,
            "INPUT_MODE": "auto",
            "INPUT_COMMAND_PERMISSION": "maintain",
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
        outputs = (tmp_path / "out").read_text()
        assert "upload" in outputs and "true" in outputs
        staged = json.loads((temp / "riverbed-artifact" / "index.json").read_text())
        (wontfix,) = staged["entries"]
        assert wontfix["type"] == "wontfix" and wontfix["content"] == "Kept until 2028."
        assert wontfix["metadata"]["author"] == "maintainer"
        replies = [c["body"] for c in gh.issue_comments[7] if c["id"] != comment_id]
        assert len(replies) == 1 and wontfix["id"] in replies[0]
        assert gh.reactions[("issue_comment", comment_id)] == ["eyes", "+1"]
        log = (done.stdout + done.stderr).replace(f"::add-mask::{gh.token}", "")
        assert gh.token not in log  # only the mask command names it
