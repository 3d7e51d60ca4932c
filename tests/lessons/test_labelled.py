"""The labelled set: the shipped file is well-formed and shaped as the issue asks; bad files
are refused in one line naming the file and the JSON path."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from riverbed.errors import InputFormatError
from riverbed.lessons.labelled import parse_labelled

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lessons"
LABELLED = FIXTURES / "labelled.json"


def small() -> dict[str, Any]:
    return {
        "version": 1,
        "knownRules": {"o/r": ["S101"]},
        "pullRequests": [
            {
                "pr": 7,
                "repository": "o/r",
                "files": ["src/a.py"],
                "utterances": [
                    {
                        "commentId": 70,
                        "source": "issue",
                        "author": "alice",
                        "permission": "write",
                        "type": "User",
                        "body": "Always wrap HTTP calls\r\nin the breaker.",
                        "adversarial": False,
                        "lessons": [
                            {
                                "kind": "pattern",
                                "quote": "Always wrap HTTP calls in the breaker.",
                                "anchor": "wrap HTTP calls in the breaker",
                            }
                        ],
                    }
                ],
            }
        ],
    }


def parse(doc: Any, name: str = "set.json") -> Any:
    return parse_labelled(json.dumps(doc).encode(), name)


def test_the_shipped_set_is_large_grouped_and_mixed() -> None:
    labelled = parse_labelled(LABELLED.read_bytes(), str(LABELLED))
    items = labelled.items
    assert len(items) >= 200
    assert len({(i.repository, i.pr) for i in items}) >= 40
    without = sum(1 for i in items if not i.lessons) / len(items)
    adversarial = sum(1 for i in items if i.adversarial) / len(items)
    assert 0.35 <= without <= 0.5, without
    assert 0.12 <= adversarial <= 0.2, adversarial
    kinds = {g.kind for i in items for g in i.lessons}
    assert kinds == {"pattern", "decision", "wontfix", "suppression_hint"}
    assert {i.permission for i in items} >= {"write", "read", "none"}
    assert {i.user_type for i in items} == {"User", "Bot"}
    # Writers with adversarial bodies are in the set too, not only outsiders.
    assert any(i.adversarial and not i.is_outsider for i in items)


def test_the_shipped_set_is_what_its_builder_writes() -> None:
    # The JSON is generated from the hand-written threads; the two may not drift apart.
    done = subprocess.run(
        [sys.executable, "build_labelled.py", "--check"], cwd=FIXTURES, capture_output=True
    )
    assert done.returncode == 0, "labelled.json is stale: run build_labelled.py"


def test_a_small_set_reads_with_its_gold_lesson() -> None:
    labelled = parse(small())
    (item,) = labelled.items
    assert item.utterance_id == "7:issue:70"
    assert item.pr_files == ("src/a.py",)
    assert item.lessons[0].anchor == "wrap HTTP calls in the breaker"
    assert labelled.known_rules["o/r"] == frozenset({"S101"})


def _at(doc: dict[str, Any], *path: Any) -> Any:
    for key in path:
        doc = doc[key]
    return doc


ITEM = ("pullRequests", 0, "utterances", 0)
TOKEN = "ghp" + "_" + "Z9y8" * 9  # assembled: no credential literal in this file


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        (lambda d: d.update(version=2), "$.version", "expected 1"),
        (lambda d: d.update(extra=1), "$.extra", "unknown key"),
        (lambda d: d.update(pullRequests={}), "$.pullRequests", "expected an array"),
        (lambda d: d.update(pullRequests=[]), "$.pullRequests", "no utterance"),
        (lambda d: _at(d, "pullRequests", 0).update(pr="7"), "$.pullRequests[0].pr", "positive"),
        (
            lambda d: _at(d, "pullRequests", 0).update(files=[3]),
            "$.pullRequests[0].files[0]",
            "file path",
        ),
        (
            lambda d: _at(d, *ITEM).update(permission="owner"),
            "utterances[0].permission",
            "expected one of",
        ),
        (lambda d: _at(d, *ITEM).update(type="Robot"), "utterances[0].type", "User, Bot"),
        (lambda d: _at(d, *ITEM).update(adversarial="no"), "utterances[0].adversarial", "true"),
        (lambda d: _at(d, *ITEM).pop("body"), "utterances[0].body", "raw body"),
        (lambda d: _at(d, *ITEM).update(lessons=None), "utterances[0].lessons", "array"),
        (
            lambda d: _at(d, *ITEM, "lessons", 0).update(kind="none"),
            "lessons[0].kind",
            "expected one of",
        ),
        (
            lambda d: _at(d, *ITEM, "lessons", 0).update(quote="Always wrap every call."),
            "lessons[0].quote",
            "not in the body",
        ),
        (
            lambda d: _at(d, *ITEM, "lessons", 0).update(anchor="circuit breaker"),
            "lessons[0].anchor",
            "not inside the gold quote",
        ),
        (
            lambda d: _at(d, *ITEM).update(permission="read"),
            "utterances[0].lessons",
            "teaches nothing",
        ),
        (
            lambda d: _at(d, *ITEM).update(type="Bot"),
            "utterances[0].lessons",
            "teaches nothing",
        ),
        (
            lambda d: _at(d, "pullRequests", 0, "utterances").append(copy.deepcopy(_at(d, *ITEM))),
            "utterances[1].commentId",
            "the same comment as $.pullRequests[0].utterances[0]",
        ),
        (lambda d: d.update(knownRules={"o/r": [""]}), "$.knownRules['o/r'][0]", "rule id"),
        (
            lambda d: (
                _at(d, *ITEM).update(body=f"Never commit {TOKEN} again."),
                _at(d, *ITEM, "lessons", 0).update(
                    quote=f"Never commit {TOKEN} again.", anchor="Never commit"
                ),
            ),
            "lessons[0].quote",
            "shaped like a",
        ),
    ],
)
def test_a_bad_set_is_one_line_naming_file_and_path(change: Any, where: str, problem: str) -> None:
    doc = small()
    change(doc)
    with pytest.raises(InputFormatError) as raised:
        parse(doc, "bad.json")
    message = str(raised.value)
    assert message.startswith("bad.json: not a valid labelled set: ")
    assert where in message and problem in message
    assert "\n" not in message


@pytest.mark.parametrize("data", [b"", b"{", b"\xff\xfe", b"[]", b"null", b'"x"'])
def test_garbage_bytes_are_refused_naming_the_file(data: bytes) -> None:
    with pytest.raises(InputFormatError) as raised:
        parse_labelled(data, "junk.json")
    assert str(raised.value).startswith("junk.json: ")
    assert "\n" not in str(raised.value)
