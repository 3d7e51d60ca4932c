"""Artifact poisoning through the fake GitHub: nothing untrusted or unsafe is ever restored.

Each attempt runs the action's persist mode in this process (`run_action`, as entrypoint.py
does, over real HTTP to `riverbed.testing.FakeGitHub`) with a trusted older artifact and a
workspace index present, plus one poisoned artifact uploaded later. An untrusted source is
skipped, said so, and the trusted artifact is restored; a hostile payload from a trusted run
fails the step, says why, and stages nothing. The poisoned entry is never staged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import io
import json
import random
import secrets
import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import reliability_support as support

from riverbed.action.config import build_config, env_input_reader
from riverbed.action.main import run_action
from riverbed.action.runner import Runner
from riverbed.errors import RiverbedError
from riverbed.github.artifact_zip import ZipLimits
from riverbed.testing.events import push_event, write_event
from riverbed.testing.github.server import FakeGitHub

OWNER, REPO, REPO_ID = "octo", "demo", 1001
TRUSTED_INDEX = support.index_bytes([support.make_entry("trusted-1")])
WORKSPACE_INDEX = support.index_bytes([support.make_entry("workspace-1")])
POISON_INDEX = support.index_bytes([support.make_entry("poison-1")])


@dataclass
class Outcome:
    """What one run of the action did."""

    code: int
    log: str  # what the action printed (workflow commands, log) and its job summary
    staged: Path
    outputs: dict[str, str]
    trusted_artifact: int
    poisoned_artifact: int

    def staged_ids(self) -> set[str]:
        document = json.loads(self.staged.read_bytes())
        return {e["id"] for e in document["entries"]}


def _zip(members: dict[str, bytes], *, symlinks: tuple[str, ...] = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if name in symlinks:
                info.create_system = 3
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, data)
    return buffer.getvalue()


Poison = Callable[[FakeGitHub, random.Random], int]
ENTRYPOINT = Path(__file__).resolve().parents[2] / "entrypoint.py"


def _entrypoint() -> int:
    """entrypoint.py's main() in this process, reading the environment set up for it."""
    spec = importlib.util.spec_from_file_location("riverbed_entrypoint", ENTRYPOINT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    code: int = module.main()
    return code


def _outputs(path: Path) -> dict[str, str]:
    """`name=value` lines of $GITHUB_OUTPUT (heredoc values keep only their first line)."""
    outputs: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if "<<" in line and "=" not in line.split("<<")[0]:
            outputs[line.split("<<")[0]] = lines[number + 1]
        elif "=" in line:
            name, _, value = line.partition("=")
            outputs[name] = value
    return outputs


def _with_limits(env: dict[str, str], limits: ZipLimits) -> tuple[int, dict[str, str]]:
    """What entrypoint.py does, with zip limits no input can set (to test a small cap)."""
    runner = Runner()
    try:
        config = dataclasses.replace(build_config(env_input_reader(env), env), zip_limits=limits)
        code = run_action(config, runner)
    except RiverbedError as exc:
        runner.error(str(exc))
        runner.set_output("upload", False)
        code = exc.exit_code
    return code, runner.outputs


def _run(
    tmp: Path,
    poison: Poison,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    repository_id: int = REPO_ID,
    limits: ZipLimits | None = None,
    extra_env: dict[str, str] | None = None,
) -> Outcome:
    workspace, runner_temp = tmp / "workspace", tmp / "runner-temp"
    index = workspace / ".river" / "memory" / "index.json"
    index.parent.mkdir(parents=True)
    runner_temp.mkdir()
    index.write_bytes(WORKSPACE_INDEX)
    output, summary = tmp / "output.txt", tmp / "summary.md"
    output.write_text("")
    summary.write_text("")
    with FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID) as fake:
        trusted = fake.add_artifact(files={"index.json": TRUSTED_INDEX})
        poisoned = poison(fake, rng)
        event = write_event(
            push_event(owner=OWNER, repo=REPO, repository_id=repository_id, api_url=fake.api_url),
            tmp / "event.json",
        )
        env = {
            "GITHUB_ACTIONS": "true",
            "GITHUB_API_URL": fake.api_url,
            "GITHUB_REPOSITORY": f"{OWNER}/{REPO}",
            "GITHUB_REPOSITORY_ID": str(repository_id),
            "GITHUB_EVENT_NAME": "push",
            "GITHUB_WORKFLOW_REF": "octo/demo/.github/workflows/riverbed.yml@refs/heads/main",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_WORKSPACE": str(workspace),
            "RUNNER_TEMP": str(runner_temp),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "INPUT_GITHUB_TOKEN": fake.token,
            "INPUT_MODE": "persist",
        } | (extra_env or {})
        for name, value in env.items():
            if value:
                monkeypatch.setenv(name, value)
            else:
                monkeypatch.delenv(name, raising=False)
        if limits is None:
            code, outputs = _entrypoint(), _outputs(output)
        else:
            code, outputs = _with_limits(env, limits)
    captured = capsys.readouterr()
    support.count("poisoning attempts")
    # captured.err holds only the stand-in server's own thread noise (a client hanging up
    # mid-download); what the action says goes to stdout, as on a runner.
    return Outcome(
        code,
        captured.out + summary.read_text(),
        runner_temp / "riverbed-artifact" / "index.json",
        outputs,
        trusted,
        poisoned,
    )


