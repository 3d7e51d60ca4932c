"""`riverbed demo` end to end, as a user runs it: a real process, exit 0, the story's facts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

IMPORTED = "decision-payments-v1"


def _demo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "riverbed", "demo", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One `riverbed demo --json` run in a fresh directory."""
    cwd = tmp_path_factory.mktemp("demo-json")
    done = _demo("--json", cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert list(cwd.iterdir()) == []  # nothing written where it was run
    return data


def _facts(story: dict[str, Any], key: str) -> dict[str, Any]:
    (step,) = [s for s in story["steps"] if s["key"] == key]
    facts: dict[str, Any] = step["facts"]
    return facts


def test_the_demo_finishes_every_step_and_cleans_up(story: dict[str, Any]) -> None:
    assert story["ok"] is True and story["failure"] is None
    keys = [s["key"] for s in story["steps"]]
    assert keys == [
        "seed",
        "pr1",
        "suppress",
        "pr2",
        "expire",
        "pr3",
        "evals",
        "status",
        "action-persist",
        "action-review",
        "action-comment",
        "action-review-again",
        "action-expire",
        "history-back",
        "thread-resolved",
        "reactions-candidate",
        "learn",
    ]
    assert [s["number"] for s in story["steps"]] == list(range(1, 18))
    assert "removed afterwards" in story["directory"]
    assert not Path(story["directory"].split(" ")[0]).exists()


def test_a_repeated_suppression_becomes_a_candidate_a_maintainer_promotes(
    story: dict[str, Any],
) -> None:
    learn = _facts(story, "learn")
    assert (learn["weight"], learn["prs"]) == (3, [4, 5, 6])
    assert learn["candidate"].startswith("promotion-rule-s101-")
    assert learn["glob"] == "tests/**/test_*.py"
    assert learn["promotedFrom"] == learn["candidate"]
    assert learn["promotedTo"].startswith("suppression-s101-")


def test_suppressed_count_goes_from_zero_to_one(story: dict[str, Any]) -> None:
    pr1, suppress, pr2 = (_facts(story, k) for k in ("pr1", "suppress", "pr2"))
    assert (pr1["findings"], pr1["kept"], pr1["suppressed"]) == (3, 3, 0)
    assert pr1["keptRules"] == ["F401", "B006", "E711"]
    assert suppress["fingerprint"] == pr1["f401Fingerprint"]
    assert (pr2["findings"], pr2["kept"], pr2["suppressed"]) == (2, 1, 1)
    assert pr2["keptRules"] == ["F841"]
    assert pr2["suppressedBy"] == [suppress["suppression"]]


def test_expiry_archives_the_lapsed_suppression_and_keeps_the_unparseable_one(
    story: dict[str, Any],
) -> None:
    seed, expire, pr3 = (_facts(story, k) for k in ("seed", "expire", "pr3"))
    assert expire["archived"] == [seed["legacySuppression"]]
    assert expire["legacyStatus"] == "archived"
    assert expire["unparseableWarned"] is True
    assert expire["importedStatus"] == "active"
    assert any("when payments v2 ships" in w for w in expire["warnings"])
    # Every read warned (library and action) in the same words; the story shows it once.
    (warning,) = story["warnings"]
    assert IMPORTED in warning and "unparseable expiry" in warning
    # With its suppression gone, the legacy finding is raised again.
    assert (pr3["kept"], pr3["suppressed"], pr3["keptRules"]) == (1, 0, ["E741"])


def test_the_eval_regression_is_caught(story: dict[str, Any]) -> None:
    evals = _facts(story, "evals")
    assert evals["status"] == "regressed" and evals["regressions"] >= 2
    assert {"precision", "falsePositiveRate"} <= set(evals["regressedMetrics"])
    assert len(evals["appended"]) == 1  # the second run; the first was appended before


def test_status_ends_act_one(story: dict[str, Any]) -> None:
    status = _facts(story, "status")
    assert status["unparseableExpiries"] == 1
    assert status["suppressionsInForce"] == 1
    assert status["byStatus"]["archived"] == 1


def test_the_action_persists_reviews_replies_and_expires(story: dict[str, Any]) -> None:
    persist = _facts(story, "action-persist")
    assert persist["outputs"]["upload"] == "true" and persist["uploaded"] is not None
    assert persist["outputs"]["restored-from"] == "workspace"

    review = _facts(story, "action-review")
    assert review["outputs"]["restored-from"] == str(persist["uploaded"])
    assert review["outputs"]["posted"] == "true"
    assert review["inlineComments"] == 2
    assert (review["outputs"]["findings-kept"], review["outputs"]["findings-suppressed"]) == (
        "2",
        "0",
    )
    assert "riverbed review" in review["body"]

    comment = _facts(story, "action-comment")
    assert comment["reactions"] == ["eyes", "+1"]
    assert comment["suppression"] in comment["reply"] and "✅" in comment["reply"]
    assert comment["uploaded"] is not None
    # The inline reply is refused (its run is not trusted) with the conversation form to post.
    assert "not in the action's `trusted-events`" in comment["refusal"]
    assert (
        comment["suggested"].startswith("/riverbed suppress ")
        and comment["suggested"] in (comment["refusal"])
    )

    again = _facts(story, "action-review-again")
    assert (again["outputs"]["findings-kept"], again["outputs"]["findings-suppressed"]) == (
        "1",
        "1",
    )
    assert again["inlineComments"] == 0 and again["suppressionListed"] is True

    expire = _facts(story, "action-expire")
    assert expire["outputs"]["restored-from"] == str(comment["uploaded"])
    assert expire["outputs"]["archived"] == "1"
    assert expire["commentSuppressionStatus"] == "archived"
    assert expire["importedStatus"] == "active" and expire["unparseableWarned"] is True
    assert expire["uploaded"] is not None


def test_the_posted_texts_are_in_the_story_verbatim(story: dict[str, Any]) -> None:
    review = next(s for s in story["steps"] if s["key"] == "action-review")
    assert review["block"]["text"] == review["facts"]["body"]
    comment = next(s for s in story["steps"] if s["key"] == "action-comment")
    assert comment["block"]["text"] == comment["facts"]["reply"]


def test_human_output_tells_the_story(tmp_path: Path) -> None:
    target = tmp_path / "demo"
    done = _demo("--dir", str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # Nothing on stderr: no library's log (PyGithub's "Request GET /user failed with 403").
    assert done.stderr == ""
    out = done.stdout
    for expected in (
        f"riverbed demo — working in {target}",
        "Act 1: the memory, through the library",
        " 2. PR #1 “Look up users by name”: ruff 0.17.6 reports 3",
        "kept 3, suppressed 0",
        " 4. PR #2 “Validate names first, add cart totals”: 2 findings, 1 suppressed",
        "F401 is not raised again",
        " 5. Day 40, expire: archived 1, warned 1",
        "kept decision-payments-v1 active with a warning",
        "Warnings along the way (1, each shown once):",
        "regressions caught",
        " 8. riverbed status:",
        "Act 2: the GitHub Action itself, against a local GitHub stand-in",
        "review posted with 2 inline comments",
        "┌─ the review body as posted to PR #4 (GitHub stand-in)",
        "## riverbed review · midstream phase",
        "┌─ the reply as posted in the conversation (GitHub stand-in)",
        "reactions eyes +1",
        "13. mode expire (schedule, day 70)",
        "GitHub was a local stand-in (riverbed.testing.FakeGitHub on 127.0.0.1)",
    ):
        assert expected in out, expected
    # Posted Markdown reads as GitHub shows it: no escapes, entities or hidden markers.
    assert "`shop.signals` imported but unused" in out
    assert "for @maria." in out
    for raw in ("\\`", "\\.", "&#8203;", "&lt;", "<code>", "<!-- riverbed:"):
        assert raw not in out, raw
    assert out.count(str(target)) == 2  # the heading and the status command, not repeated
    # --dir keeps everything: the team's index and each action run's files.
    assert (target / "repo" / ".river" / "memory" / "index.json").is_file()
    assert (target / "runs" / "2-review" / "step-summary.md").read_text(encoding="utf-8")
    assert f"riverbed --index {target}" in out


def test_a_non_empty_dir_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me", encoding="utf-8")
    done = _demo("--dir", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    assert "not empty" in done.stderr and "Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_the_conversation_follows_the_code(story: dict[str, Any]) -> None:
    """Issue 29's story: back after a fix on main, a resolved thread, a suggestion, a 👎."""
    back = _facts(story, "history-back")
    assert back["back"] and all(f"fixed in `{back['fixedIn']}`" in line for line in back["back"])
    thread = _facts(story, "thread-resolved")
    assert thread["resolved"] == 1 and thread["reply"].splitlines()[-1].startswith("Fixed in ")
    assert thread["suggestion"].strip() == "if cart is None:"
    candidate = _facts(story, "reactions-candidate")["candidate"]
    assert candidate["ruleId"] == "F401" and len(candidate["evidence"]) == 3
    assert "drive-by" not in {e["user"] for e in candidate["evidence"]}
