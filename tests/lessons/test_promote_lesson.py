"""Promoting a lesson candidate: a pattern led by the verbatim quotes; a hint stays a hint."""

from __future__ import annotations

import json
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from riverbed.index.model import context, entries_by_id, entry_status
from riverbed.index.store import load_memory
from riverbed.lessons.harvest_file import write_harvest
from riverbed.lessons.model import Harvest, Utterance
from riverbed.testing.cli_run import run_riverbed

NOW = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
WRAP = "Always wrap HTTP calls in the breaker."


def say(pr: int, author: str, text: str, path: str | None = None) -> Utterance:
    return Utterance(
        id=f"{pr}:review:{pr}0",
        pr=pr,
        comment_id=pr * 10,
        author=author,
        url=f"https://github.com/o/r/pull/{pr}#discussion_r{pr}0",
        text=text,
        created_at="2026-01-01T00:00:00Z",
        pr_files=("src/http.py",),
        path=path,
    )


def offer(tmp_path: Path, *utterances: Utterance) -> tuple[Path, dict[str, Any]]:
    index, harvest = tmp_path / "index.json", tmp_path / "harvest.json"
    if not index.exists():
        run_riverbed("--index", index, "init", cwd=tmp_path)
    write_harvest(harvest, Harvest("o/r", NOW, None, utterances, {}, len(utterances)))
    done = run_riverbed(
        "--index", index, "lessons", "propose", "--harvest", harvest, "--write", "--json"
    )
    assert done.returncode == 0, done.stderr
    return index, json.loads(done.stdout)


def test_promote_writes_a_pattern_that_starts_with_the_quotes(tmp_path: Path) -> None:
    index, data = offer(tmp_path, say(1, "alice", WRAP), say(2, "bob", "Always wrap HTTP calls."))
    (candidate_id,) = data["plan"]["written"]
    done = run_riverbed("--index", index, "promote", candidate_id, "--json", author="carol")
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["entry"]
    assert entry["type"] == "pattern"
    assert entry["content"].startswith(f"“{WRAP}” (alice, pull request 1)\n“Always wrap HTTP")
    assert entry["metadata"]["author"] == "carol"
    assert "lesson" in entry["metadata"]["tags"]
    assert context(entry)["promotedFrom"] == candidate_id
    stored = entries_by_id(load_memory(index))
    assert entry_status(stored[candidate_id]) == "superseded"
    assert stored[candidate_id]["supersededBy"] == entry["id"]
    again = run_riverbed("--index", index, "promote", candidate_id)
    assert again.returncode == 0
    assert "already promoted" in again.stdout
    # A later harvest saying it again offers nothing new: the lesson is promoted.
    _, later = offer(tmp_path, say(3, "dave", WRAP))
    assert later["plan"]["written"] == []
    assert any("promoted to" in s for s in later["plan"]["states"].values())


def test_a_decision_scoped_to_a_file_is_offered_at_weight_one_and_promoted(tmp_path: Path) -> None:
    text = "We keep the retry loop on purpose: the importer must log everything."
    index, data = offer(tmp_path, say(4, "alice", text, path="src/http.py"))
    (candidate_id,) = data["plan"]["written"]
    done = run_riverbed("--index", index, "promote", candidate_id, "--json")
    entry = json.loads(done.stdout)["entry"]
    assert (entry["type"], entry["metadata"]["relatedFiles"]) == ("decision", ["src/http.py"])


def test_decline_works_as_for_any_candidate(tmp_path: Path) -> None:
    index, data = offer(tmp_path, say(1, "alice", WRAP), say(2, "bob", WRAP))
    (candidate_id,) = data["plan"]["written"]
    done = run_riverbed("--index", index, "decline", candidate_id, "--reason", "not ours")
    assert done.returncode == 0, done.stderr
    assert entry_status(entries_by_id(load_memory(index))[candidate_id]) == "archived"


def test_a_suppression_hint_never_becomes_a_suppression(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    run_riverbed("--index", index, "init", cwd=tmp_path)
    known = run_riverbed(
        "--index", index, "suppress", "--rule", "E501", "--path", "docs/**", "--reason", "prose"
    )
    assert known.returncode == 0, known.stderr
    text = "We keep E501 off by design in this module."
    _, data = offer(tmp_path, say(1, "alice", text, path="src/http.py"))
    (candidate_id,) = data["plan"]["written"]
    candidate = entries_by_id(load_memory(index))[candidate_id]
    command = context(candidate)["suggestion"]["command"]
    assert command.startswith("riverbed suppress --rule E501 --path src/http.py --reason ")
    assert command in candidate["content"]
    before = len(load_memory(index)["entries"])
    refused = run_riverbed("--index", index, "promote", candidate_id)
    assert refused.returncode == 2
    assert "never becomes a suppression" in refused.stderr
    assert len(load_memory(index)["entries"]) == before
    # The writer runs the command themselves (the guard applies as to any suppression).
    ran = run_riverbed("--index", index, *shlex.split(command)[1:])
    assert ran.returncode == 0, ran.stderr


def test_an_unknown_rule_makes_no_hint(tmp_path: Path) -> None:
    _, data = offer(tmp_path, say(1, "alice", "We keep X999 off by design.", path="src/http.py"))
    assert data["outcomes"]["rule_unknown"] == 1
    assert data["plan"]["written"] == []


def test_the_comment_command_promotes_and_records_where_it_was_asked(tmp_path: Path) -> None:
    from riverbed.comments.apply import Provenance, apply_command
    from riverbed.comments.commands import PromoteCommand

    index, data = offer(tmp_path, say(1, "alice", WRAP), say(2, "bob", WRAP))
    (candidate_id,) = data["plan"]["written"]
    asked = Provenance("carol", 7, 70, "https://github.com/o/r/pull/7#issuecomment-70")
    now = datetime.now(UTC)
    done = apply_command(index, PromoteCommand(candidate_id), line=1, provenance=asked, now=now)
    assert done.ok, done
    assert done.entry_id is not None
    entry = entries_by_id(load_memory(index))[done.entry_id]
    assert (entry["type"], context(entry)["sourcePR"], context(entry)["sourceCommentId"]) == (
        "pattern",
        7,
        70,
    )
    assert asked.url in entry["metadata"]["links"]