# ----------------------------------------------------------------- untrusted sources
def _fork(fake: FakeGitHub, rng: random.Random) -> int:
    run = fake.add_run(event="push", head_repository_id=rng.randint(2000, 9999))
    return fake.add_artifact(run_id=run, files={"index.json": POISON_INDEX})


def _untrusted_event(fake: FakeGitHub, rng: random.Random) -> int:
    event = rng.choice(["pull_request", "pull_request_target", "workflow_run", "issues"])
    run = fake.add_run(event=event)
    return fake.add_artifact(run_id=run, files={"index.json": POISON_INDEX})


def _fork_pull_request(fake: FakeGitHub, rng: random.Random) -> int:
    run = fake.add_run(event="pull_request", head_repository_id=rng.randint(2000, 9999))
    return fake.add_artifact(run_id=run, files={"index.json": POISON_INDEX})


def _run_of(**run: str) -> Poison:
    """A poison: an artifact uploaded by a run of this repository with these attributes."""

    def poison(fake: FakeGitHub, rng: random.Random) -> int:
        return fake.add_artifact(run_id=fake.add_run(**run), files={"index.json": POISON_INDEX})

    return poison


UNTRUSTED: dict[str, tuple[Poison, str]] = {
    "fork artifact": (_fork, "not uploaded by a run of this repository's own code"),
    "pull_request-run artifact": (_untrusted_event, "which is not in trusted-events"),
    "fork pull_request artifact": (_fork_pull_request, "not uploaded by a run of this"),
    # Issue 14: a writer's branch with an edited workflow, a Dependabot branch, another
    # workflow of the repository uploading an artifact of the same name, a review-comment
    # run (which uses the pull request's copy of the workflow file).
    "push on a feature branch": (
        _run_of(event="push", head_branch="feature/edited-workflow"),
        "which is not in trusted-branches (main)",
    ),
    "push on a dependabot branch": (
        _run_of(event="push", head_branch="dependabot/pip/requests-2.32.0"),
        "which is not in trusted-branches (main)",
    ),
    "workflow_dispatch on a branch": (
        _run_of(event="workflow_dispatch", head_branch="wip"),
        "which is not in trusted-branches",
    ),
    "another workflow of the repository": (
        _run_of(event="push", path=".github/workflows/release.yml"),
        "'.github/workflows/release.yml', which is not in trusted-workflows",
    ),
    "another repository's workflow": (
        _run_of(event="push", path="evil/repo/.github/workflows/riverbed.yml@refs/heads/main"),
        "which is not in trusted-workflows",
    ),
    "pull_request_review_comment run": (
        _run_of(event="pull_request_review_comment", head_branch="feature/x"),
        "'pull_request_review_comment', which is not in trusted-events",
    ),
}


