"""Where lessons show up: insights, the candidates issue, and lessons without ground."""

from __future__ import annotations

import json
import shlex
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from riverbed.evals.history import eval_history
from riverbed.index.model import entries_by_id, entry_status
from riverbed.index.store import load_memory
from riverbed.lessons.harvest_file import write_harvest
from riverbed.lessons.model import Harvest, Utterance
from riverbed.memory.learning.analysis import analyze_memory
from riverbed.memory.learning.candidates import offers
from riverbed.memory.learning.issue_plan import plan_issues
from riverbed.memory.learning.lesson_view import lesson_rows, lessons_markdown
from riverbed.testing.cli_run import run_riverbed

NOW = datetime.now(UTC).replace(microsecond=0)
DECISION = "We keep the retry loop on purpose: the importer must log everything."


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def repo_with_index(tmp_path: Path) -> tuple[Path, Path]:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "http.py").write_text("print('hi')\n", encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "start")
    index = repo / ".river" / "memory" / "index.json"
    assert run_riverbed("--index", index, "init", cwd=repo).returncode == 0
    return repo, index


def offer(repo: Path, index: Path, *utterances: Utterance) -> dict[str, Any]:
    harvest = repo.parent / "harvest.json"
    at = NOW.isoformat().replace("+00:00", "Z")
    write_harvest(harvest, Harvest("o/r", at, None, utterances, {}, len(utterances)))
    done = run_riverbed(
        "--index", index, "lessons", "propose", "--harvest", harvest, "--write", "--json", cwd=repo
    )
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def say(pr: int, author: str, text: str, path: str | None = "src/http.py") -> Utterance:
    return Utterance(
        id=f"{pr}:review:{pr}",
        pr=pr,
        comment_id=pr,
        author=author,
        url=f"https://github.com/o/r/pull/{pr}#discussion_r{pr}",
        text=text,
        created_at="2026-01-01T00:00:00Z",
        pr_files=("src/http.py",),
        path=path,
    )


def insights(repo: Path, index: Path) -> dict[str, Any]:
    done = run_riverbed("--index", index, "insights", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def test_insights_lists_lessons_and_a_promoted_lesson_whose_files_are_gone(tmp_path: Path) -> None:
    repo, index = repo_with_index(tmp_path)
    (candidate,) = offer(repo, index, say(1, "alice", DECISION))["plan"]["written"]
    shown = insights(repo, index)
    assert [r["candidateId"] for r in shown["lessons"]] == [candidate]
    assert shown["lessons"][0]["offered"] is True
    text = run_riverbed("--index", index, "insights", cwd=repo).stdout
    assert "Lessons from review comments: 1 candidate(s) on offer" in text
    promoted = run_riverbed("--index", index, "promote", candidate, "--json", cwd=repo)
    entry_id = json.loads(promoted.stdout)["entry"]["id"]
    assert insights(repo, index)["lessonsWithoutGround"] == []
    git(repo, "rm", "-q", "src/http.py")
    git(repo, "commit", "-qm", "gone")
    (ungrounded,) = insights(repo, index)["lessonsWithoutGround"]
    assert ungrounded["entryId"] == entry_id
    assert ungrounded["paths"] == ["src/http.py"]
    # Listed, never archived by itself: a person runs the command.
    assert entry_status(entries_by_id(load_memory(index))[entry_id]) == "active"
    archived = run_riverbed("--index", index, *shlex.split(ungrounded["command"])[1:], cwd=repo)
    assert archived.returncode == 0, archived.stderr
    assert entry_status(entries_by_id(load_memory(index))[entry_id]) == "archived"


def test_outside_a_checkout_staleness_says_it_was_not_checked(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    run_riverbed("--index", index, "init", cwd=tmp_path)
    done = run_riverbed("--index", index, "insights", cwd=tmp_path)
    assert "Lessons without ground: not checked" in done.stdout


def test_the_candidates_issue_lists_lessons_with_mentions_broken(tmp_path: Path) -> None:
    repo, index = repo_with_index(tmp_path)
    text = "Always ask @org/team before you touch the importer code."
    offer(repo, index, say(1, "alice", text, None), say(2, "bob", text, None))
    memory = load_memory(index)
    analysed = analyze_memory(memory, now=NOW)
    (action,) = plan_issues(analysed, eval_history(memory), list(offers(memory).values()), [])
    assert action.action == "open"
    assert "1 lesson candidate(s) from what reviewers with write access wrote" in action.body
    assert "@org/team" not in action.body  # escaped: no team is notified
    assert "promotion candidate(s) on offer: suppressions" not in action.body
    rows = lesson_rows(memory)
    assert "@org/team" not in lessons_markdown(rows, None)


def test_status_counts_lesson_candidates_and_shows_the_offered(tmp_path: Path) -> None:
    repo, index = repo_with_index(tmp_path)
    (candidate,) = offer(repo, index, say(1, "alice", DECISION))["plan"]["written"]
    done = run_riverbed("--index", index, "status", "--json", cwd=repo)
    lessons = json.loads(done.stdout)["learning"]["lessons"]
    assert lessons["candidates"] == {"offered": 1, "declined": 0, "promoted": 0}
    assert [i["candidateId"] for i in lessons["items"]] == [candidate]
    text = run_riverbed("--index", index, "status", cwd=repo).stdout
    assert "lessons from review comments: 1 (1 offered)" in text
    assert f"{candidate} (decision): weight 1" in text