@pytest.mark.parametrize("kind", sorted(UNTRUSTED))
def test_untrusted_artifacts_are_skipped_and_said_so(
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    poison, needle = UNTRUSTED[kind]
    rng = random.Random(f"untrusted-{kind}")
    for attempt in range(support.scale(1, 25)):
        outcome = _run(tmp_path / str(attempt), poison, rng, monkeypatch, capsys)
        assert outcome.code == 0, outcome.log
        assert outcome.outputs["restored-from"] == str(outcome.trusted_artifact)
        assert outcome.staged_ids() == {"trusted-1"}
        assert needle in outcome.log
        assert str(outcome.poisoned_artifact) in outcome.log
        support.count(f"poisoning attempts refused: {kind}")


def test_artifacts_of_another_repository_id_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The action runs for repository 4004; the listing's runs all belong to 1001."""
    outcome = _run(tmp_path, _fork, random.Random(7), monkeypatch, capsys, repository_id=4004)
    assert outcome.code == 0, outcome.log
    assert outcome.outputs["restored-from"] == "workspace"
    assert outcome.staged_ids() == {"workspace-1"}
    assert "ignored 2 artifacts not uploaded by a run of this repository" in outcome.log
    support.count("poisoning attempts refused: another repository id")


# ----------------------------------------------------------------- hostile payloads
def _slip(fake: FakeGitHub, rng: random.Random) -> int:
    name = rng.choice(
        [
            "../evil.sh",
            "../../.bashrc",
            "/etc/evil",
            "a/../../evil",
            "C:/evil",
            "..\\evil",
            "index.json/../../evil",
        ]
    )
    return fake.add_artifact_zip(
        zip_bytes=_zip({"index.json": POISON_INDEX, name: b"echo pwned"}), digest="auto"
    )


def _symlink(fake: FakeGitHub, rng: random.Random) -> int:
    return fake.add_artifact_zip(
        zip_bytes=_zip({"index.json": b"/etc/passwd"}, symlinks=("index.json",)), digest="auto"
    )


def _bomb(fake: FakeGitHub, rng: random.Random) -> int:
    size = rng.choice([8, 16, 32]) * 1024 * 1024
    bomb = POISON_INDEX[:-3] + b" " * size + b"}\n"
    return fake.add_artifact_zip(zip_bytes=_zip({"index.json": bomb}), digest="auto")


def _wrong_digest(fake: FakeGitHub, rng: random.Random) -> int:
    wrong = "sha256:" + hashlib.sha256(rng.randbytes(16)).hexdigest()
    return fake.add_artifact_zip(zip_bytes=_zip({"index.json": POISON_INDEX}), digest=wrong)


def _many_members(fake: FakeGitHub, rng: random.Random) -> int:
    members = {"index.json": POISON_INDEX} | {f"junk-{n}": b"x" for n in range(rng.randint(9, 40))}
    return fake.add_artifact_zip(zip_bytes=_zip(members), digest="auto")


def _not_a_zip(fake: FakeGitHub, rng: random.Random) -> int:
    return fake.add_artifact_zip(zip_bytes=rng.randbytes(rng.randint(0, 4096)), digest="auto")


def _corrupt_index(fake: FakeGitHub, rng: random.Random) -> int:
    cut = POISON_INDEX[: rng.randint(1, len(POISON_INDEX) - 2)]
    return fake.add_artifact(files={"index.json": cut})


HOSTILE: dict[str, tuple[Poison, str]] = {
    "zip slip": (_slip, "refused member"),
    "symlink member": (_symlink, "symbolic link"),
    "zip bomb": (_bomb, "zip bomb"),
    "wrong digest": (_wrong_digest, "download damaged twice"),
    "too many members": (_many_members, "members"),
    "not a zip": (_not_a_zip, "not a complete zip archive"),
    "corrupt index": (_corrupt_index, "corrupt memory index"),
}


def _assert_refused(outcome: Outcome, needle: str, root: Path) -> None:
    assert outcome.code != 0, outcome.log
    assert not outcome.staged.exists()
    assert outcome.outputs["upload"] == "false"
    assert "::error::" in outcome.log
    assert needle in outcome.log, outcome.log[-2000:]
    assert "Traceback" not in outcome.log
    # Nothing escaped from the archive anywhere under the run's folders.
    assert not [p for p in root.rglob("*") if "evil" in p.name or p.name == ".bashrc"]


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_payloads_fail_the_step_and_stage_nothing(
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    poison, needle = HOSTILE[kind]
    rng = random.Random(f"hostile-{kind}")
    attempts = support.scale(1, 3 if kind == "zip bomb" else 15)
    for attempt in range(attempts):
        root = tmp_path / str(attempt)
        outcome = _run(root, poison, rng, monkeypatch, capsys)
        _assert_refused(outcome, needle, root)
        support.count(f"poisoning attempts refused: {kind}")


def test_a_valid_index_ten_times_over_the_cap_is_not_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cap = 256 * 1024
    entries = [
        support.make_entry(f"big-{n:05d}", content=secrets.token_hex(512)) for n in range(2100)
    ]
    big = support.index_bytes(entries)
    assert 10 * cap <= len(big) < 11 * cap

    def oversized(fake: FakeGitHub, rng: random.Random) -> int:
        return fake.add_artifact(files={"index.json": big})

    limits = ZipLimits(max_uncompressed_bytes=cap)
    root = tmp_path / "cap"
    outcome = _run(root, oversized, random.Random(1), monkeypatch, capsys, limits=limits)
    _assert_refused(outcome, f"exceeds {cap} bytes", root)
    support.count("poisoning attempts refused: valid index 10x over the cap")


# ----------------------------------------------------------------- provenance inputs
def test_trusted_branches_and_workflows_widen_trust_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A release branch and the persist workflow, named in the inputs, are trusted."""
    release = _run_of(event="push", head_branch="release/2", path=".github/workflows/persist.yml")
    extra = {
        "INPUT_TRUSTED_BRANCHES": "main, release/2",
        "INPUT_TRUSTED_WORKFLOWS": "persist.yml",
    }
    outcome = _run(tmp_path, release, random.Random(3), monkeypatch, capsys, extra_env=extra)
    assert outcome.code == 0, outcome.log
    assert outcome.outputs["restored-from"] == str(outcome.poisoned_artifact)
    assert outcome.staged_ids() == {"poison-1"}


def test_a_run_path_in_owner_repo_at_ref_form_is_the_same_workflow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    newer = _run_of(event="push", path=f"{OWNER}/{REPO}/.github/workflows/riverbed.yml@main")
    outcome = _run(tmp_path, newer, random.Random(4), monkeypatch, capsys)
    assert outcome.outputs["restored-from"] == str(outcome.poisoned_artifact), outcome.log


def test_without_a_workflow_ref_nothing_is_trusted_and_the_step_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = {"GITHUB_WORKFLOW_REF": ""}
    outcome = _run(tmp_path, _fork, random.Random(5), monkeypatch, capsys, extra_env=extra)
    assert outcome.code == 2
    assert "GITHUB_WORKFLOW_REF is not set" in outcome.log and "trusted-workflows" in outcome.log
    assert not outcome.staged.exists() and outcome.outputs["upload"] == "false"
